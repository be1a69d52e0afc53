import Synchronization

/// Holds one shared instance (a singleton, or one registration's instance in a custom scope).
///
/// Built at most once under `lock`; published with a releasing store of `ready`, so a read after
/// creation is one acquiring load and takes no lock.
@usableFromInline
final class SharedCell<Value>: @unchecked Sendable {
    // @unchecked: `value` is written once, inside `lock`, before the releasing store to `ready`,
    // and read only after an acquiring load of `ready` returned true, so no read races the write.
    @usableFromInline let ready = Atomic<Bool>(false)
    private let lock = Mutex<Void>(())
    @usableFromInline nonisolated(unsafe) var value: Value?

    @usableFromInline
    init() {}

    /// The instance, if it was built; takes no lock.
    @inlinable
    var instance: Value? {
        ready.load(ordering: .acquiring) ? value : nil
    }

    /// Returns the instance, building it with `make` first if nobody has; `make` runs at most once.
    func getOrCreate(_ make: () throws -> Value) throws -> Value {
        if let existing = instance { return existing }
        return try lock.withLock { _ in
            if ready.load(ordering: .relaxed), let existing = value { return existing }
            let made = try make()
            value = made
            ready.store(true, ordering: .releasing)
            return made
        }
    }
}

/// Holds a weakly shared instance: shared while somebody holds it, built again after release.
final class WeakCell: Sendable {
    private struct State: @unchecked Sendable {
        // @unchecked: the object is the user's shared instance, handed to every thread that looks the key
        // up, exactly as a singleton is; the weak reference itself is only touched inside `state`'s lock.
        weak var object: AnyObject?
    }
    private let state = Mutex(State())
    private let creation = Mutex<Void>(())

    /// Returns the live instance cast to `Value`, or builds one with `make` (at most one at a time).
    func getOrCreate<Value>(_ make: () throws -> Value) throws -> Value {
        if let live = state.withLock({ $0.object }) as? Value { return live }
        return try creation.withLock { _ in
            if let live = state.withLock({ $0.object }) as? Value { return live }
            let made = try make()
            let object = made as AnyObject
            let fresh = State(object: object)
            state.withLock { $0 = fresh }
            return made
        }
    }
}
