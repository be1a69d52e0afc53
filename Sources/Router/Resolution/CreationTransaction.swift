import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// The creation protocol bound to threads and tasks: a lookup's handle (`CreationTransaction`, here), the lock
// and condition every handle runs the pure `CreationMachine` under (`CreationCoordinator`, in its own file),
// and the cells the instances it creates are kept in (`CreationCell` and its subclasses, in theirs). The
// machine stays in its own file so that the explorer drives it alone.

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

    /// How the coordinator wakes this transaction's lookup when its wait ends: only ``CreationCoordinator``
    /// reads or writes it, under its lock (its fields are private to the coordinator's file).
    var wake = CoordinatorWake()

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
