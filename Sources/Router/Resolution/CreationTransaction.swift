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
    // @unchecked: the mutable fields are read and written only while holding `CreationCoordinator`'s lock.

    /// The registrations this transaction claimed, outermost first, for the other side of a wait cycle's
    /// message.
    nonisolated(unsafe) private var claimed: [AnyEntry] = []
    /// The registration it waits for, for the same message.
    nonisolated(unsafe) private var awaited: AnyEntry?

    init() {}

    /// What a claim found.
    enum Claim {
        /// Published by someone else (possibly while this transaction waited): read the cell.
        case published
        /// Claimed: this transaction builds the instance and must publish, hold or give it up.
        case claimed
        /// Being built by this transaction's group: the provisional instance, if its factory returned; and,
        /// when another member of the group builds it, that member's claims and wait (for a message).
        case inProgress(Any?, otherSide: [String]?)
    }

    /// Claims `cell` for this transaction, waits for its owner (blocking the thread), or finds it in
    /// progress in this group.
    ///
    /// - Throws: A ``RouteError`` when another member of a merged group failed.
    func claim(_ cell: CreationCell, for entry: AnyEntry) throws -> Claim {
        try CreationCoordinator.run { machine in
            while true {
                if let claim = try step(&machine, claiming: cell, for: entry) { return claim }
                CreationCoordinator.wait(&machine)
            }
        }
    }

    /// ``claim(_:for:)`` for an async lookup: it waits for the owner suspended, never blocking a thread.
    nonisolated(nonsending) func claimAsync(_ cell: CreationCell, for entry: AnyEntry) async throws -> Claim {
        while true {
            var found: Result<Claim, any Error>?
            await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                let parked = CreationCoordinator.run { machine -> Bool in
                    do {
                        guard let claim = try step(&machine, claiming: cell, for: entry) else {
                            CreationCoordinator.park(self, waiter)
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
    nonisolated(nonsending) func awaitRelease(of cell: CreationCell, for entry: AnyEntry) async {
        while !cell.isPublished {
            var waited = false
            await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                waited = CreationCoordinator.run { machine -> Bool in
                    guard machine.awaitRelease(Ref(self), Ref(cell), isPublished: cell.isPublished) else {
                        return false
                    }
                    unsafe awaited = entry
                    CreationCoordinator.park(self, waiter)
                    return true
                }
                if !waited { waiter.resume() }
            }
            guard waited else { return }
            CreationCoordinator.run { _ in unsafe awaited = nil }
        }
    }

    /// One claim of `cell`: the claim, or nil when the machine recorded a wait (the caller waits, then
    /// asks again). Call inside ``CreationCoordinator/run(_:)``.
    private func step(_ machine: inout EngineCreationMachine, claiming cell: CreationCell, for entry: AnyEntry)
        throws -> Claim?
    {
        switch machine.claim(Ref(self), Ref(cell), isPublished: cell.isPublished) {
        case .published:
            unsafe awaited = nil
            return .published
        case .build:
            unsafe awaited = nil
            unsafe cell.entry = entry
            unsafe claimed.append(entry)
            return .claimed
        case .provisional:
            unsafe awaited = nil
            return .inProgress(cell.provisionalAny, otherSide: nil)
        case .cycle(let otherSide):
            unsafe awaited = nil
            return .inProgress(nil, otherSide: otherSide?.object.waitDescription)
        case .failed(let failure):
            unsafe awaited = nil
            throw failure
        case .wait:
            unsafe awaited = entry
            return nil
        }
    }

    /// Records the provisional instance of a cell this transaction owns (members of a merged group may be
    /// waiting for it).
    func setProvisional(_ cell: CreationCell, _ apply: () -> Void) {
        CreationCoordinator.run { machine in
            apply()
            machine.setProvisional(Ref(self), Ref(cell))
        }
    }

    /// Publishes the instance of a cell this transaction owns, or holds it while this transaction's group
    /// has other members (their objects may reach it before they are prepared). With `queuedAfter`, holds it
    /// until `state`'s drain has run that many preparations.
    func finish(
        _ cell: CreationCell, queuedAfter: Int? = nil, state: ObjectIdentifier, publish: @escaping () -> Void,
        discard: @escaping () -> Void
    ) {
        CreationCoordinator.run { machine in
            switch machine.finish(
                Ref(self), Ref(cell), drain: state, queuedAfter: queuedAfter,
                payload: Publication(publish: publish, discard: discard))
            {
            case .publish(let publication): publication.publish()
            case .discard(let publication): publication.discard()
            case .held: return
            }
        }
    }

    /// Gives up a claim whose build failed: the next lookup builds the instance again.
    func abandon(_ cell: CreationCell) {
        CreationCoordinator.run { machine in
            cell.discardProvisional()
            machine.abandon(Ref(self), Ref(cell))
        }
    }

    /// Publishes what `state` held back, once its drain has run every preparation; in a merged group
    /// they stay held until ``commit()``.
    func publishHeld(by state: ObjectIdentifier) {
        CreationCoordinator.run { machine in
            let published = machine.publishHeld(Ref(self), by: state)
            guard !published.isEmpty else { return }
            for publication in published { publication.publish() }
        }
    }

    /// Settles what a nested lookup (of another registry, on the same thread) held back when it failed:
    /// publishes the instances whose preparations all ran, forgets the rest. In a merged group they stay
    /// for the group to decide.
    func settleHeld(by state: ObjectIdentifier, completed: Int) {
        CreationCoordinator.run { machine in
            let settled = machine.settleHeld(Ref(self), by: state, completed: completed)
            for publication in settled.publish { publication.publish() }
            for publication in settled.discard { publication.discard() }
        }
    }

    /// Ends the transaction after its lookup succeeded: in a merged group, waits until every member has
    /// finished, and the last one publishes what the group built.
    /// - Throws: The failure of another member of the group.
    func commit() throws {
        try CreationCoordinator.run { machine in
            var outcome = machine.commit(Ref(self))
            while true {
                switch outcome {
                case .waitForGroup:
                    CreationCoordinator.wait(&machine)
                    outcome = machine.outcome(of: Ref(self))
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
        unsafe (claimed.map(\.key.short) + (awaited.map { [$0.key.short] } ?? []))
    }

    private static func carryOut(publish: [Publication], discard: [Publication], release: [Ref<CreationCell>]) {
        for publication in publish { publication.publish() }
        for publication in discard { publication.discard() }
        for cell in release { cell.object.discardProvisional() }
    }
}

/// How the coordinator publishes or forgets one held instance; both run under its lock and call no user
/// code.
struct Publication {
    let publish: () -> Void
    let discard: () -> Void
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
