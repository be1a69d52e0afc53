import Synchronization

/// Holds one shared instance (a singleton, or one registration's instance in a custom scope).
///
/// It is built under ``CreationLock`` and published with a releasing store of `ready` once it is fully
/// prepared, so a read after that is one acquiring load and takes no lock.
@usableFromInline
final class SharedCell<Value>: @unchecked Sendable {
    // @unchecked: `value` is written once, under the creation lock, before the releasing store to
    // `ready`, and read only after an acquiring load of `ready` returned true.
    @usableFromInline let ready = Atomic<Bool>(false)
    // Unchecked: the publication protocol above orders every access; a dynamic exclusivity check on each
    // singleton read would cost more than the read.
    @exclusivity(unchecked) @usableFromInline nonisolated(unsafe) var value: Value?
    /// Built but not yet published; read and written only under the creation lock, so only the thread
    /// building it sees it.
    @exclusivity(unchecked) nonisolated(unsafe) var provisional: Value?

    @usableFromInline
    init() {}

    /// The instance, if it was published; takes no lock.
    @inlinable
    var instance: Value? {
        ready.load(ordering: .acquiring) ? value : nil
    }

    /// Publishes the instance. Called once, under the creation lock.
    func publish(_ made: Value) {
        value = made
        provisional = nil
        ready.store(true, ordering: .releasing)
    }

    /// The slot the creation logic works with.
    var slot: SharedSlot<Value> {
        SharedSlot(
            published: { [self] in instance }, provisional: { [self] in provisional },
            setProvisional: { [self] in provisional = $0 }, publish: { [self] in publish($0) })
    }
}

/// A cell that can say whether its instance is published, whatever its value type.
protocol PublishedCell: AnyObject {
    var isPublished: Bool { get }
}

extension SharedCell: PublishedCell {
    var isPublished: Bool { ready.load(ordering: .acquiring) }
}

/// Holds a weakly shared instance: shared while somebody holds it, built again after release.
final class WeakCell: @unchecked Sendable {
    // @unchecked: `state` is locked; `provisional` is touched only under the creation lock.
    private struct State: @unchecked Sendable {
        // @unchecked: the object is the user's shared instance, handed to every thread that looks the key
        // up, exactly as a singleton is; the weak reference itself is only touched inside `state`'s lock.
        weak var object: AnyObject?
    }
    private let state = Locked(State())
    /// Built but not yet published; touched only under the creation lock.
    nonisolated(unsafe) private var provisional: AnyObject?

    /// The slot the creation logic works with.
    func slot<Value>(as type: Value.Type) -> SharedSlot<Value> {
        SharedSlot(
            published: { [self] in live(as: Value.self) }, provisional: { [self] in provisional as? Value },
            setProvisional: { [self] in provisional = $0.map { $0 as AnyObject } },
            publish: { [self] in
                provisional = nil
                publish($0)
            })
    }

    /// The live instance, if any, as `Value`.
    func live<Value>(as type: Value.Type) -> Value? {
        state.withLock { $0.object } as? Value
    }

    /// Publishes a new instance; the cell holds it weakly.
    func publish<Value>(_ made: Value) {
        let fresh = State(object: made as AnyObject)
        state.withLock { $0 = fresh }
    }
}

/// How the creation logic reaches one shared instance's storage, whatever kind of cell holds it.
struct SharedSlot<Value> {
    /// The published instance; takes no creation lock.
    let published: () -> Value?
    /// The instance built but not yet published; call only under the creation lock.
    let provisional: () -> Value?
    /// Records (or, with nil, forgets) a provisional instance; call only under the creation lock.
    let setProvisional: (Value?) -> Void
    /// Publishes the instance; call only under the creation lock.
    let publish: (Value) -> Void
}
