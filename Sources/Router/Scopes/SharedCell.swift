import Synchronization

/// Storage for one shared instance whose creation a ``CreationTransaction`` owns while it runs.
///
/// Who builds it is the ``CreationMachine``'s to know; provisional instances are guarded by
/// ``CreationCoordinator``'s lock; a published instance is read without any lock (see the subclasses).
@usableFromInline
class CreationCell: @unchecked Sendable {
    // @unchecked: `entry` and the subclasses' provisional values are read and written only while holding
    // `CreationCoordinator`'s lock; published values synchronise themselves.
    /// The registration the cell belongs to, for messages (not retained: the entry outlives its cells'
    /// use in a lookup).
    nonisolated(unsafe) unowned(unsafe) var entry: AnyEntry?

    init() {}

    /// Whether an instance is published. Takes no lock.
    var isPublished: Bool { false }

    /// The instance built but not yet published, as `Any`; call with the coordinator's lock held.
    var provisionalAny: Any? { nil }

    /// Forgets the provisional instance; call with the coordinator's lock held.
    func discardProvisional() {}
}

/// Holds one shared instance (a singleton, one registration's instance in a custom scope, a `Lazy`'s value).
///
/// It is built by one ``CreationTransaction`` at a time and published with a releasing store of `ready`
/// once it is fully prepared, so a read after that is one acquiring load and takes no lock.
@usableFromInline
final class SharedCell<Value>: CreationCell, @unchecked Sendable {
    // @unchecked: `value` is written once, before the releasing store to `ready`, and read only after an
    // acquiring load of `ready` returned true; `provisional` is guarded by the coordinator's lock.
    @usableFromInline let ready = Atomic<Bool>(false)
    // Unchecked: the publication protocol above orders every access; a dynamic exclusivity check on each
    // singleton read would cost more than the read.
    @exclusivity(unchecked) @usableFromInline nonisolated(unsafe) var value: Value?
    @exclusivity(unchecked) nonisolated(unsafe) var provisional: Value?

    @usableFromInline
    override init() {}

    /// The instance, if it was published; takes no lock.
    @inlinable
    var instance: Value? {
        unsafe ready.load(ordering: .acquiring) ? value : nil
    }

    override var isPublished: Bool { ready.load(ordering: .acquiring) }

    override var provisionalAny: Any? { unsafe provisional }

    override func discardProvisional() { unsafe provisional = nil }

    /// Publishes the instance. Called once, with the coordinator's lock held, by the cell's owner.
    func publish(_ made: Value) {
        unsafe value = made
        unsafe provisional = nil
        ready.store(true, ordering: .releasing)
    }
}

/// Holds a weakly shared instance: shared while somebody holds it, built again after release.
final class WeakCell: CreationCell, @unchecked Sendable {
    // @unchecked: `state` is locked; `provisional` is guarded by the coordinator's lock.
    private struct State: @unchecked Sendable {
        // @unchecked: the object is the user's shared instance, handed to every thread that looks the key
        // up, exactly as a singleton is; the weak reference itself is only touched inside `state`'s lock.
        weak var object: AnyObject?
    }
    private let state = Locked(State())
    nonisolated(unsafe) private var provisional: AnyObject?

    override var isPublished: Bool { state.withLock { $0.object != nil } }

    override var provisionalAny: Any? { unsafe provisional }

    override func discardProvisional() { unsafe provisional = nil }

    /// Records the instance built but not yet published; call with the coordinator's lock held.
    func setProvisional(_ made: Any) { unsafe provisional = made as AnyObject }

    /// The live instance, if any, as `Value`.
    func live<Value>(as type: Value.Type) -> Value? {
        state.withLock { $0.object } as? Value
    }

    /// Publishes a new instance; the cell holds it weakly. Called with the coordinator's lock held.
    func publish<Value>(_ made: Value) {
        unsafe provisional = nil
        let fresh = State(object: made as AnyObject)
        state.withLock { $0 = fresh }
    }
}
