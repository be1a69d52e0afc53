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
