// What the creation machine's state says without changing it: the queries its events and the engine ask,
// and its invariants (see `CreationMachine`).
extension CreationMachine {
    /// How many records the machine holds (owned cells, transactions, groups).
    var size: Int { cells.count + txns.count + groups.count }

    /// Whether nothing is owned, held, waited for or running: what must be true between lookups.
    var isIdle: Bool { cells.isEmpty && txns.isEmpty && groups.isEmpty }

    /// The transaction that builds `cell`, if the machine has a record of one.
    func owner(of cell: Cell) -> Txn? {
        cells[cell]?.owner
    }

    /// Whether `txn` waits for a cell (a wait ends with the event that releases it).
    func isWaiting(_ txn: Txn) -> Bool {
        txns[txn]?.waitingFor != nil
    }

    /// The cells `txn` claimed, outermost first, and the one it waits for.
    func claims(of txn: Txn) -> (claimed: [Cell], awaited: Cell?) {
        (txns[txn]?.claims ?? [], txns[txn]?.waitingFor)
    }

    /// What is wrong with the state, if anything: the machine's invariants, checked after every event in
    /// debug builds (``CreationCoordinator/run(_:)``) and by the explorer. Empty when all hold.
    func invariantViolations() -> [String] {
        var problems: [String] = []
        for (cell, record) in cells where txns[record.owner] == nil {
            problems.append("cell \(cell) is owned by a transaction that has ended")
        }
        for (txn, record) in txns {
            guard let group = groups[record.group] else {
                if record.outcome == nil && !record.finished {
                    problems.append("running transaction \(txn) belongs to no group")
                }
                continue
            }
            if !group.members.contains(txn) { problems.append("transaction \(txn) is not a member of its group") }
            if let cell = record.waitingFor {
                if cells[cell] == nil { problems.append("transaction \(txn) waits for \(cell), which nobody builds") }
                if record.finished { problems.append("finished transaction \(txn) still waits") }
            }
            for item in record.held where cells[item.cell]?.owner != txn {
                problems.append("transaction \(txn) holds \(item.cell) without owning it")
            }
            if let cell = record.waitingFor, let waiters = cells[cell]?.waiters,
                waiters.count(where: { $0 == txn }) != 1
            {
                problems.append(
                    "transaction \(txn) waits for \(cell) but is listed \(waiters.count(where: { $0 == txn })) times among its waiters"
                )
            }
        }
        for (cell, record) in cells {
            for waiter in record.waiters where txns[waiter]?.waitingFor != cell {
                problems.append("\(waiter) is listed as waiting for \(cell), which it does not wait for")
            }
            if let owner = txns[record.owner], !owner.claims.contains(cell) {
                problems.append("cell \(cell) is owned by \(record.owner), which did not claim it")
            }
        }
        for (id, group) in groups {
            if group.members.isEmpty { problems.append("group \(id) has no members") }
            let running = group.members.filter { txns[$0]?.finished == false }.count
            if running != group.unfinished {
                problems.append("group \(id) counts \(group.unfinished) unfinished members, has \(running)")
            }
            if group.hasAsyncMember != group.members.contains(where: { txns[$0]?.isAsync == true }) {
                problems.append("group \(id) says hasAsyncMember \(group.hasAsyncMember), its members disagree")
            }
            for member in group.members where txns[member]?.group != id {
                problems.append("member \(member) of group \(id) is recorded in another group")
            }
        }
        return problems
    }

    /// Whether `group` has a member that belongs to an async lookup.
    func hasAsyncMember(_ group: Int) -> Bool {
        groups[group]?.hasAsyncMember ?? false
    }

    /// The transaction `txn` waits for.
    func awaitedOwner(of txn: Txn) -> Txn? {
        guard let cell = txns[txn]?.waitingFor else { return nil }
        return cells[cell]?.owner
    }

    /// Whether `start` waits, through a chain of live waits within any groups, for `target`.
    func waitChain(from start: Txn, reaches target: Txn) -> Bool {
        var seen: Set<Txn> = []
        var cursor = start
        while let owner = awaitedOwner(of: cursor), seen.insert(cursor).inserted {
            if owner == target { return true }
            cursor = owner
        }
        return false
    }

    /// A chain of groups from `start` to `target` through live waits (a member of each group waits for a
    /// cell owned by a member of the next), `start` first and `target` excluded; nil when there is none.
    func groupChain(from start: Int, to target: Int) -> [Int]? {
        var previous: [Int: Int] = [start: start]
        var frontier = [start]
        while !frontier.isEmpty {
            var next: [Int] = []
            for group in frontier {
                for member in groups[group]?.members ?? [] {
                    guard let owner = awaitedOwner(of: member), let awaited = txns[owner]?.group,
                        previous[awaited] == nil || awaited == target
                    else { continue }
                    if awaited == target {
                        var chain = [group]
                        var cursor = group
                        while cursor != start, let before = previous[cursor] {
                            chain.append(before)
                            cursor = before
                        }
                        return chain.reversed()
                    }
                    previous[awaited] = group
                    next.append(awaited)
                }
            }
            frontier = next
        }
        return nil
    }
}
