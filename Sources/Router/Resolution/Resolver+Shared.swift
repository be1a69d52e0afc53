/// What a claim means to the lookup that made it (see ``Resolver/answer(_:for:published:)``).
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
    @usableFromInline
    mutating func buildShared<Destination>(_ entry: Entry<Destination>) throws -> Destination {
        if let existing = try existingInstance(entry, startingGraph: true) {
            return existing
        }
        switch entry.scope.kind {
        case .transient, .graph:
            return try construct(entry)
        case .singleton, .eagerSingleton:
            guard let cell = entry.singleton else { return try construct(entry) }
            return try createShared(entry, SharedSlot(cell))
        case .weakSingleton:
            guard let cell = entry.weakCell else { return try construct(entry) }
            return try createShared(entry, SharedSlot(weak: cell))
        case .custom:
            guard let scope = entry.scope.customScope else { return try construct(entry) }
            let cell: SharedCell<Destination>
            switch scope.cell(
                for: ObjectIdentifier(entry), of: Destination.self, generation: state.generation(of: scope))
            {
            case .cell(let found): cell = found
            case .stale: cell = state.detachedCell(for: entry)
            case .closed: throw RouteError.scopeClosed(entry, path: pathTo(entry.key.short))
            }
            if let made = cell.instance { return made }
            return try createShared(entry, SharedSlot(cell))
        }
    }

    /// Builds a shared instance inside this lookup's creation transaction: claims its cell (or waits for
    /// the lookup that builds it, or finds it in progress in this lookup), builds and prepares it, then
    /// publishes it, or holds it until the enclosing lookup has run a preparation it needs.
    mutating func createShared<Destination>(
        _ entry: Entry<Destination>, _ slot: SharedSlot<Destination>
    ) throws -> Destination {
        if let made = slot.published() { return made }
        // An async singleton is built by async lookups only: a synchronous one fails at once rather than
        // block its thread on an async lookup's build.
        if entry.asyncFactory != nil {
            throw RouteError.asyncOnly(
                entry.key, path: pathTo(entry.key.short), eager: entry.scope.kind == .eagerSingleton)
        }
        if graph == nil { state.startGraph() }
        let transaction = state.transaction
        if let found = try claim(slot.cell, for: entry, published: slot.published) { return found }
        let mark = pendingCount
        // The node `construct` is about to push.
        let node = Int32(graphRef?.with { $0.nodes.count } ?? -1)
        // Cleared before the factory runs: a factory that closes a property cycle (it is handed an
        // ancestor still being prepared) makes the instance as unfinished as a preparation that does. An
        // instance whose preparation waits for the enclosing lookup is unfinished, and so is whatever the
        // enclosing factories build around it: they are held too (the explorer's "initializer a(b),
        // property b.a" scenario).
        let outer = state.enterUnfinishedScope()
        let made: Destination
        let deferred: [ResolutionGraph.Pending]
        do {
            made = try construct(entry)
            transaction.setProvisional(slot.cell) { slot.setProvisional(made) }
            deferred = try drainShared(from: mark, node: node)
        } catch {
            state.leaveUnfinishedScope(outer, failed: true)
            transaction.abandon(slot.cell)
            throw error
        }
        let reached = state.leaveUnfinishedScope(outer, failed: false, alsoUnfinished: !deferred.isEmpty)
        let stateID = ObjectIdentifier(state)
        guard let graph, !deferred.isEmpty || reached else {
            transaction.finish(
                slot.cell, state: stateID, publish: { slot.publish(made) }, discard: { slot.discard() })
            return made
        }
        // A preparation needs an object an enclosing factory is still building, or the instance reached an
        // ancestor that is still being prepared: the deferred preparations run in the enclosing lookup's
        // drain, and the instance is published after it.
        graph.pending.append(contentsOf: deferred)
        transaction.finish(
            slot.cell, queuedAfter: graph.pending.count, state: stateID, publish: { slot.publish(made) },
            discard: { slot.discard() })
        return made
    }

    /// Runs a shared instance's preparations now, except those that need an object an enclosing factory is
    /// still building: those are returned, to run in the enclosing lookup's drain.
    mutating func drainShared(from mark: Int, node: Int32) throws -> [ResolutionGraph.Pending] {
        guard let graph else { return [] }
        let outerFloor = state.enterSharedFloor(node)
        defer {
            state.leaveSharedFloor(outerFloor)
            graph.pending.removeSuffix(from: mark)
        }
        var deferred: [ResolutionGraph.Pending] = []
        var index = mark
        while index < graph.pending.count {
            let item = graph.pending[index]
            index += 1
            state.clearDeferralRequest()
            do {
                try runPending(item, graph: graph)
            } catch  where state.preparations.deferralRequested {
                // Unwound by the deferral (possibly rethrown as another error by user code).
            }
            if state.clearDeferralRequest() {
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
    func answer<Destination>(
        _ claim: CreationTransaction.Claim, for entry: AnyEntry, published: () -> Destination?
    ) throws -> ClaimAnswer<Destination> {
        switch claim {
        case .published:
            guard let made = published() else { return .claimAgain }
            return .found(made)
        case .inProgress(let provisional, let otherSide):
            if let made = provisional as? Destination { return .found(made) }
            throw inProgressError(entry, otherSide: otherSide)
        case .claimed:
            return .build
        case .heldByAsyncLookup(let holder):
            throw RouteError.heldByAsyncLookup(entry.key, path: runningPath() + [entry.key.short], holder: holder)
        }
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
struct SharedSlot<Value> {
    /// The cell, for the transaction's bookkeeping.
    let cell: CreationCell
    /// The published instance; takes no coordinator lock.
    let published: () -> Value?
    /// Records the instance built but not yet published; call with the coordinator's lock held.
    let setProvisional: (Value) -> Void
    /// Publishes the instance; call with the coordinator's lock held.
    let publish: (Value) -> Void
    /// Forgets the provisional instance; call with the coordinator's lock held.
    let discard: () -> Void

    init(_ cell: SharedCell<Value>) {
        self.cell = cell
        published = { cell.instance }
        setProvisional = { cell.provisional = $0 }
        publish = { cell.publish($0) }
        discard = { cell.discardProvisional() }
    }

    init(weak cell: WeakCell) {
        self.cell = cell
        published = { cell.live(as: Value.self) }
        setProvisional = { cell.setProvisional($0) }
        publish = { cell.publish($0) }
        discard = { cell.discardProvisional() }
    }
}
