/// What a lookup shares with other lookups. Its fields are written only by its own operations below
/// (`fileprivate(set)`), none of which calls code that could reach the lookup (see ``LookupState``).
@usableFromInline
struct CreationScope {
    /// The creation transaction, made when the lookup first claims a shared instance. A lookup nested in
    /// another shares the outer one's, so that it never waits for itself.
    @usableFromInline fileprivate(set) var ownTransaction: CreationTransaction?
    /// For each custom scope this lookup used, the scope generation it saw first: a lookup keeps using
    /// that generation even if the scope is reset meanwhile, so it never mixes old and new instances.
    /// Each is counted as a user of its generation until the lookup ends (``CustomScope/enter()``).
    fileprivate(set) var scopeGenerations: [(scope: CustomScope, generation: Int)] = []
    /// Cells for custom-scoped registrations whose scope was reset after this lookup first used it.
    fileprivate(set) var detachedCells: [(entry: ObjectIdentifier, cell: AnyObject)] = []
    /// The snapshot of this lookup's graph-scoped instances, for the `Lazy`s and `Provider`s made in it.
    fileprivate(set) var snapshot: GraphSnapshot?
    /// The request scope the lookup runs in (``RequestScope``): where its request-scoped instances live and
    /// its supplied keys are read. Set by ``enterRequestScope(_:)``, inherited by a nested lookup.
    fileprivate(set) var requestScope: RequestScope?
    /// Whether `scopeGenerations`, `detachedCells`, `snapshot` or `requestScope` has anything (one flag,
    /// cheaper to test than each of them).
    @usableFromInline fileprivate(set) var hasExtras = false

    @usableFromInline init() {}

    /// Forgets the transaction; returns it, for the caller to release once this access ended.
    @inline(__always)
    mutating func takeTransaction() -> CreationTransaction? {
        let transaction = ownTransaction
        ownTransaction = nil
        return transaction
    }

    /// Forgets the extras (the caller has left the scope generations). Returns what it forgot that holds
    /// objects, for the caller to release once this access ended.
    mutating func takeExtras() -> ([(entry: ObjectIdentifier, cell: AnyObject)], GraphSnapshot?, RequestScope?) {
        scopeGenerations.removeAll(keepingCapacity: true)
        let cells = detachedCells
        detachedCells = []
        let taken = snapshot
        snapshot = nil
        let scope = requestScope
        requestScope = nil
        hasExtras = false
        return (cells, taken, scope)
    }

    /// The transaction, made on first use.
    mutating func transaction(isAsync: Bool) -> CreationTransaction {
        if let made = ownTransaction { return made }
        let made = CreationTransaction(isAsync: isAsync)
        ownTransaction = made
        return made
    }

    /// This lookup's own cell for a custom-scoped registration whose scope was reset meanwhile.
    mutating func detachedCell<Value>(for entry: Entry<Value>) -> SharedCell<Value> {
        let id = ObjectIdentifier(entry)
        for held in detachedCells where held.entry == id {
            if let cell = held.cell as? SharedCell<Value> { return cell }
        }
        let made = SharedCell<Value>()
        detachedCells.append((id, made))
        hasExtras = true
        return made
    }

    /// Makes the lookup run in `scope`. A lookup that ran in none keeps it until it ends (a scoped call
    /// joined from a factory of an unscoped lookup makes the rest of that lookup scoped, so that the
    /// preparations it queued see the scope when the lookup drains them); one that ran in another gets it
    /// back through ``leaveRequestScope(_:)`` with what this returns.
    @usableFromInline
    mutating func enterRequestScope(_ scope: RequestScope) -> RequestScope? {
        let previous = requestScope
        if previous === scope { return nil }
        requestScope = scope
        hasExtras = true
        return previous
    }

    /// Gives back the request scope ``enterRequestScope(_:)`` replaced, if it replaced one.
    @usableFromInline
    mutating func leaveRequestScope(_ previous: RequestScope?) {
        guard let previous else { return }
        requestScope = previous
        hasExtras = true
    }

    /// The generation of `scope` this lookup uses: the one it saw first.
    mutating func generation(of scope: CustomScope) -> Int {
        for seen in scopeGenerations where seen.scope === scope { return seen.generation }
        let now = scope.enter()
        scopeGenerations.append((scope, now))
        hasExtras = true
        return now
    }

    /// The snapshot the `Lazy`s and `Provider`s made in this lookup share, made on first use.
    mutating func snapshotForDeferredLookups() -> GraphSnapshot {
        if let snapshot { return snapshot }
        let made = GraphSnapshot(requestScope: requestScope)
        snapshot = made
        hasExtras = true
        return made
    }
}
