/// The creation transaction of one top-level lookup: the shared instances it is building, those it built
/// but may not publish yet, and what it waits for.
///
/// **The protocol.** A lookup that needs a shared instance nobody has published *claims* the instance's
/// cell (``claim(_:for:)``): it becomes the cell's owner and builds the instance outside any lock.
/// Another lookup that needs the same instance waits until the owner publishes it or gives it up. A lookup
/// that needs an instance its own transaction is building gets the provisional instance when its factory
/// has returned (a property edge closing a cycle), or a `circularDependency` error.
///
/// **Visibility.** An instance is published as soon as its preparations have run, unless one of them
/// needed an object an enclosing factory was still building: then it is *held* (``hold(_:queuedAfter:state:publish:discard:)``) and
/// published when the enclosing lookup has run that preparation (``publishHeld(by:)``), or forgotten when
/// the lookup fails (``rollBack(_:completed:)``).
///
/// **Waits that form a cycle.** Before waiting, a transaction checks whether the owner's group waits,
/// directly or through others, for its own group. If so, waiting would deadlock: the two groups merge
/// instead. Within a group, each transaction sees the others' provisional instances, exactly as within
/// one lookup, and nothing the group built is published until every member has finished (``commit()``);
/// if one member fails, the whole group's unpublished instances are forgotten and every member fails.
@usableFromInline
final class CreationTransaction: @unchecked Sendable {
    // @unchecked: every mutable field is read and written only while holding `CreationCoordinator`'s lock.

    /// An instance built but held back, with how to publish or forget it.
    struct Held {
        let cell: CreationCell
        let publish: () -> Void
        let discard: () -> Void
        /// How many pending preparations of `state`'s graph must have run before it may be published.
        let queuedAfter: Int
        /// The lookup state whose drain runs those preparations.
        let state: ObjectIdentifier
    }

    /// Transactions that merged because their waits formed a cycle.
    final class Group {
        var members: [CreationTransaction] = []
        var unfinished = 0
        var committed = false
        var failure: RouteError?
    }

    nonisolated(unsafe) var group: Group
    nonisolated(unsafe) var held: [Held] = []
    /// The transaction owning the cell this one waits for, the cell, and its registration.
    nonisolated(unsafe) var waitingFor: CreationTransaction?
    nonisolated(unsafe) var awaitedCell: CreationCell?
    nonisolated(unsafe) var awaited: AnyEntry?
    /// The registrations this transaction claimed, outermost first, for the other side of a wait cycle's
    /// message.
    nonisolated(unsafe) var claims: [AnyEntry] = []

    init() {
        let group = Group()
        self.group = group
        group.members = [self]
        group.unfinished = 1
    }

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

    /// Claims `cell` for this transaction, waits for its owner, or finds it in progress in this group.
    ///
    /// - Throws: A ``RouteError`` when another member of a merged group failed.
    func claim(_ cell: CreationCell, for entry: AnyEntry) throws -> Claim {
        try CreationCoordinator.withLock {
            while true {
                if cell.isPublished { return .published }
                guard let owner = cell.owner else {
                    cell.owner = self
                    cell.entry = entry
                    claims.append(entry)
                    return .claimed
                }
                if let failure = group.failure { throw failure }
                if owner.group === group {
                    let provisional = cell.provisionalAny
                    if provisional != nil || owner === self { return .inProgress(provisional, otherSide: nil) }
                    // Another member of the group is running the factory: wait for its instance, unless
                    // that member is itself blocked on this transaction (an initializer-only cycle).
                    if owner.isBlocked(on: self) { return .inProgress(nil, otherSide: owner.waitDescription) }
                } else if owner.group.waits(for: group) {
                    // Waiting would close a cycle of waits: join the owner's group instead.
                    merge(with: owner.group)
                    CreationCoordinator.wakeAll()
                    continue
                }
                waitingFor = owner
                awaitedCell = cell
                awaited = entry
                CreationCoordinator.wait()
                waitingFor = nil
                awaitedCell = nil
                awaited = nil
            }
        }
    }

    /// Records the provisional instance of a cell this transaction owns (members of a merged group may be
    /// waiting for it).
    func setProvisional(_ apply: () -> Void) {
        CreationCoordinator.withLock {
            apply()
            if group.members.count > 1 { CreationCoordinator.wakeAll() }
        }
    }

    /// Whether this transaction waits, directly or through others, for `target` in a way that cannot end
    /// by itself: for a cell of another group, or for a cell of its own group whose factory is running.
    /// A wait for a group member's cell that already has a provisional instance ends as soon as the waiter
    /// wakes, so it does not count.
    func isBlocked(on target: CreationTransaction) -> Bool {
        var seen: [ObjectIdentifier] = []
        var cursor: CreationTransaction? = self
        while let waiter = cursor, let owner = waiter.waitingFor, !seen.contains(ObjectIdentifier(waiter)) {
            seen.append(ObjectIdentifier(waiter))
            let endsByItself = owner.group === waiter.group && waiter.awaitedCell?.provisionalAny != nil
            if endsByItself { return false }
            if owner === target { return true }
            cursor = owner
        }
        return false
    }

    /// Publishes the instance of a cell this transaction owns, or holds it while this transaction's group
    /// has other members (their objects may reach it before they are prepared).
    func publish(
        _ cell: CreationCell, state: ObjectIdentifier, publish: @escaping () -> Void, discard: @escaping () -> Void
    ) {
        CreationCoordinator.withLock {
            if group.members.count > 1 {
                held.append(Held(cell: cell, publish: publish, discard: discard, queuedAfter: 0, state: state))
            } else {
                publish()
                cell.owner = nil
                CreationCoordinator.wakeAll()
            }
        }
    }

    /// Keeps a built instance unpublished until the preparations queued before `queuedAfter` have run.
    func hold(
        _ cell: CreationCell, queuedAfter: Int, state: ObjectIdentifier, publish: @escaping () -> Void,
        discard: @escaping () -> Void
    ) {
        CreationCoordinator.withLock {
            held.append(Held(cell: cell, publish: publish, discard: discard, queuedAfter: queuedAfter, state: state))
        }
    }

    /// Gives up a claim whose build failed: the next lookup builds the instance again.
    func abandon(_ cell: CreationCell) {
        CreationCoordinator.withLock {
            cell.discardProvisional()
            if cell.owner === self { cell.owner = nil }
            CreationCoordinator.wakeAll()
        }
    }

    /// Publishes what `state` held back, once its drain has run every preparation; in a merged group
    /// they stay held until ``commit()``.
    func publishHeld(by state: ObjectIdentifier) {
        CreationCoordinator.withLock {
            guard group.members.count == 1, held.contains(where: { $0.state == state }) else { return }
            held.removeAll { item in
                guard item.state == state else { return false }
                item.publish()
                item.cell.owner = nil
                return true
            }
            CreationCoordinator.wakeAll()
        }
    }

    /// Settles what a nested lookup (of another registry, on the same thread) held back when it failed:
    /// publishes the instances whose preparations all ran, forgets the rest. In a merged group they stay
    /// for the group to decide.
    func settleHeld(by state: ObjectIdentifier, completed: Int) {
        CreationCoordinator.withLock {
            guard group.members.count == 1 else { return }
            held.removeAll { item in
                guard item.state == state else { return false }
                if item.queuedAfter <= completed { item.publish() } else { item.discard() }
                item.cell.owner = nil
                return true
            }
            CreationCoordinator.wakeAll()
        }
    }

    /// Ends the transaction after its lookup succeeded: in a merged group, waits until every member has
    /// finished, and the last one publishes what the group built.
    /// - Throws: The failure of another member of the group.
    func commit() throws {
        try CreationCoordinator.withLock {
            let group = self.group
            group.unfinished -= 1
            if group.unfinished == 0 {
                if group.failure == nil {
                    for member in group.members {
                        for item in member.held {
                            item.publish()
                            item.cell.owner = nil
                        }
                        member.held = []
                    }
                    group.committed = true
                }
                group.dissolve()
                CreationCoordinator.wakeAll()
            } else {
                while !group.committed && group.failure == nil { CreationCoordinator.wait() }
            }
            if let failure = group.failure { throw failure }
        }
    }

    /// Ends the transaction after its lookup failed: publishes held instances whose preparations all ran
    /// (`completed` preparations of each state's drain), forgets the rest; in a merged group, fails the
    /// group and forgets everything it held.
    func rollBack(_ error: any Error, completed: [ObjectIdentifier: Int]) {
        CreationCoordinator.withLock {
            let group = self.group
            group.unfinished -= 1
            if group.members.count == 1 {
                for item in held {
                    if item.queuedAfter <= completed[item.state, default: 0] {
                        item.publish()
                    } else {
                        item.discard()
                    }
                    item.cell.owner = nil
                }
                held = []
            } else {
                if group.failure == nil {
                    group.failure = RouteError.groupFailed(error)
                }
                for member in group.members {
                    for item in member.held {
                        item.discard()
                        item.cell.owner = nil
                    }
                    member.held = []
                }
            }
            if group.unfinished == 0 { group.dissolve() }
            CreationCoordinator.wakeAll()
        }
    }

    /// Moves every member of `other` into this transaction's group.
    private func merge(with other: Group) {
        let mine = group
        for member in other.members {
            member.group = mine
            mine.members.append(member)
        }
        mine.unfinished += other.unfinished
        other.members = []
    }

    /// The other side of a wait cycle as it reads in a message: what the transaction claimed, then what
    /// it waits for.
    var waitDescription: [String] {
        claims.map(\.key.short) + (awaited.map { [$0.key.short] } ?? [])
    }
}

extension CreationTransaction.Group {
    /// Breaks the group's references once every member has ended (a group and its members refer to each
    /// other), so nothing a lookup claimed outlives it.
    func dissolve() {
        for member in members {
            member.claims = []
            member.waitingFor = nil
            member.awaitedCell = nil
        }
        members = []
    }

    /// Whether this group waits, directly or through other groups, for `target`.
    func waits(for target: CreationTransaction.Group) -> Bool {
        var seen: [ObjectIdentifier] = []
        var frontier: [CreationTransaction.Group] = [self]
        while let next = frontier.popLast() {
            if next === target { return true }
            if seen.contains(ObjectIdentifier(next)) { continue }
            seen.append(ObjectIdentifier(next))
            for member in next.members {
                if let awaited = member.waitingFor?.group { frontier.append(awaited) }
            }
        }
        return false
    }
}
