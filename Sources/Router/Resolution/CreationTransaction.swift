import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// The creation protocol bound to threads and tasks: a lookup's handle (`CreationTransaction`), the lock and
// condition every handle runs the pure `CreationMachine` under (`CreationCoordinator`), and the cells the
// instances it creates are kept in (`CreationCell` and its subclasses). The machine stays in its own file so
// that the explorer drives it alone.

/// The creation transaction of one top-level lookup: its handle in the creation protocol.
///
/// The protocol itself is ``CreationMachine``, a state machine with no threads of its own; this type binds
/// it to threads. Every event runs the machine under ``CreationCoordinator``'s lock, carries out what the
/// machine returns (publishing or forgetting instances, which calls no user code), wakes waiting threads
/// when anything changed, and waits on the coordinator's condition when the machine says to wait. User
/// code (factories, preparations) never runs under the lock.
///
/// A transaction is made when its lookup first needs a shared instance nobody has published; a lookup
/// nested in another on the same thread shares the outer one's, so it never waits for its own thread.
@usableFromInline
final class CreationTransaction: @unchecked Sendable {
    // @unchecked: the mutable fields are read and written only while holding `CreationCoordinator`'s lock,
    // except those of the uncontended claim (`inMachine`, `firstUncontended`, `moreUncontended`), which only
    // the lookups the transaction belongs to touch, one at a time (see `inMachine`).

    /// The registrations this transaction claimed, outermost first, for the other side of a wait cycle's
    /// message.
    private var claimed: [AnyEntry] = []
    /// The registration it waits for, for the same message.
    private var awaited: AnyEntry?

    /// Whether the transaction belongs to an async lookup, which may suspend while it holds instances back.
    let isAsync: Bool

    /// The continuation of its async lookup while it is suspended waiting (``CreationCoordinator/park(_:_:_:)``):
    /// the event that ends the wait resumes it, found from the transaction the machine names, not from a list
    /// of every suspended lookup.
    fileprivate var parked: CheckedContinuation<Void, Never>?
    /// The condition its thread waits on while it blocks waiting (made at its first blocking wait): the event
    /// that ends the wait signals this thread only.
    fileprivate var condition: MonitorCondition?

    /// The word a ``SharedCell``'s state holds while this transaction claims it without contention: the
    /// transaction's address (objects are 16-byte aligned, so its low bits are free for the cell's flags).
    /// A claim that finds it brings the transaction into the machine as what it is (async or not), so a
    /// synchronous claim still learns that an async lookup's group holds a cell.
    // Unchecked exclusivity, `@safe`: written once, in `init`, before the transaction is shared.
    @safe @exclusivity(unchecked) @usableFromInline private(set) var uncontendedWord: UInt = 0

    /// Whether the machine has a record of this transaction: set by its first event that goes through the
    /// machine, never cleared. Until then each claim it makes is a single exchange on the cell's state
    /// word, no lock taken. Read and written only by the lookups the transaction belongs to, one at a time:
    /// a synchronous transaction's thread, or an async one's task (whose steps are ordered by its
    /// suspensions and resumptions).
    // Unchecked exclusivity, `@safe`: no two accesses overlap, since only those lookups, one at a time, make
    // them (this and the two fields below). Checking each access dynamically cost more than the claim.
    @safe @exclusivity(unchecked) @usableFromInline private(set) var inMachine: Bool

    /// The cells this transaction claimed without contention and has not yet published or given up, and
    /// whether each has its provisional instance: what ``joinMachine(_:)`` brings into the machine. The
    /// first is kept inline (a lookup usually builds one shared instance at a time). Read and written only
    /// by the lookups the transaction belongs to, one at a time (see ``inMachine``).
    @safe @exclusivity(unchecked) private var firstUncontended: UncontendedClaim?
    @safe @exclusivity(unchecked) private var moreUncontended: [UncontendedClaim] = []

    /// A claim made on a cell's state word (see ``firstUncontended``).
    private struct UncontendedClaim {
        let cell: CreationCell
        /// The registration, for the other side of a wait cycle's message once the claim enters the machine.
        let entry: AnyEntry
        /// Whether its factory returned (the instance is the cell's provisional one).
        var provisional = false
    }

    init(isAsync: Bool = false) {
        self.isAsync = isAsync
        inMachine = false
        // Set once the object exists: its own address.
        let address = UncontendedOwner.word(of: self)
        if address & SharedCellLife.flags == 0 && address >= SharedCellLife.firstOwner {
            uncontendedWord = address
        }
    }

    // MARK: The uncontended claim

    /// Claims `cell` with one exchange on its state word, taking no lock and writing nothing shared, when
    /// this transaction is not in the machine and the cell is free. False otherwise: the caller claims
    /// through the machine (``claim(_:for:)``).
    @usableFromInline
    func claimUncontended<Value>(_ cell: SharedCell<Value>, for entry: AnyEntry) -> Bool {
        guard !inMachine, uncontendedWord != 0, cell.claimUncontended(uncontendedWord) else { return false }
        let claim = UncontendedClaim(cell: cell, entry: entry)
        if firstUncontended == nil {
            firstUncontended = claim
        } else {
            moreUncontended.append(claim)
        }
        return true
    }

    /// Publishes the instance of an uncontended claim of this transaction (one releasing exchange).
    /// `.inMachine` when this transaction, or the claim, entered the machine meanwhile: the caller finishes
    /// through it (``finish(_:queuedAfter:state:handTo:order:publish:discard:revoke:)``).
    @inlinable
    func publishUncontended<Value>(_ cell: SharedCell<Value>, _ made: Value) -> UncontendedEnd {
        guard !inMachine else { return .inMachine }
        let end = cell.publishUncontended(made, uncontendedWord)
        if end != .inMachine { forgetUncontended(cell) }
        return end
    }

    /// Gives up an uncontended claim of this transaction whose build failed. False when this transaction,
    /// or the claim, entered the machine meanwhile: the caller gives it up through the machine
    /// (``abandon(_:)``).
    @usableFromInline
    func abandonUncontended(_ cell: CreationCell) -> Bool {
        guard !inMachine, cell.abandonUncontended(uncontendedWord) == .done else { return false }
        forgetUncontended(cell)
        return true
    }

    /// Marks the provisional instance of an uncontended claim of this transaction as set (the caller sets
    /// it in the cell). False when the claim is not an uncontended one of this transaction out of the
    /// machine: the caller sets it through ``setProvisional(_:_:)``.
    @usableFromInline
    func markUncontendedProvisional(_ cell: CreationCell) -> Bool {
        guard !inMachine else { return false }
        if let last = moreUncontended.indices.last(where: { moreUncontended[$0].cell === cell }) {
            moreUncontended[last].provisional = true
            return true
        }
        guard firstUncontended?.cell === cell else { return false }
        firstUncontended?.provisional = true
        return true
    }

    @usableFromInline
    func forgetUncontended(_ cell: CreationCell) {
        if let last = moreUncontended.lastIndex(where: { $0.cell === cell }) {
            moreUncontended.remove(at: last)
        } else if firstUncontended?.cell === cell {
            firstUncontended = moreUncontended.isEmpty ? nil : moreUncontended.removeFirst()
        }
    }

    /// Brings this transaction into the machine, once, before its first event there: each uncontended claim
    /// it still holds becomes the machine's record of it (one another transaction brought in already keeps
    /// its record), with its provisional instance. Call with the coordinator's lock held.
    private func joinMachine(_ machine: inout EngineCreationMachine) {
        guard !inMachine else { return }
        inMachine = true
        machine.begin(Ref(self), isAsync: isAsync)
        var claims: [UncontendedClaim] = []
        if let first = firstUncontended { claims.append(first) }
        claims += moreUncontended
        firstUncontended = nil
        moreUncontended = []
        for claim in claims {
            claimed.append(claim.entry)
            if let owner = claim.cell.takeUncontendedOwner() {
                machine.adopt(Ref(owner), Ref(claim.cell), hasProvisional: claim.provisional, isAsync: isAsync)
            } else if claim.provisional {
                machine.setProvisional(Ref(self), Ref(claim.cell))
            }
        }
    }

    /// Before another transaction asks the machine about `cell`: the owner of an uncontended claim of it
    /// becomes its owner in the machine. Call with the coordinator's lock held.
    private static func bringIn(_ cell: CreationCell, _ machine: inout EngineCreationMachine) {
        guard let owner = cell.takeUncontendedOwner() else { return }
        machine.adopt(Ref(owner), Ref(cell), isAsync: owner.isAsync)
    }

    /// What a claim found.
    @usableFromInline
    enum Claim {
        /// Published by someone else (possibly while this transaction waited): read the cell.
        case published
        /// Claimed: this transaction builds the instance and must publish, hold or give it up.
        case claimed
        /// Being built by this transaction's group: the provisional instance, if its factory returned; and,
        /// when another member of the group builds it, that member's claims and wait (for a message).
        case inProgress(Any?, otherSide: [String]?)
        /// Held back, unpublished, by an async lookup (or a group with one) that may be suspended: a
        /// synchronous claim must not block its thread waiting for it. `holder`: what that lookup claimed.
        case heldByAsyncLookup(holder: [String])
    }

    /// Claims `cell` for this transaction, waits for its owner (blocking the thread), or finds it in
    /// progress in this group.
    ///
    /// - Throws: A ``RouteError`` when another member of a merged group failed.
    func claim(_ cell: CreationCell, for entry: AnyEntry) throws -> Claim {
        try CreationCoordinator.runWaiting { shared, held in
            while true {
                if let claim = try step(&shared.machine, claiming: cell, for: entry, blocking: true) { return claim }
                CreationCoordinator.wait(&shared, held, for: self)
            }
        }
    }

    /// ``claim(_:for:)`` for an async lookup: it waits for the owner suspended, never blocking a thread.
    @usableFromInline
    nonisolated(nonsending) func claimAsync(_ cell: CreationCell, for entry: AnyEntry) async throws -> Claim {
        while true {
            var found: Result<Claim, any Error>?
            await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                let parked = CreationCoordinator.runWaiting { shared, _ -> Bool in
                    do {
                        guard let claim = try step(&shared.machine, claiming: cell, for: entry, blocking: false)
                        else {
                            CreationCoordinator.park(&shared, self, waiter)
                            return true
                        }
                        found = .success(claim)
                    } catch {
                        found = .failure(error)
                    }
                    return false
                }
                if !parked { waiter.resume() }
            }
            if let found { return try found.get() }
        }
    }

    /// Before an async lookup enters synchronous code that will claim `cell`: waits, suspended, while
    /// another lookup builds its instance, so that the claim does not block a thread of the pool.
    @usableFromInline
    nonisolated(nonsending) func awaitRelease(of cell: CreationCell, for entry: AnyEntry) async {
        // Nobody builds it: nothing to wait for, and nothing to ask the machine.
        while !cell.isPublished && !cell.isFree {
            var waited = false
            await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                waited = CreationCoordinator.runWaiting { shared, _ -> Bool in
                    joinMachine(&shared.machine)
                    Self.bringIn(cell, &shared.machine)
                    guard
                        shared.machine.awaitRelease(
                            Ref(self), Ref(cell), isPublished: cell.isPublished, isAsync: isAsync)
                    else {
                        return false
                    }
                    awaited = entry
                    CreationCoordinator.park(&shared, self, waiter)
                    return true
                }
                if !waited { waiter.resume() }
            }
            guard waited else { return }
            CreationCoordinator.run { _ in awaited = nil }
        }
    }

    /// One claim of `cell`: the claim, or nil when the machine recorded a wait (the caller waits, then
    /// asks again). Call inside ``CreationCoordinator/runWaiting(_:)``.
    private func step(
        _ machine: inout EngineCreationMachine, claiming cell: CreationCell, for entry: AnyEntry, blocking: Bool
    ) throws -> Claim? {
        joinMachine(&machine)
        if let owner = cell.enterMachine() { machine.adopt(Ref(owner), Ref(cell), isAsync: owner.isAsync) }
        // A blocking claim asks whether this thread may be needed by tasks only when that decides.
        switch machine.claim(
            Ref(self), Ref(cell), isPublished: cell.isPublished, blocking: blocking && CurrentThread.mayBeNeededByTasks,
            isAsync: isAsync)
        {
        case .published:
            awaited = nil
            return .published
        case .build:
            awaited = nil
            claimed.append(entry)
            return .claimed
        case .provisional:
            awaited = nil
            return .inProgress(cell.provisionalAny, otherSide: nil)
        case .cycle(let otherSide):
            awaited = nil
            return .inProgress(nil, otherSide: otherSide?.object.waitDescription)
        case .failed(let failure):
            awaited = nil
            throw failure
        case .heldAcrossSuspension(let owner):
            awaited = nil
            return .heldByAsyncLookup(holder: owner.object.waitDescription)
        case .wait:
            awaited = entry
            return nil
        }
    }

    /// Records the provisional instance of a cell this transaction owns (members of a merged group may be
    /// waiting for it).
    @usableFromInline
    func setProvisional(_ cell: CreationCell, _ apply: () -> Void) {
        CreationCoordinator.run { machine in
            joinMachine(&machine)
            apply()
            machine.setProvisional(Ref(self), Ref(cell))
        }
    }

    /// Publishes the instance of a cell this transaction owns, or holds it while this transaction's group
    /// has other members (their objects may reach it before they are prepared). With `queuedAfter`, holds it
    /// until `state`'s drain has run that many preparations; with `handTo`, until that (outermost) drain ends.
    /// `order`: the build's node in the lookup's graph, for ``finishGroup(_:order:state:publish:discard:)``.
    /// `publish` learns whether it runs now, inside this call, or later (see ``Publication/publish``).
    /// - Returns: Whether the instance was published or forgotten now, rather than held.
    @discardableResult
    @usableFromInline
    func finish(
        _ cell: CreationCell, queuedAfter: Int? = nil, state: ObjectIdentifier, handTo: ObjectIdentifier? = nil,
        order: Int = .min, publish: @escaping (_ now: Bool) -> Void, discard: @escaping () -> Void,
        revoke: ((_ published: Bool) -> Void)? = nil
    ) -> Bool {
        CreationCoordinator.run { machine in
            joinMachine(&machine)
            switch machine.finish(
                Ref(self), Ref(cell), drain: state, queuedAfter: queuedAfter, handTo: handTo, order: order,
                payload: Publication(publish: publish, discard: discard, cell: cell, revoke: revoke))
            {
            case .publish(let publication):
                publication.publish(true)
                return true
            case .discard(let publication):
                publication.discard()
                return true
            case .held: return false
            }
        }
    }

    /// Finishes the build of `cell`, begun at graph node `order` of `state`'s lookup, which completed a group:
    /// every unfinished instance it reached was built inside it, and all their preparations ran. Publishes
    /// it and everything `state` held from `order` on, at once (``CreationMachine/publishGroup(_:by:from:)``);
    /// in a merged group they stay held until ``commit()``. The group is published whole with respect to
    /// releases (``publishWhole(_:)``).
    @usableFromInline
    func finishGroup(
        _ cell: CreationCell, order: Int, state: ObjectIdentifier, publish: @escaping (_ now: Bool) -> Void,
        discard: @escaping () -> Void, revoke: ((_ published: Bool) -> Void)? = nil
    ) {
        CreationCoordinator.run { machine in
            joinMachine(&machine)
            var group: [Publication] = []
            switch machine.finish(
                Ref(self), Ref(cell), drain: state, queuedAfter: nil, order: order,
                payload: Publication(publish: publish, discard: discard, cell: cell, revoke: revoke))
            {
            // Not `now`: this lookup returns the instance whatever the publication found, so one that lands in a
            // released generation is torn down on a task of its own, as the rest of its group is.
            case .publish(let publication): group.append(publication)
            case .discard(let publication):
                publication.discard()
                return
            case .held: break
            }
            group += machine.publishGroup(Ref(self), by: state, from: order)
            Self.publishWhole(group)
        }
    }

    /// Publishes the members of a group, all or nothing with respect to releases: once a member's
    /// publication is rejected (a reset or a shutdown released its cell first; its publisher tears it down),
    /// no member is left published. The members not yet published are revoked unpublished (forgotten and
    /// torn down: their cells stay open, for the next lookup to build the whole group again); the members
    /// published before it are withdrawn (a resettable singleton's cell, if still its registration's current
    /// one, is replaced by a fresh one and released, and the instance torn down by whoever released it). A
    /// lookup on another thread may have read a withdrawn member in between, as it may read an instance a
    /// reset tears down next; no later lookup is served it. A member without `revoke` (an async build, a
    /// weak or custom-scope cell) is published as before. Call with the coordinator's lock held.
    static func publishWhole(_ group: [Publication]) {
        var rejectedAt: Int?
        for (index, publication) in group.enumerated() {
            publication.publish(false)
            if publication.cell?.wasRejected == true {
                rejectedAt = index
                break
            }
        }
        guard let rejectedAt else { return }
        for (index, publication) in group.enumerated() where index != rejectedAt {
            if let revoke = publication.revoke {
                revoke(index < rejectedAt)
            } else if index > rejectedAt {
                publication.publish(false)
            }
        }
    }

    /// Gives up a claim whose build failed: the next lookup builds the instance again.
    @usableFromInline
    func abandon(_ cell: CreationCell) {
        CreationCoordinator.run { machine in
            joinMachine(&machine)
            if machine.owner(of: Ref(cell)) == Ref(self) { cell.discardProvisional() }
            machine.abandon(Ref(self), Ref(cell))
        }
    }

    /// Gives up a claim whose build, begun at graph node `order` of `state`'s lookup, failed with `error`:
    /// what the lookup held from there on was built inside the failed build and is forgotten with it, and
    /// in a merged group the group fails (``CreationMachine/dropGroup(_:by:from:failure:)``).
    @usableFromInline
    func abandon(_ cell: CreationCell, state: ObjectIdentifier, order: Int, error: any Error) {
        CreationCoordinator.run { machine in
            joinMachine(&machine)
            if machine.owner(of: Ref(cell)) == Ref(self) { cell.discardProvisional() }
            machine.abandon(Ref(self), Ref(cell))
            let dropped = machine.dropGroup(
                Ref(self), by: state, from: order, failure: RouteError.groupFailed(error))
            for publication in dropped { publication.discard() }
        }
    }

    /// Publishes what `state` held back, once its drain has run every preparation; in a merged group
    /// they stay held until ``commit()``.
    func publishHeld(by state: ObjectIdentifier) {
        // Out of the machine, nothing is held.
        guard inMachine else { return }
        CreationCoordinator.run { machine in
            let published = machine.publishHeld(Ref(self), by: state)
            guard !published.isEmpty else { return }
            for publication in published { publication.publish(false) }
        }
    }

    /// Settles what a nested lookup (of another registry, on the same thread) held back when it failed:
    /// publishes the instances whose preparations all ran, forgets the rest. In a merged group they stay
    /// for the group to decide.
    func settleHeld(by state: ObjectIdentifier, completed: Int) {
        guard inMachine else { return }
        CreationCoordinator.run { machine in
            let settled = machine.settleHeld(Ref(self), by: state, completed: completed)
            for publication in settled.publish { publication.publish(false) }
            for publication in settled.discard { publication.discard() }
        }
    }

    /// Ends the transaction after its lookup succeeded: in a merged group, waits until every member has
    /// finished, and the last one publishes what the group built.
    /// - Throws: The failure of another member of the group.
    func commit() throws {
        // Out of the machine, every claim was published or given up on its own cell: nothing to end.
        guard inMachine else { return }
        try CreationCoordinator.runWaiting { shared, held in
            var outcome = shared.machine.commit(Ref(self))
            while true {
                switch outcome {
                case .waitForGroup:
                    CreationCoordinator.wait(&shared, held, for: self)
                    outcome = shared.machine.outcome(of: Ref(self))
                case .ended(let publish, let discard, let release, let failure):
                    Self.carryOut(publish: publish, discard: discard, release: release)
                    if let failure { throw failure }
                    return
                }
            }
        }
    }

    /// Ends the transaction after its lookup failed: publishes held instances whose preparations all ran
    /// (`completed` preparations of each state's drain), forgets the rest; in a merged group, fails the
    /// group and forgets everything it held.
    func rollBack(_ error: any Error, completed: [ObjectIdentifier: Int]) {
        guard inMachine else { return }
        CreationCoordinator.run { machine in
            let outcome = machine.rollBack(Ref(self), failure: RouteError.groupFailed(error), completed: completed)
            if case .ended(let publish, let discard, let release, _) = outcome {
                Self.carryOut(publish: publish, discard: discard, release: release)
            }
        }
    }

    /// The other side of a wait cycle as it reads in a message: what the transaction claimed, then what
    /// it waits for. Read with the coordinator's lock held.
    private var waitDescription: [String] {
        (claimed.map(\.key.short) + (awaited.map { [$0.key.short] } ?? []))
    }

    private static func carryOut(publish: [Publication], discard: [Publication], release: [Ref<CreationCell>]) {
        publishWhole(publish)
        for publication in discard { publication.discard() }
        for cell in release { cell.object.discardProvisional() }
    }
}

/// How the coordinator publishes or forgets one held instance; both run under its lock and call no user
/// code.
struct Publication {
    /// Publishes; `now` is true inside ``CreationTransaction/finish(_:queuedAfter:state:handTo:order:publish:discard:)``
    /// (its caller is still there to act on the outcome), false when a later event publishes what was held.
    let publish: (_ now: Bool) -> Void
    let discard: () -> Void
    /// The cell it publishes into, for ``CreationTransaction/publishWhole(_:)``.
    var cell: CreationCell?
    /// Undoes the member's part in a group another member of which landed in a released generation
    /// (``CreationTransaction/publishWhole(_:)``): `published` tells whether `publish` ran (and was not
    /// rejected). Call with the coordinator's lock held.
    var revoke: ((_ published: Bool) -> Void)?
}

/// An object as a key of the creation machine: equal when identical, and kept alive while the machine
/// refers to it (so an identifier is never reused for another object meanwhile).
struct Ref<Object: AnyObject>: Hashable {
    let object: Object
    init(_ object: Object) { self.object = object }
    static func == (lhs: Self, rhs: Self) -> Bool { lhs.object === rhs.object }
    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(object)) }
}

/// The creation machine as the engine runs it.
typealias EngineCreationMachine = CreationMachine<
    Ref<CreationCell>, Ref<CreationTransaction>, ObjectIdentifier, Publication, RouteError
>

// MARK: - The lock

/// The bookkeeping lock of the creation protocol, and the condition threads wait on for another
/// transaction's instance.
///
/// It guards the ``CreationMachine`` (who builds which shared instance, who waits for whom, groups, what
/// is held) and provisional instances. It is never held while user code runs: factories and preparations
/// run outside it, so a factory may wait for another thread's lookup of any other registration.
enum CreationCoordinator {
    /// What the lock guards, for every registry: the creation protocol's state. (A waiting thread, or a
    /// suspended async lookup, is found from its transaction: its condition or continuation is the
    /// transaction's, and the machine names the transactions whose waits ended.)
    struct Shared {
        var machine = EngineCreationMachine()
    }

    /// The lock and what it guards.
    private static let monitor = Monitor(Shared())

    /// The lock's proof, for ``wait(_:_:)`` and ``park(_:_:_:)``.
    typealias Held = Monitor<Shared>.Held

    /// Runs `body` holding the lock, with the creation machine, then wakes the waiting threads and async
    /// lookups if the machine says a wait ended. `body` must not call user code.
    static func run<Result>(_ body: (inout EngineCreationMachine) throws -> Result) rethrows -> Result {
        try runWaiting { shared, _ in try body(&shared.machine) }
    }

    /// ``run(_:)`` for a body that may wait (``wait(_:_:)``) or park an async lookup (``park(_:_:_:)``):
    /// it gets the parked list too, and the lock's proof.
    static func runWaiting<Result>(
        _ body: (inout Shared, borrowing Held) throws -> Result
    ) rethrows -> Result {
        var resumed: [CheckedContinuation<Void, Never>] = []
        defer { for waiter in resumed { waiter.resume() } }
        return try monitor.withLock { shared, held in
            defer {
                #if DEBUG
                    // A broken invariant is a bug of this library, never of the caller: stop where it happened.
                    // Checked while the machine is small (the check walks all of it, and a chain of a thousand
                    // shared instances in one lookup would make every event quadratic); the explorer checks
                    // every state.
                    if shared.machine.size <= 64 {
                        let problems = shared.machine.invariantViolations()
                        assert(problems.isEmpty, "creation machine: \(problems.joined(separator: "; "))")
                    }
                #endif
                resumed = wake(&shared, held)
            }
            return try body(&shared, held)
        }
    }

    /// Waits until an event ends `txn`'s wait (or its group's end, for a member waiting in
    /// ``CreationTransaction/commit()``) and signals its condition; call inside ``runWaiting(_:)``, in a loop
    /// that looks at the machine again after each return. Wakes the others first if the machine says a wait
    /// ended (a merge may have done so just before this thread waits); when that resumes parked async
    /// lookups, it returns at once instead of waiting, having released the lock while it resumed them.
    static func wait(_ shared: inout Shared, _ held: borrowing Held, for txn: CreationTransaction) {
        let resumed = wake(&shared, held)
        guard resumed.isEmpty else {
            // Resumed without the lock: a task executor may run the task before `resume` returns, and the
            // task may take the lock.
            monitor.unlocked(held) { for waiter in resumed { waiter.resume() } }
            return
        }
        let condition: MonitorCondition
        if let made = txn.condition {
            condition = made
        } else {
            condition = MonitorCondition()
            txn.condition = condition
        }
        monitor.wait(on: condition, held)
    }

    /// Suspends the async lookup of `txn`, whose wait the machine just recorded, until the wait ends;
    /// call inside ``runWaiting(_:)``, with the continuation of the suspending task.
    static func park(
        _ shared: inout Shared, _ txn: CreationTransaction, _ waiter: CheckedContinuation<Void, Never>
    ) {
        txn.parked = waiter
    }

    /// If the machine says a wait ended: wakes each transaction whose wait ended, and no other. A thread
    /// waiting is signalled on its own condition; a parked async lookup's continuation is taken from its
    /// transaction, for the caller to resume once it released the lock.
    private static func wake(_ shared: inout Shared, _ held: borrowing Held) -> [CheckedContinuation<Void, Never>] {
        guard shared.machine.needsWake else { return [] }
        var resumed: [CheckedContinuation<Void, Never>] = []
        for txn in shared.machine.takeWoken() {
            let transaction = txn.object
            if let waiter = transaction.parked {
                // Still waiting (for another cell since): a later event ends that wait and wakes it.
                if shared.machine.isWaiting(txn) { continue }
                transaction.parked = nil
                resumed.append(waiter)
            } else if let condition = transaction.condition {
                monitor.signal(condition, held)
            }
        }
        return resumed
    }
}

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

// MARK: - The client: a lookup claims, builds and publishes a shared instance

/// Thrown inside a lookup of a resettable singleton whose generation a reset released before its instance
/// was published: the lookup reads or builds the current generation's instead (`createInCurrentGeneration`).
/// Never leaves the lookup.
@usableFromInline
struct GenerationReleased: Error {
    /// Whether this lookup built an instance there (torn down since): only such builds count toward
    /// ``RouteError/generationAttempts``. A claim of a cell released before anything was built in it costs
    /// nothing, and each one follows another reset, so a lookup racing many resets on other threads is not
    /// refused (pinned by `resetsRacingLookupsFromManyThreadsRunTheFactoryOncePerGeneration`).
    var built = false
}

/// What a claim means to the lookup that made it (see ``Resolver/answer(_:for:published:)``).
@usableFromInline
enum ClaimAnswer<Destination> {
    /// The instance: published, or in progress in the lookup's group.
    case found(Destination)
    /// The lookup owns the cell now: build the instance.
    case build
    /// Claim again.
    case claimAgain
}

extension Resolver {
    /// Returns or builds the instance of a shared registration (singleton, weak singleton, custom scope).
    @inlinable
    mutating func buildShared<Destination>(_ entry: Entry<Destination>) throws -> Destination {
        if let existing = try existingInstance(entry, startingGraph: true) {
            return existing
        }
        switch entry.scope.kind {
        case .transient, .graph:
            return try construct(entry)
        case .singleton, .eagerSingleton:
            guard let cell = entry.singletonCell else { return try construct(entry) }
            guard entry.resets != nil else { return try createShared(entry, SharedSlot(cell)) }
            return try createInCurrentGeneration(entry, cell)
        case .weakSingleton:
            guard let cell = entry.weakCell else { return try construct(entry) }
            return try createShared(entry, SharedSlot(weak: cell))
        case .custom:
            guard let scope = entry.scope.customScope else { return try construct(entry) }
            let cell = try customCell(for: entry, in: scope)
            if let made = cell.instance { return made }
            return try createShared(entry, SharedSlot(cell))
        case .request:
            let cell = try requestCell(for: entry)
            if let made = cell.instance { return made }
            return try createShared(entry, SharedSlot(cell))
        case .supplied:
            // Read by `buildByScope` before it calls here; kept so that the switch names every kind.
            return try suppliedValue(entry)
        }
    }

    /// Builds a shared instance inside this lookup's creation transaction: claims its cell (or waits for
    /// the lookup that builds it, or finds it in progress in this lookup), builds and prepares it, then
    /// publishes it, or holds it until the enclosing lookup has run a preparation it needs.
    @inlinable
    mutating func createShared<Destination>(
        _ entry: Entry<Destination>, _ slot: SharedSlot<Destination>
    ) throws -> Destination {
        var creation = SharedCreation()
        return try createShared(entry, slot, &creation)
    }

    /// ``createShared(_:_:)`` as one step of `creation`, whose state outlives it when the lookup must claim
    /// again in the current generation (``createInCurrentGeneration(_:_:)``): the synchronous driver of
    /// ``SharedCreation``, which decides each step; this carries it out.
    @inlinable
    mutating func createShared<Destination>(
        _ entry: Entry<Destination>, _ slot: SharedSlot<Destination>, _ creation: inout SharedCreation
    ) throws -> Destination {
        if let made = slot.published() { return made }
        // An async singleton is built by async lookups only: a synchronous one fails at once rather than
        // block its thread on an async lookup's build.
        if entry.asyncFactory != nil {
            throw RouteError.asyncOnly(
                entry.key, path: pathTo(entry.key.short), eager: entry.scope.kind == .eagerSingleton)
        }
        // A parent registry's shared instance is built from the parent's registrations, never from the
        // overrides of the child that happens to ask for it first.
        if let owner = inheritedOwner(of: entry) { return try buildInOwner(entry, owner) }
        if graph == nil { state.startGraph() }
        let transaction = state.transaction
        // Uncontended (the cell is free, and this lookup is not in the machine): one exchange on the cell's
        // word. Otherwise through the machine, which also finds a cell being built by another lookup.
        var onWord = false
        if let cell = slot.shared { onWord = transaction.claimUncontended(cell, for: entry) }
        if !onWord, let found = try claim(slot.cell, for: entry, published: slot.published) { return found }
        // Claimed in a generation a reset or a shutdown released meanwhile: nothing is built there.
        if creation.claimed(onWord: onWord, released: !onWord && slot.cell.isReleased) == .giveUp {
            transaction.abandon(slot.cell)
            throw releasedGeneration(entry)
        }
        let mark = pendingCount
        // The node `construct` is about to push.
        let node = Int32(graphRef?.with { $0.nodes.count } ?? -1)
        // Cleared before the factory runs: a factory that closes a property cycle (it is handed an
        // ancestor still being prepared) makes the instance as unfinished as a preparation that does. An
        // instance whose preparation waits for the enclosing lookup is unfinished, and so is whatever the
        // enclosing factories build around it: they are held too (the explorer's "initializer a(b),
        // property b.a" scenario).
        let outer = state.preparations.enterUnfinishedScope()
        let made: Destination
        let deferred: [ResolutionGraph.Pending]
        do {
            made = try construct(entry)
            if transaction.markUncontendedProvisional(slot.cell) {
                // Read by nobody until the claim enters the machine (only a member of this transaction's group
                // reads it, through the machine), which happens under the coordinator's lock, after this write.
                slot.setProvisional(made)
            } else {
                transaction.setProvisional(slot.cell) { slot.setProvisional(made) }
            }
            deferred = try drainShared(from: mark, node: node)
        } catch {
            state.preparations.leaveUnfinishedScope(outer, failed: true)
            // What was held inside the failed build goes with it (the group is dropped whole); an uncontended
            // claim held nothing.
            let abandonment = creation.failed(node: Int(node))
            if abandonment.onWordFirst, transaction.abandonUncontended(slot.cell) {
                // Given up on the cell's word.
            } else if let order = abandonment.dropFrom {
                transaction.abandon(slot.cell, state: ObjectIdentifier(state), order: order, error: error)
            } else {
                transaction.abandon(slot.cell)
            }
            throw error
        }
        let reached = state.preparations.leaveUnfinishedScope(outer, failed: false, alsoUnfinished: !deferred.isEmpty)
        let stateID = ObjectIdentifier(state)
        let graph = self.graph
        let shape =
            graph == nil
            ? SharedCreation.Shape.finished
            : SharedCreation.Shape(
                deferred: !deferred.isEmpty, reachedUnfinished: reached.ancestor, reachedOuter: reached.outerInstance,
                node: Int(node), lowest: Int(reached.lowest))
        switch creation.built(shape) {
        case .now(let onWordFirst):
            if onWordFirst, let cell = slot.shared {
                switch transaction.publishUncontended(cell, made) {
                case .done: return made
                // Its generation was released while it was built: it is not served, and it is torn down now.
                case .rejected: return try landedInReleasedGeneration(entry, made, creation)
                case .inMachine: break
                }
            }
            let now = transaction.finish(
                slot.cell, state: stateID,
                publish: { now in
                    // Held for its group and published by a later event: this lookup has returned it, so one
                    // that lands in a released generation is torn down on a task of its own.
                    if !slot.publish(made), !now { entry.lateTeardown?.start(made) }
                }, discard: { slot.discard() })
            // Its generation was released while it was built: it is not served, and it is torn down now.
            if now, slot.cell.wasRejected { return try landedInReleasedGeneration(entry, made, creation) }
            return made
        case .group(let order):
            // A group is complete: whatever unfinished this build reached (a property edge closing a cycle)
            // was built inside it, and every preparation of it ran. It is published now, whole, with what
            // was held inside it: what the lookup does next (fail, suspend) neither splits nor holds it.
            transaction.finishGroup(
                slot.cell, order: order, state: stateID,
                publish: { _ in
                    // The lookup returns the group whatever its publication found (see `finishGroup`): one that
                    // lands in a released generation is torn down on a task of its own.
                    if !slot.publish(made) { entry.lateTeardown?.start(made) }
                }, discard: { slot.discard() }, revoke: { slot.revoke(made, of: entry, published: $0) })
            return made
        case .held(let order, let handToOutermost):
            // A preparation needs an object an enclosing factory is still building, or the instance reached an
            // ancestor that is still being prepared: the deferred preparations run in the enclosing lookup's
            // drain, and the instance is published after it.
            // In a nested lookup, an instance that reached one the outer lookups have not published waits for
            // the outermost lookup's end (the nested lookup runs inside the outer one's factory or preparation).
            // (Only a lookup with a graph holds: `Shape.finished` publishes now.)
            graph?.pending.append(contentsOf: deferred)
            transaction.finish(
                slot.cell, queuedAfter: pendingCount, state: stateID,
                handTo: handToOutermost ? ObjectIdentifier(state.outermost) : nil, order: order,
                publish: { _ in
                    // Published with what its lookup holds back: the lookup has handed it on already, so one
                    // that lands in a released generation is torn down on a task of its own.
                    if !slot.publish(made) { entry.lateTeardown?.start(made) }
                },
                discard: { slot.discard() }, revoke: { slot.revoke(made, of: entry, published: $0) })
            return made
        }
    }

    /// Builds a resettable singleton in its current generation: when a reset released the generation this
    /// lookup built in (or claimed) before the instance was published, that instance is torn down and the
    /// lookup reads, or builds, the current generation's. A reset during each of
    /// ``RouteError/generationAttempts`` builds in a row (a factory that resets its own registration) ends
    /// the lookup with ``RouteError/Code/scopeClosed``.
    @usableFromInline
    mutating func createInCurrentGeneration<Destination>(
        _ entry: Entry<Destination>, _ first: SharedCell<Destination>
    ) throws -> Destination {
        var cell = first
        var creation = SharedCreation()
        while true {
            do {
                return try createShared(entry, SharedSlot(cell), &creation)
            } catch let released as GenerationReleased {
                guard creation.generationReleased(built: released.built) == .claimCurrent,
                    let current = entry.singletonCell
                else { break }
                if let made = current.instance { return made }
                cell = current
            }
        }
        throw RouteError.releasedDuringEveryBuild(entry, path: pathTo(entry.key.short))
    }

    /// What a lookup that claimed a released cell throws: ``GenerationReleased``, to build in the current
    /// generation, after a reset; `shutDown` once the registry is shutting down.
    @usableFromInline
    func releasedGeneration<Destination>(_ entry: Entry<Destination>, built: Bool = false) -> any Error {
        // A cell of an override layer whose block has ended (it released the cell at its end).
        if let layer = overrideLayer(holding: entry), !layer.isActive {
            return RouteError.overrideEndedWhileMaking(entry.key.full)
        }
        guard entry.resets != nil, entry.lateTeardown?.lifecycle.isClosed != true else {
            return RouteError.shutDownWhileMaking(entry.key.full)
        }
        return GenerationReleased(built: built)
    }

    /// An instance whose publication found its cell released: a registration with a teardown tears it
    /// down now, once, on this thread (an async teardown on a task of its own), and the lookup fails with
    /// `shutDown` or builds in the current generation; one without a teardown keeps what it built (the old
    /// generation's instance, which nothing else serves).
    @usableFromInline
    func landedInReleasedGeneration<Destination>(
        _ entry: Entry<Destination>, _ made: Destination, _ creation: SharedCreation
    ) throws -> Destination {
        guard creation.landed(rejected: true, tearsDown: entry.lateTeardown != nil) == .tearDown,
            let teardown = entry.lateTeardown
        else { return made }
        teardown.run(made)
        throw releasedGeneration(entry, built: true)
    }

    /// The override layer whose cell `entry` is (a registration of the layer, or its copy of one beneath
    /// it), as this lookup's table sees it; nil for a registry's own registration, and at once for a lookup
    /// of a registry with no parent and no override.
    func overrideLayer(holding entry: AnyEntry) -> OverrideLayer? {
        tableRef.with { table -> OverrideLayer? in
            guard table.layer != nil || table.parent != nil else { return nil }
            return table.owner(of: entry)?.layer
        }
    }

    /// The table that holds `entry` when this lookup's table does not and the instance is held by that
    /// table (``AnyEntry/isHeldByItsTable``: not a request's): a parent registry's, or the override layer
    /// beneath a child's view that made `entry` as its copy. Nil for the lookup's own registrations and for
    /// a registry with no parent (one load and a branch, before anything else is read).
    @usableFromInline
    func inheritedOwner(of entry: AnyEntry) -> Borrowed<SealedTable>? {
        tableRef.with { table -> Borrowed<SealedTable>? in
            guard table.parent != nil, entry.isHeldByItsTable, !table.holds(entry), let owner = table.owner(of: entry)
            else { return nil }
            // Borrowed: the lookup's table keeps its parents, and a layer the tables beneath it, alive.
            return Borrowed(owner)
        }
    }

    /// Builds `entry`'s shared instance as a lookup of `owner` nested in this one, as a lookup made through
    /// the parent registry would build it: its factory and preparations resolve against the parent's
    /// registrations, and the nested lookup shares this thread's creation transaction (see
    /// ``lookup(in:reporting:seeding:onMainActor:_:)``). A failure is this lookup's to report, its path
    /// prefixed with this lookup's. A trace of this lookup counts the build as its own.
    @inline(never)
    @usableFromInline
    mutating func buildInOwner<Destination>(_ entry: Entry<Destination>, _ owner: Borrowed<SealedTable>) throws
        -> Destination
    {
        var built = false
        let made: Destination
        do {
            made = try Resolver.lookup(in: owner, reporting: nil) { resolver -> Destination in
                let before = resolver.state.frames.constructions
                let made = try resolver.build(entry)
                built =
                    resolver.state.frames.constructions != before
                    && resolver.state.frames.lastConstructed == ObjectIdentifier(entry)
                return made
            }
        } catch let error as RouteError where !error.path.isEmpty {
            // The nested lookup's path starts at `entry`; the whole path starts where this lookup did.
            throw error.with(path: runningPath() + error.path)
        }
        if built { state.frames.noteConstructed(entry) }
        return made
    }

    /// Runs a shared instance's preparations now, except those that need an object an enclosing factory is
    /// still building: those are returned, to run in the enclosing lookup's drain.
    @usableFromInline
    mutating func drainShared(from mark: Int, node: Int32) throws -> [ResolutionGraph.Pending] {
        guard let graph else { return [] }
        let outerFloor = state.preparations.enterSharedFloor(node)
        defer {
            state.preparations.leaveSharedFloor(outerFloor)
            graph.removePending(from: mark)
        }
        var deferred: [ResolutionGraph.Pending] = []
        var index = mark
        while index < graph.pending.count {
            let item = graph.pending[index]
            index += 1
            state.preparations.clearDeferralRequest()
            do {
                try runPending(item, graph: graph)
            } catch  where state.preparations.deferralRequested {
                // Unwound by the deferral (possibly rethrown as another error by user code).
            }
            if state.preparations.clearDeferralRequest() {
                // Also when the preparation swallowed the deferral (`try?`) and returned: it runs again,
                // whole, in the enclosing lookup's drain.
                deferred.append(item)
            }
        }
        return deferred
    }

    /// Claims `cell` for this lookup's creation transaction. Returns the instance when somebody published
    /// it (possibly while this lookup waited) or this lookup's group has it in progress; returns nil when
    /// this lookup now owns the cell and must build the instance.
    @usableFromInline
    mutating func claim<Destination>(
        _ cell: CreationCell, for entry: AnyEntry, published: () -> Destination?
    ) throws -> Destination? {
        while true {
            switch try answer(try state.transaction.claim(cell, for: entry), for: entry, published: published) {
            case .found(let made): return made
            case .build: return nil
            case .claimAgain: continue
            }
        }
    }

    /// What a claim's answer means to the lookup that claimed, synchronous or async (the one reading of
    /// ``CreationTransaction/Claim``): the instance, the cell to build, or a claim to make again (a weak
    /// instance published and released meanwhile); or the error an initializer cycle or an async holder
    /// is.
    @inline(__always)
    @usableFromInline
    func answer<Destination>(
        _ claim: CreationTransaction.Claim, for entry: AnyEntry, published: () -> Destination?
    ) throws -> ClaimAnswer<Destination> {
        switch claim {
        case .published:
            guard let made = published() else { return .claimAgain }
            return .found(made)
        case .inProgress(let provisional, let otherSide):
            if let made = provisional as? Destination {
                // Not published: what is built around it waits for it (see `noteReachedGroupInstance`).
                state.noteReachedGroupInstance(node: builtNode(of: entry))
                return .found(made)
            }
            throw inProgressError(entry, otherSide: otherSide)
        case .claimed:
            return .build
        case .heldByAsyncLookup(let holder):
            throw RouteError.heldByAsyncLookup(entry.key, path: runningPath() + [entry.key.short], holder: holder)
        }
    }

    /// The node of the last object this lookup's graph made from `entry`: where an instance of its
    /// transaction that a claim found in progress was built, when this lookup built it; -1 when it did
    /// not (another lookup of its group, or an outer lookup, did). Only a cycle's claim asks.
    func builtNode(of entry: AnyEntry) -> Int32 {
        guard let graphRef else { return -1 }
        // Borrowed: the state owns the graph for the whole lookup.
        return graphRef.with { graph in graph.lastBuiltNode(of: entry) }
    }

    /// The error for an instance this lookup's transaction group is building whose factory has not
    /// returned: an initializer-only cycle, on this thread or across threads.
    func inProgressError(_ entry: AnyEntry, otherSide: [String]?) -> RouteError {
        let here = runningPath() + [entry.key.short]
        guard let otherSide else {
            return RouteError.circular(here, entry: entry)
        }
        return RouteError.circularAcrossThreads(entry, here: here, there: otherSide)
    }
}

/// How the creation logic reaches one shared instance's storage, whatever kind of cell holds it.
@usableFromInline
struct SharedSlot<Value> {
    /// The cell, for the transaction's bookkeeping.
    @usableFromInline
    let cell: CreationCell
    /// The cell when it has a state word (not a weak cell): it may be claimed without the machine.
    @usableFromInline
    let shared: SharedCell<Value>?
    /// The published instance; takes no coordinator lock.
    @usableFromInline
    let published: () -> Value?
    /// Records the instance built but not yet published; call with the coordinator's lock held.
    @usableFromInline
    let setProvisional: (Value) -> Void
    /// Publishes the instance; false when the cell was released first (see ``SharedCell/publish(_:)``).
    /// Call with the coordinator's lock held.
    @usableFromInline
    let publish: (Value) -> Bool
    /// Forgets the provisional instance; call with the coordinator's lock held.
    @usableFromInline
    let discard: () -> Void

    /// Undoes a member's part in a group published across a release (see
    /// ``CreationTransaction/publishWhole(_:)``). Unpublished, it is forgotten and torn down: its cell
    /// stays open for the next build. Published, a resettable singleton is withdrawn: if its cell is still
    /// the current generation's, a fresh one replaces it and the instance the release hands back is torn
    /// down (a reset that released the cell first tears it down itself); another kind stays published.
    /// Called with the coordinator's lock held.
    @usableFromInline
    func revoke(_ made: Value, of entry: Entry<Value>, published: Bool) {
        guard published else {
            discard()
            entry.lateTeardown?.start(made)
            return
        }
        if let withdrawn = entry.resets?.withdraw(cell) { entry.lateTeardown?.start(withdrawn) }
    }

    @inlinable
    init(_ cell: SharedCell<Value>) {
        self.cell = cell
        shared = cell
        published = { cell.instance }
        setProvisional = { cell.provisional = $0 }
        publish = { cell.publish($0) }
        discard = { cell.discardProvisional() }
    }

    @usableFromInline
    init(weak cell: WeakCell) {
        self.cell = cell
        shared = nil
        published = { cell.live(as: Value.self) }
        setProvisional = { cell.setProvisional($0) }
        publish = {
            cell.publish($0)
            return true
        }
        discard = { cell.discardProvisional() }
    }
}
