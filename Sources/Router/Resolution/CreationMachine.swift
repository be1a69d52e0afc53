/// The creation protocol of shared instances as a state machine: who builds which instance, who waits
/// for whom, which lookups merged into a group, what is held back and what is published or forgotten.
///
/// It owns no thread, takes no lock and calls no user code: every event is a method that changes the
/// state and returns what the caller must do (build, wait, publish these, forget those). The engine runs
/// it under ``CreationCoordinator``'s lock (``CreationTransaction`` is that binding); the tests drive it
/// with a deterministic scheduler that explores every interleaving of a few lookups
/// (`CreationMachineExplorerTests`). The rules:
///
/// - **Claim.** A transaction that needs an unpublished instance nobody builds becomes the cell's owner
///   and builds it outside any lock. Anyone else waits for the owner to publish or give it up.
/// - **Waits that form a cycle merge.** Before waiting, a transaction checks whether the owner's group
///   waits, through any chain of live waits, for its own group. If so, every group on that chain merges
///   into one: within a group each member sees the others' provisional instances (a property edge closing
///   a cycle), and nothing the group built is published before every member has finished.
/// - **Live waits only.** A wait is recorded when a transaction starts waiting and removed by the event
///   that ends it (publication, abandonment, a provisional instance in its own group, a merge), never by
///   the waiter when it wakes, so a woken waiter is never mistaken for a waiting one.
/// - **Initializer cycles fail.** A transaction that needs an instance its group is building whose
///   factory has not returned, while the builder waits (through live waits) for it, gets
///   ``ClaimOutcome/cycle(otherSide:)``.
/// - **Held, then published or forgotten.** A finished instance is held while its group has other
///   members, or while the lookup that built it still has preparations it depends on; a group that
///   fails forgets everything its members held or hold later, and every member fails. When a group ends,
///   nothing it claimed stays owned.
/// - **A complete group is published at once, whole.** A build whose every unfinished reach (a property
///   edge closing a cycle back to it or to what it built) stayed inside it, and whose preparations all
///   ran, completes a group: ``publishGroup(_:by:from:)`` publishes it and what its drain held from its
///   `order` on (what was built inside it) in one event, instead of at the lookup's end. So a lookup that
///   fails afterwards keeps the group whole (it was built and prepared; the failure came later), and one
///   that suspends afterwards does not hold it: a blocking claim is refused
///   (``ClaimOutcome/heldAcrossSuspension(owner:)``) only while an instance waits for its lookup's drain
///   (its preparation needs an object whose factory has not returned, or it reached one) or for its
///   group's other members, or in the window between a member's finish and its group's completion.
///   A build that fails before its group completes drops it whole: ``dropGroup(_:by:from:failure:)``
///   forgets what its drain held from its `order` on, with the abandoned instance, even when a factory
///   swallows the failure and the lookup goes on; in a merged group (whose members may have built around
///   those instances) the group fails. Otherwise a merged group's end decides. (Pinned by
///   `aLookupThatFailsAfterCompletingASingletonCycleKeepsTheWholeCycle`,
///   `aSingletonCycleAnAsyncLookupCompletedIsPublishedWhileTheLookupIsSuspended` and
///   `aCycleWhoseBuildFailsIsDroppedWholeEvenWhenTheLookupGoesOn`; explored by the scenarios "a failed
///   lookup after a completed cycle", "a group completed while its lookup continues" and "t(b) swallows
///   the failure of b's build".)
/// - **What a nested lookup built around an outer lookup's instance waits for the outer lookup.** A lookup
///   nested in another on the same thread (another registry's, started by a factory or a preparation)
///   shares its transaction, so it may be handed an instance the outer lookup has not prepared yet. What it
///   builds around that instance is held for the outermost drain (``finish(_:_:drain:queuedAfter:handTo:payload:)``
///   with `handTo`): the nested lookup's end hands it on instead of publishing it, the outermost lookup's
///   end publishes it, and a failure of either forgets it.
/// - **A blocked thread never waits for a task that may be suspended.** An async lookup may suspend at any
///   await of its factories, and resumes only when a thread of its executor is free. So a *blocking* claim
///   (a synchronous lookup's: it blocks its thread) of an instance that is held back, unpublished, by a
///   group with an async member does not wait: it gets ``ClaimOutcome/heldAcrossSuspension(owner:)`` at
///   once. (Waiting there could use up the cooperative pool, or the main actor, that the holder needs to
///   resume.) A blocking waiter already waiting when the instance becomes so held is woken to learn it.
struct CreationMachine<Cell: Hashable, Txn: Hashable, Drain: Hashable, Payload, Failure> {
    private(set) var cells: [Cell: CellRecord] = [:]
    private(set) var txns: [Txn: TxnRecord] = [:]
    private(set) var groups: [Int: GroupRecord] = [:]
    private var nextGroup = 0
    /// Set by every event that ended a wait (a release, a provisional instance, a merge, a failure, a
    /// group's end): the binding must wake the waiting threads. Waking without it is harmless; not waking
    /// with it set is a lost wake-up, which the explorer reports as a deadlock.
    private(set) var needsWake = false
    /// The transactions whose waits the events since the last ``takeWoken()`` ended (a transaction may be
    /// named twice): the binding wakes exactly these, each on its own.
    private(set) var woken: [Txn] = []

    init() {}

    /// Whether waiters must be woken, clearing the flag.
    mutating func takeWake() -> Bool {
        defer {
            needsWake = false
            if !woken.isEmpty { woken = [] }
        }
        return needsWake
    }

    /// The transactions to wake (see ``woken``), clearing the list and the flag.
    mutating func takeWoken() -> [Txn] {
        needsWake = false
        var taken: [Txn] = []
        swap(&taken, &woken)
        return taken
    }

    // MARK: Events

    /// Registers a transaction (idempotent); `isAsync`: it belongs to an async lookup.
    mutating func begin(_ txn: Txn, isAsync: Bool = false) {
        guard txns[txn] == nil else { return }
        let group = nextGroup
        nextGroup += 1
        groups[group] = GroupRecord(members: [txn], unfinished: 1, hasAsyncMember: isAsync)
        txns[txn] = TxnRecord(group: group, isAsync: isAsync)
    }

    /// `cell` was claimed by `txn` outside the machine (the uncontended claim, on the cell's own state word,
    /// of a lookup the machine has no record of); another transaction's claim of it, or `txn`'s own first
    /// event, brings it in: from then on the machine knows that `txn` builds it, as if `txn` had claimed it
    /// here (`hasProvisional`: its factory returned). Does nothing to a cell the machine has an owner for.
    mutating func adopt(_ txn: Txn, _ cell: Cell, hasProvisional: Bool = false, isAsync: Bool = false) {
        begin(txn, isAsync: isAsync)
        guard cells[cell] == nil else { return }
        cells[cell] = CellRecord(owner: txn, hasProvisional: hasProvisional)
        update(txn) { $0.claims.append(cell) }
    }

    /// `txn` asks for the instance of `cell`; `isPublished` is whether the cell has a published instance.
    /// `blocking`: whether the caller would block a thread that tasks may need, were it to wait (asked only
    /// when the answer matters: the instance is held back by a group with an async member); `isAsync`: it
    /// belongs to an async lookup (see ``begin(_:isAsync:)``).
    mutating func claim(
        _ txn: Txn, _ cell: Cell, isPublished: Bool, blocking: @autoclosure () -> Bool = false, isAsync: Bool = false
    ) -> ClaimOutcome {
        begin(txn, isAsync: isAsync)
        stopWaiting(txn)
        while true {
            guard let mine = txns[txn], let group = groups[mine.group] else { return .build }
            if isPublished { return .published }
            guard let record = cells[cell] else {
                cells[cell] = CellRecord(owner: txn)
                update(txn) { $0.claims.append(cell) }
                return .build
            }
            if let failure = group.failure { return .failed(failure) }
            let owner = record.owner
            let ownerGroup = txns[owner]?.group ?? -1
            if ownerGroup == mine.group {
                if record.hasProvisional { return .provisional }
                if owner == txn { return .cycle(otherSide: nil) }
                if waitChain(from: owner, reaches: txn) { return .cycle(otherSide: owner) }
            } else if let chain = groupChain(from: ownerGroup, to: mine.group) {
                merge(chain + [mine.group])
                continue
            }
            if record.isHeld, owner != txn, hasAsyncMember(ownerGroup), blocking() {
                return .heldAcrossSuspension(owner: owner)
            }
            // Asked only for a wait, which is the slow path already.
            let blocks = blocking()
            update(txn) { $0.waitBlocks = blocks }
            startWaiting(txn, for: cell)
            return .wait
        }
    }

    /// The factory of `cell`, which `txn` owns, returned: group members waiting for it may use it.
    mutating func setProvisional(_ txn: Txn, _ cell: Cell) {
        guard let index = cells.index(forKey: cell), cells.values[index].owner == txn else { return }
        cells.values[index].hasProvisional = true
        endWaits(for: cell, groupOf: txn)
    }

    /// `txn` finished building `cell`'s instance. `queuedAfter`: it must stay held until `drain` has run
    /// that many preparations (nil: publish as soon as the group allows). `handTo`: when `drain` ends, the
    /// instance stays held for that drain (the outermost lookup's) instead of being published. `order`:
    /// where its build began among `drain`'s builds (see ``publishGroup(_:by:from:)``).
    mutating func finish(
        _ txn: Txn, _ cell: Cell, drain: Drain, queuedAfter: Int?, handTo: Drain? = nil, order: Int = .min,
        payload: Payload
    ) -> FinishOutcome {
        guard let mine = txns[txn], let group = groups[mine.group] else { return .publish(payload) }
        if group.failure != nil {
            release(cell)
            return .discard(payload)
        }
        if queuedAfter != nil || handTo != nil || group.members.count > 1 {
            txns[txn]?.held.append(
                Held(
                    cell: cell, payload: payload, queuedAfter: queuedAfter ?? 0, drain: drain, handTo: handTo,
                    order: order))
            cells[cell]?.isHeld = true
            if group.hasAsyncMember { endBlockingWaits(for: [cell]) }
            return .held
        }
        release(cell)
        return .publish(payload)
    }

    /// `txn` gives up building `cell` (its factory or preparation failed): the next claim builds it again.
    mutating func abandon(_ txn: Txn, _ cell: Cell) {
        guard cells[cell]?.owner == txn else { return }
        release(cell)
    }

    /// `drain` has run every preparation: what it held may be published, unless the group has other
    /// members (then the group's end publishes it) or it waits for an outer drain (then it is that
    /// drain's, until the outer lookup fails or ends).
    mutating func publishHeld(_ txn: Txn, by drain: Drain) -> [Payload] {
        guard let mine = txns[txn], let group = groups[mine.group], group.members.count == 1 else { return [] }
        // Most lookups hold nothing: then there is nothing to publish nor to write back.
        guard !mine.held.isEmpty else { return [] }
        var published: [Payload] = []
        var kept: [Held] = []
        for var item in mine.held {
            if item.drain == drain, let outer = item.handTo {
                // Whatever the outer drain has run, a failure of it forgets the instance.
                item.drain = outer
                item.handTo = nil
                item.queuedAfter = .max
                // Its order was among the nested drain's builds: no group of the outer drain takes it.
                item.order = .min
                kept.append(item)
            } else if item.drain == drain {
                published.append(item.payload)
                release(item.cell)
            } else {
                kept.append(item)
            }
        }
        update(txn) { $0.held = kept }
        return published
    }

    /// A build of `drain` that began at `order` finished a group: every unfinished instance it reached was
    /// built inside it (at `order` or later) and every preparation of them ran. Alone in its group, `txn`
    /// publishes what `drain` held from `order` on, now, instead of at the lookup's end: a lookup that
    /// fails or suspends afterwards neither splits the group nor holds it back. In a merged group the
    /// group's end decides, as for everything its members hold.
    mutating func publishGroup(_ txn: Txn, by drain: Drain, from order: Int) -> [Payload] {
        guard let mine = txns[txn], let group = groups[mine.group], group.members.count == 1, group.failure == nil,
            !mine.held.isEmpty
        else { return [] }
        var published: [Payload] = []
        var kept: [Held] = []
        for item in mine.held {
            if item.drain == drain, item.handTo == nil, item.order >= order {
                published.append(item.payload)
                release(item.cell)
            } else {
                kept.append(item)
            }
        }
        update(txn) { $0.held = kept }
        return published
    }

    /// A build of `drain` that began at `order` failed (and was abandoned): what `drain` held from `order` on
    /// was built inside it, and may reach its instance, which is forgotten. Alone in its group, `txn`
    /// forgets them too, now, so that the group is dropped whole even when the lookup goes on (the failure
    /// swallowed by a factory). In a merged group, whose members may have built around them, the group
    /// fails with `failure` (as if the lookup had failed) and forgets everything its members held.
    mutating func dropGroup(_ txn: Txn, by drain: Drain, from order: Int, failure: Failure) -> [Payload] {
        guard let mine = txns[txn], var group = groups[mine.group] else { return [] }
        var dropped: [Payload] = []
        if group.members.count > 1 {
            if group.failure == nil {
                group.failure = failure
                groups[mine.group] = group
                // Members waiting for a cell or for the group learn of the failure.
                for member in group.members {
                    stopWaiting(member)
                    wake(member)
                }
            }
            for member in group.members {
                for item in txns[member]?.held ?? [] {
                    dropped.append(item.payload)
                    release(item.cell)
                }
                txns[member]?.held = []
            }
            return dropped
        }
        guard !mine.held.isEmpty else { return [] }
        var kept: [Held] = []
        for item in mine.held {
            if item.drain == drain, item.handTo == nil, item.order >= order {
                dropped.append(item.payload)
                release(item.cell)
            } else {
                kept.append(item)
            }
        }
        update(txn) { $0.held = kept }
        return dropped
    }

    /// A nested lookup (`drain`) failed after running `completed` preparations: what it held and whose
    /// preparations all ran is published, the rest forgotten, and so is what waited for an outer drain; in a
    /// merged group the group decides.
    mutating func settleHeld(_ txn: Txn, by drain: Drain, completed: Int) -> (publish: [Payload], discard: [Payload]) {
        guard let mine = txns[txn], let group = groups[mine.group], group.members.count == 1 else { return ([], []) }
        var result: (publish: [Payload], discard: [Payload]) = ([], [])
        var kept: [Held] = []
        for item in mine.held {
            guard item.drain == drain else {
                kept.append(item)
                continue
            }
            if item.queuedAfter <= completed && item.handTo == nil {
                result.publish.append(item.payload)
            } else {
                result.discard.append(item.payload)
            }
            release(item.cell)
        }
        txns[txn]?.held = kept
        return result
    }

    /// `txn`'s lookup succeeded. The last member of a group publishes what the group held.
    mutating func commit(_ txn: Txn) -> EndOutcome {
        end(txn, failure: nil, completed: [:])
    }

    /// `txn`'s lookup failed with `failure` (already in the form the other members report). Alone, it
    /// publishes what it held whose preparations all ran (`completed` per drain) and forgets the rest; in
    /// a group, the group fails and forgets everything its members held.
    mutating func rollBack(_ txn: Txn, failure: Failure, completed: [Drain: Int]) -> EndOutcome {
        end(txn, failure: failure, completed: completed)
    }

    /// For a transaction that waited for its group: the outcome, once the group ended.
    mutating func outcome(of txn: Txn) -> EndOutcome {
        guard let mine = txns[txn] else { return .ended(publish: [], discard: [], release: [], failure: nil) }
        if let outcome = mine.outcome {
            txns[txn] = nil
            return .ended(
                publish: outcome.publish, discard: outcome.discard, release: outcome.release, failure: outcome.failure)
        }
        if let failure = groups[mine.group]?.failure {
            // The group failed while this member waited: it leaves now; the group's end forgets it.
            txns[txn]?.waitsForGroup = false
            return .ended(publish: [], discard: [], release: [], failure: failure)
        }
        return .waitForGroup
    }

    /// `txn` (an async lookup, which can suspend but not block while it claims) asks whether it must wait
    /// before it claims `cell`: true, with the wait recorded as a claim's `.wait` records it, when another
    /// group builds the instance and waiting closes no cycle of waits; false when the caller should go on
    /// and claim (the instance is published, nobody builds it, its own group does, or the wait would close
    /// a cycle, which the claim then merges or reports).
    mutating func awaitRelease(_ txn: Txn, _ cell: Cell, isPublished: Bool, isAsync: Bool = true) -> Bool {
        begin(txn, isAsync: isAsync)
        stopWaiting(txn)
        guard !isPublished, let record = cells[cell], let mine = txns[txn]?.group, groups[mine]?.failure == nil,
            let theirs = txns[record.owner]?.group, theirs != mine, groupChain(from: theirs, to: mine) == nil
        else { return false }
        startWaiting(txn, for: cell)
        return true
    }

    // MARK: Internals

    private mutating func end(_ txn: Txn, failure: Failure?, completed: [Drain: Int]) -> EndOutcome {
        guard let mine = txns[txn], var group = groups[mine.group] else {
            return .ended(publish: [], discard: [], release: [], failure: nil)
        }
        stopWaiting(txn)
        update(txn) { $0.finished = true }
        group.unfinished -= 1
        var publish: [Payload] = []
        var discard: [Payload] = []
        if let failure {
            if group.members.count == 1 {
                for item in mine.held {
                    if item.queuedAfter <= completed[item.drain, default: 0] && item.handTo == nil {
                        publish.append(item.payload)
                    } else {
                        discard.append(item.payload)
                    }
                    release(item.cell)
                }
                txns[txn]?.held = []
            } else {
                if group.failure == nil {
                    group.failure = failure
                    // Members waiting for a cell or for the group learn of the failure.
                    for member in group.members {
                        stopWaiting(member)
                        wake(member)
                    }
                }
                for member in group.members {
                    for item in txns[member]?.held ?? [] {
                        discard.append(item.payload)
                        release(item.cell)
                    }
                    txns[member]?.held = []
                }
            }
        }
        groups[mine.group] = group
        guard group.unfinished == 0 else {
            if failure != nil || group.failure != nil {
                // A failed member does not wait for the others: it leaves with the group's failure.
                let leftovers = releaseOwned(by: txn)
                return .ended(publish: publish, discard: discard, release: leftovers, failure: group.failure ?? failure)
            }
            update(txn) { $0.waitsForGroup = true }
            return .waitForGroup
        }
        // The group ends: publish (or forget) what its members still hold, release what they still own.
        let failed = group.failure ?? (group.members.count == 1 ? failure : nil)
        var releasedCells: [Cell] = []
        for member in group.members {
            for item in txns[member]?.held ?? [] {
                if failed == nil { publish.append(item.payload) } else { discard.append(item.payload) }
                release(item.cell)
            }
            update(member) { if !$0.held.isEmpty { $0.held = [] } }
            releasedCells += releaseOwned(by: member)
        }
        groups[mine.group] = nil
        for member in group.members where member != txn {
            if txns[member]?.waitsForGroup == true {
                // It waits in `commit` for this moment; its items were published or forgotten above.
                txns[member]?.outcome = GroupEnd(publish: [], discard: [], release: [], failure: failed)
                wake(member)
            } else {
                txns[member] = nil
            }
        }
        txns[txn] = nil
        return .ended(publish: publish, discard: discard, release: releasedCells, failure: failed)
    }

    /// Ends the blocking waits for `held` (instances now held by a group with an async member): each such
    /// waiter must look again, and its claim is refused instead of waiting.
    private mutating func endBlockingWaits(for held: [Cell]) {
        for cell in held {
            for other in cells[cell]?.waiters ?? [] where txns[other]?.waitBlocks == true {
                stopWaiting(other)
                wake(other)
            }
        }
    }

    /// Changes `txn`'s record in place, if it has one. (`txns[txn]?.field = value` moves the record out into an
    /// optional and back, through a runtime call and a heap-allocated frame, on every event.)
    private mutating func update(_ txn: Txn, _ change: (inout TxnRecord) -> Void) {
        guard let index = txns.index(forKey: txn) else { return }
        change(&txns.values[index])
    }

    /// Removes `cell`'s ownership and ends every wait for it.
    private mutating func release(_ cell: Cell) {
        guard let record = cells.removeValue(forKey: cell) else { return }
        for txn in record.waiters {
            update(txn) { $0.waitingFor = nil }
            wake(txn)
        }
    }

    /// Releases every cell `txn` still owns (claimed, never finished nor abandoned): they are among its
    /// claims, so only those are looked at.
    private mutating func releaseOwned(by txn: Txn) -> [Cell] {
        // Most lookups end owning nothing: then nothing is allocated.
        guard !cells.isEmpty, let claims = txns[txn]?.claims, !claims.isEmpty else { return [] }
        var owned: [Cell] = []
        for cell in claims where cells[cell]?.owner == txn {
            owned.append(cell)
            release(cell)
        }
        return owned
    }

    /// Ends the waits for `cell` of members of `txn`'s group (its provisional instance is theirs to use).
    private mutating func endWaits(for cell: Cell, groupOf txn: Txn) {
        guard let group = txns[txn]?.group else { return }
        for other in cells[cell]?.waiters ?? [] where txns[other]?.group == group {
            stopWaiting(other)
            wake(other)
        }
    }

    /// Records that `txn` waits for `cell`, which has a record (it is claimed): on the transaction, and among
    /// the cell's waiters.
    private mutating func startWaiting(_ txn: Txn, for cell: Cell) {
        guard let index = cells.index(forKey: cell) else { return }
        update(txn) { $0.waitingFor = cell }
        cells.values[index].waiters.append(txn)
    }

    /// Ends `txn`'s wait, if it waits, without a wake-up: the caller records one (``wake(_:)``) unless `txn`
    /// ends its own wait.
    private mutating func stopWaiting(_ txn: Txn) {
        guard let index = txns.index(forKey: txn), let cell = txns.values[index].waitingFor else { return }
        txns.values[index].waitingFor = nil
        guard let record = cells.index(forKey: cell), let at = cells.values[record].waiters.firstIndex(of: txn)
        else { return }
        cells.values[record].waiters.remove(at: at)
    }

    /// Records that `txn`'s wait ended (by another transaction's event): the binding must wake it.
    private mutating func wake(_ txn: Txn) {
        woken.append(txn)
        needsWake = true
    }

    /// Merges `chain`'s groups into the first one, then ends the waits that merging satisfied.
    private mutating func merge(_ chain: [Int]) {
        guard let into = chain.first, var target = groups[into] else { return }
        for group in chain.dropFirst() where group != into {
            guard let other = groups[group] else { continue }
            for member in other.members { txns[member]?.group = into }
            target.members += other.members
            target.unfinished += other.unfinished
            target.hasAsyncMember = target.hasAsyncMember || other.hasAsyncMember
            if target.failure == nil { target.failure = other.failure }
            groups[group] = nil
        }
        groups[into] = target
        // Outside blocking waiters of what the group holds must look again once it has an async member.
        if target.hasAsyncMember {
            endBlockingWaits(for: target.members.flatMap { member in txns[member]?.held.map(\.cell) ?? [] })
        }
        // A member waiting for a group-mate's cell whose factory returned may take the instance now.
        var ended: [Txn] = []
        for member in target.members {
            if let cell = txns[member]?.waitingFor, let record = cells[cell], record.hasProvisional,
                txns[record.owner]?.group == into
            {
                stopWaiting(member)
                ended.append(member)
            }
        }
        // Members waiting for a group-mate's cell whose factory runs must look again: the wait may now
        // be an initializer cycle within the group.
        for member in target.members where txns[member]?.waitingFor != nil {
            stopWaiting(member)
            ended.append(member)
        }
        for member in ended { wake(member) }
    }
}
