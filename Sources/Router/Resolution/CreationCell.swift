import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Storage for one shared instance whose creation a ``CreationTransaction`` owns while it runs.
///
/// Who builds it is the ``CreationMachine``'s to know, or, for a ``SharedCell`` claimed without contention,
/// the cell's own state word; provisional instances are guarded by ``CreationCoordinator``'s lock (or
/// written by the owner of an uncontended claim, which no other thread reads them from); a published
/// instance is read without any lock (see the subclasses).
@usableFromInline
class CreationCell: @unchecked Sendable {
    // @unchecked: the subclasses' provisional values are read and written only while holding
    // `CreationCoordinator`'s lock, or by the owner of an uncontended claim (see `SharedCell`); published
    // values synchronise themselves.

    init() {}

    /// Whether an instance is published. Takes no lock.
    @usableFromInline
    var isPublished: Bool { false }

    /// Whether the cell's generation was released (by a reset or a shutdown): it serves nothing more, and
    /// a lookup that claims it builds in the registration's current generation instead, or fails with
    /// `shutDown`. Takes no lock.
    @usableFromInline
    var isReleased: Bool { false }

    /// Whether nobody builds an instance in it (it is empty, possibly released, and unclaimed); false when
    /// unknown (a cell without a state word). Takes no lock.
    var isFree: Bool { false }

    /// Whether the instance its owner published came after the cell was released, so that it serves
    /// nothing and its publisher tears it down. Takes no lock.
    @usableFromInline
    var wasRejected: Bool { false }

    /// The instance built but not yet published, as `Any`; call with the coordinator's lock held.
    var provisionalAny: Any? { nil }

    /// Forgets the provisional instance, after the machine forgot who builds it (an abandoned build, a
    /// forgotten held instance): the cell is free for the next claim. Call with the coordinator's lock held.
    func discardProvisional() {}

    /// Before a transaction other than the owner asks the machine about this cell (coordinator lock held):
    /// takes the cell out of an uncontended claim, into the machine. Returns the transaction that claimed
    /// it that way, which the caller records as the owner (``CreationMachine/adopt(_:_:hasProvisional:isAsync:)``);
    /// nil when the cell was not so claimed.
    func takeUncontendedOwner() -> CreationTransaction? { nil }

    /// Before a claim through the machine (coordinator lock held), in one exchange: takes the cell out of
    /// an uncontended claim (returning its owner, which the caller records as the owner in the machine), or
    /// marks a cell nobody builds as the machine's, so that no uncontended claim takes it while the machine
    /// decides (a claim the machine answers with `build` makes the caller its owner). One exchange, because
    /// an uncontended claim takes no lock: taking the owner, then marking, let a claim land in between, and
    /// two lookups built one generation's instance (found under ThreadSanitizer by
    /// `resetsRacingLookupsFromManyThreadsRunTheFactoryOncePerGeneration`; the mutation check's
    /// `enter-machine-ignores-claim` is what that did, and `SharedCellWordExplorerTests` kills it).
    func enterMachine() -> CreationTransaction? { nil }

    /// The owner of an uncontended claim gives it up (see ``SharedCell``); a cell that has no state word
    /// is never so claimed, and answers `.inMachine`.
    func abandonUncontended(_ owner: UInt) -> UncontendedEnd { .inMachine }
}

/// Holds one shared instance (a singleton, one registration's instance in a custom scope or a request
/// scope, a `Lazy`'s value).
///
/// It is built by one ``CreationTransaction`` at a time and published with a releasing store of its state
/// once it is fully prepared, so a read after that is one acquiring load and takes no lock.
///
/// Its state word (`life`) is the protocol of its life:
/// - **free** (0): empty, nobody builds it;
/// - **claimed** (the owning transaction's address): claimed without contention, by one compare-and-exchange
///   from free, by a lookup the machine has no record of. Nothing else is written anywhere: no lock, no
///   dictionary. Its owner publishes it with one more exchange, to published, or gives it up, back to free;
/// - **in the machine** (bit 4): the ``CreationMachine`` knows who builds it (a claim that found it claimed,
///   or claimed by a lookup the machine knows). Each exchange that brings a claimed cell in, or marks a
///   free one, happens under the coordinator's lock, so the owner's exchange from claimed fails once it
///   has happened, and the owner carries out its end through the machine, which wakes the waiters;
/// - **published** (1);
/// - **released** (bit 2, kept with what was there): a reset, a shutdown or a scope's end closed its
///   generation; it serves nothing more;
/// - **rejected** (3): published after it was released; its publisher tears the instance down.
///
/// Publishing and releasing are each one exchange on that word, so exactly one of them owns the
/// instance's teardown: the release when it found the instance published, the publisher when it found the
/// cell released.
///
/// Generic over the optional it stores (`SharedCell<Value>` is `SharedInstanceCell<Value?>`), so that its
/// fields' type is its own generic argument: destroying a cell (its `deinit` runs unspecialised, from the
/// class's metadata) then asks the runtime for no `Optional<Value>` metadata, which cost about 700
/// instructions per cell, four cells per request of the s16 benchmark.
@usableFromInline
typealias SharedCell<Value> = SharedInstanceCell<Value?>

/// The class behind ``SharedCell``: `Stored` is `Value?` (see there).
@usableFromInline
final class SharedInstanceCell<Stored: OptionalInstance>: CreationCell, @unchecked Sendable {
    // @unchecked: `value` is written before the releasing exchange that publishes it, and read only after
    // an acquiring load of `life` found it published; `provisional` is guarded by the coordinator's lock,
    // or read and written by the owner of an uncontended claim while the claim is out of the machine: no
    // other thread reads it then (only a member of the owner's group reads it, through the machine, and the
    // claim enters the machine under that lock, after the owner's writes: `joinMachine`).
    @usableFromInline let life = Atomic<UInt>(SharedCellLife.free)
    // Unchecked exclusivity, `@safe`: no two accesses overlap. `value` is written by the cell's owner only
    // (the owner of its claim, with or without the machine), before the releasing exchange that publishes
    // it, and read only after an acquiring load found the cell published (or by the release that moved it
    // from published); `provisional` is read and written by an uncontended claim's owner, or with the
    // coordinator's lock held (see above; a `deinit` its release runs that looks up this cell's registration waits for the lock; it
    // does not reach the field). A dynamic exclusivity check on each singleton read would cost more than
    // the read.
    @safe @exclusivity(unchecked) @usableFromInline var value: Stored
    @safe @exclusivity(unchecked) @usableFromInline var provisional: Stored

    @usableFromInline
    override init() {
        value = nil
        provisional = nil
    }

    /// The instance, if it was published and not released; takes no lock.
    @inlinable
    var instance: Stored {
        life.load(ordering: .acquiring) == SharedCellLife.published ? value : nil
    }

    override var isPublished: Bool { life.load(ordering: .acquiring) == SharedCellLife.published }

    @usableFromInline
    override var isReleased: Bool { life.load(ordering: .acquiring) & 3 >= SharedCellLife.released }

    @usableFromInline
    override var wasRejected: Bool { life.load(ordering: .acquiring) == SharedCellLife.rejected }

    override var isFree: Bool { life.load(ordering: .acquiring) & ~SharedCellLife.released == SharedCellLife.free }

    override var provisionalAny: Any? { provisional.wrapped }

    @usableFromInline
    override func discardProvisional() {
        provisional = nil
        var state = life.load(ordering: .relaxed)
        // In the machine: free again (released stays released).
        while state & SharedCellLife.inMachine != 0, state & 3 != SharedCellLife.published {
            let (exchanged, found) = life.compareExchange(
                expected: state, desired: state & SharedCellLife.released, ordering: .acquiringAndReleasing)
            if exchanged { return }
            state = found
        }
    }

    /// Publishes the instance; false when the cell was released first (its generation closed while the
    /// instance was built): it then serves nothing, and the caller owns the instance's teardown. Called
    /// once, with the coordinator's lock held, by the cell's owner.
    @discardableResult
    @usableFromInline
    func publish(_ made: Stored.Wrapped) -> Bool {
        value = Stored(made)
        provisional = nil
        var state = life.load(ordering: .relaxed)
        while state & 3 == 0 {
            let (exchanged, found) = life.compareExchange(
                expected: state, desired: SharedCellLife.published, successOrdering: .releasing,
                failureOrdering: .relaxed)
            if exchanged { return true }
            state = found
        }
        // Released before: only this owner moves it on from there.
        life.store(SharedCellLife.rejected, ordering: .relaxed)
        return false
    }

    /// Closes the cell's generation, once: from now on it serves nothing, and an instance published into
    /// it later is its publisher's to tear down. Returns the instance it held, if one was published: the
    /// caller owns its teardown. Takes no lock; calls no user code.
    func release() -> Stored {
        var state = life.load(ordering: .acquiring)
        while state == SharedCellLife.published || state & 3 == 0 {
            let desired = state == SharedCellLife.published ? SharedCellLife.released : state | SharedCellLife.released
            let (exchanged, found) = life.compareExchange(
                expected: state, desired: desired, successOrdering: .acquiring, failureOrdering: .acquiring)
            if exchanged { return state == SharedCellLife.published ? value : nil }
            state = found
        }
        return nil
    }

    // MARK: The uncontended claim

    /// Claims the free cell for `owner` (its transaction's ``CreationTransaction/uncontendedWord``): one
    /// exchange, no lock. False when it is not free (published, released, claimed, or in the machine): the
    /// caller claims through the machine.
    func claimUncontended(_ owner: UInt) -> Bool {
        // Releasing too: a claimer that later finds the owner's address here reads the owner transaction's
        // fields (`isAsync`, written when it was made), after an acquiring load of this word.
        life.compareExchange(
            expected: SharedCellLife.free, desired: owner, successOrdering: .acquiringAndReleasing,
            failureOrdering: .relaxed
        ).exchanged
    }

    /// The owner of an uncontended claim publishes: one releasing exchange. `.inMachine` when another
    /// claim brought the cell into the machine meanwhile: the owner publishes through it instead (which
    /// wakes the waiters); `.rejected` when a release closed its generation meanwhile: it serves nothing,
    /// and the caller tears the instance down.
    @inlinable
    func publishUncontended(_ made: Stored.Wrapped, _ owner: UInt) -> UncontendedEnd {
        value = Stored(made)
        provisional = nil
        let (exchanged, found) = life.compareExchange(
            expected: owner, desired: SharedCellLife.published, successOrdering: .releasing,
            failureOrdering: .acquiring)
        if exchanged { return .done }
        guard found == owner | SharedCellLife.released else { return .inMachine }
        life.store(SharedCellLife.rejected, ordering: .relaxed)
        return .rejected
    }

    /// The owner of an uncontended claim gives it up (its build failed): the cell is free again, or stays
    /// released. `.inMachine` when another claim brought it into the machine meanwhile: the owner gives it
    /// up through the machine instead.
    override func abandonUncontended(_ owner: UInt) -> UncontendedEnd {
        provisional = nil
        var expected = owner
        while true {
            let (exchanged, found) = life.compareExchange(
                expected: expected, desired: expected & SharedCellLife.released, ordering: .acquiringAndReleasing)
            if exchanged { return .done }
            guard found == owner | SharedCellLife.released else { return .inMachine }
            expected = found
        }
    }

    override func takeUncontendedOwner() -> CreationTransaction? {
        var state = life.load(ordering: .acquiring)
        while state >= SharedCellLife.firstOwner {
            let (exchanged, found) = life.compareExchange(
                expected: state, desired: (state & SharedCellLife.released) | SharedCellLife.inMachine,
                ordering: .acquiringAndReleasing)
            if exchanged {
                // The word held the owner's address, and the exchange just made found it still there: see
                // `UncontendedOwner.transaction(at:)` for why the transaction is alive.
                return UncontendedOwner.transaction(at: state & ~SharedCellLife.flags)
            }
            state = found
        }
        return nil
    }

    override func enterMachine() -> CreationTransaction? {
        var state = life.load(ordering: .acquiring)
        while true {
            let claimed = state >= SharedCellLife.firstOwner
            // Claimed without contention: the owner's claim comes in (released stays released). Free or
            // released: marked. Published, rejected or in the machine already: nothing to do.
            guard claimed || state == SharedCellLife.free || state == SharedCellLife.released else { return nil }
            let desired = (claimed ? state & SharedCellLife.released : state) | SharedCellLife.inMachine
            let (exchanged, found) = life.compareExchange(
                expected: state, desired: desired, ordering: .acquiringAndReleasing)
            if exchanged {
                // The word held the owner's address, and this exchange found it still there: see
                // `UncontendedOwner.transaction(at:)` for why the transaction is alive.
                return claimed ? UncontendedOwner.transaction(at: state & ~SharedCellLife.flags) : nil
            }
            state = found
        }
    }
}

/// What a ``SharedInstanceCell`` stores: an optional (`Optional` is the one conformance).
@usableFromInline
protocol OptionalInstance: ExpressibleByNilLiteral {
    /// The instance's type.
    associatedtype Wrapped
    /// Stores `instance`.
    init(_ instance: Wrapped)
    /// The instance stored, if any.
    var wrapped: Wrapped? { get }
}

extension Optional: OptionalInstance {
    @inlinable
    var wrapped: Wrapped? { self }
}

/// How an uncontended claim's owner ended it (see ``SharedCell/publishUncontended(_:_:)``).
@usableFromInline
enum UncontendedEnd {
    /// Published, or given up.
    case done
    /// Published after a release: the instance serves nothing, and the publisher tears it down.
    case rejected
    /// Another claim brought the cell into the machine: end it there.
    case inMachine
}

/// The values and bits of a ``SharedCell``'s state word (`life`).
@usableFromInline
enum SharedCellLife {
    @inlinable static var free: UInt { 0 }
    @inlinable static var published: UInt { 1 }
    /// Added to what the word held (free, in the machine, or an owner's address) by a release.
    @inlinable static var released: UInt { 2 }
    @inlinable static var rejected: UInt { 3 }
    /// Set while the machine has a record of who builds it.
    @inlinable static var inMachine: UInt { 4 }
    /// The bits an owner's address leaves free (objects are 16-byte aligned).
    @inlinable static var flags: UInt { 15 }
    /// The smallest word that holds an owner's address.
    @inlinable static var firstOwner: UInt { 16 }
}

/// Holds a weakly shared instance: shared while somebody holds it, built again after release.
@usableFromInline
final class WeakCell: CreationCell, @unchecked Sendable {
    // @unchecked: `state` is locked; `provisional` is guarded by the coordinator's lock.
    private struct State: @unchecked Sendable {
        // @unchecked: the object is the user's shared instance, handed to every thread that looks the key
        // up, exactly as a singleton is; the weak reference itself is only touched inside `state`'s lock.
        weak var object: AnyObject?
    }
    private let state = Locked(State())
    private var provisional: AnyObject?

    override var isPublished: Bool { state.withLock { $0.object != nil } }

    override var provisionalAny: Any? { provisional }

    override func discardProvisional() { provisional = nil }

    /// Records the instance built but not yet published; call with the coordinator's lock held.
    func setProvisional(_ made: Any) { provisional = made as AnyObject }

    /// The live instance, if any, as `Value`.
    func live<Value>(as type: Value.Type) -> Value? {
        state.withLock { $0.object } as? Value
    }

    /// Publishes a new instance; the cell holds it weakly. Called with the coordinator's lock held.
    func publish<Value>(_ made: Value) {
        provisional = nil
        let fresh = State(object: made as AnyObject)
        state.withLock { $0 = fresh }
    }
}
