// MARK: - The build pipeline: what the door and a factory's lookups run

extension Resolver {
    // MARK: Entry lookup

    @inlinable
    mutating func entry<Destination>(for key: RoutableService<Destination>) throws -> Entry<Destination> {
        guard let found = tableRef.with({ $0.primaryRefInline(key.id, name: key.name) }) else {
            throw missingError(for: key)
        }
        return try Entry<Destination>.borrow(found) { $0 }
    }

    @usableFromInline
    mutating func missingError<Destination>(for key: RoutableService<Destination>) -> any Error {
        // `mutating` only so that inlined callers pass the resolver by reference. Boxed here, not in the
        // caller: a RouteError built inline would enlarge every lookup's stack frame.
        table.missingError(key.id, key: key.keyDescription, path: pathTo(key.keyDescription.short))
    }

    mutating func moduleEntry<C, D>(for key: RoutableServiceModule<C, D>) throws -> Entry<D> {
        guard let found = table.primary(key.id) else {
            throw table.missingError(key.id, key: key.keyDescription, path: pathTo(key.keyDescription.short))
        }
        guard let typed = found as? Entry<D> else {
            throw RouteError.moduleMakesOtherType(
                key.keyDescription, makes: found, asked: D.self, path: pathTo(key.keyDescription.short))
        }
        return typed
    }

    mutating func configure<C, D>(
        _ entry: Entry<D>, as type: C.Type, _ configuring: (C) throws -> Void
    ) throws -> ModuleConfiguration<D> {
        guard let made = entry.makeConfiguration?() else { throw RouteError.takesNoConfiguration(entry) }
        guard let offered = made as? C else { throw RouteError.configurationDoesNotConform(entry, made, C.self) }
        do {
            try configuring(offered)
        } catch {
            throw wrap(error, entry, stage: "caller's configuring closure")
        }
        return made
    }

    /// Reports to the registry's error handler the `construct…` calls `configuration` received that its
    /// router never read, once the destination of `entry` is made.
    func reportUnreadConstructCalls<D>(_ configuration: ModuleConfiguration<D>, of entry: AnyEntry) {
        let unread = configuration.unreadConstructCalls
        guard !unread.isEmpty, let registry = table.reporter.registry else { return }
        let calls = unread.joined(separator: ", ")
        _ = registry.report(RouteError.unusedConstructCalls(entry, calls: calls))
    }

    // MARK: The build pipeline

    /// Returns the destination of `entry`, shared or made according to its scope.
    @inlinable @inline(__always)
    mutating func build<Destination>(_ entry: Entry<Destination>) throws -> Destination {
        if tracing { return try buildTraced(entry) }
        if let made = entry.builtSingleton { return made }
        // The common case: a transient object with nothing to prepare, in a lookup with no graph.
        if graphRef == nil && entry.isPlainTransient && depth < maxDepth && hasStackRoom {
            return try constructPlain(entry)
        }
        return try buildSlow(entry)
    }

    /// Builds what `build` does not handle inline: anything in a lookup that has a graph, objects with
    /// preparations, graph-scoped and shared ones. Inlinable, so the graph path is specialised for the
    /// destination type in the caller instead of asking the runtime for generic metadata on every call.
    @inlinable
    mutating func buildSlow<Destination>(_ entry: Entry<Destination>) throws -> Destination {
        if injecting > 0 && top == state.preparations.preparationTop
            && !state.preparations.callerPreparationPending
        {
            return try buildForPreparation(entry)
        }
        return try buildByScope(entry)
    }

    /// Builds `entry` for a preparation (an injection or a hook, not a factory it started) and runs the
    /// preparations this build queued before handing the object over: an object's `didFinishPrepare` runs
    /// as soon as what it needs is prepared, before a dependent's setter receives it. (Where a cycle makes
    /// that impossible, the dependent receives the object still being prepared.)
    @inlinable
    mutating func buildForPreparation<Destination>(_ entry: Entry<Destination>) throws -> Destination {
        let mark = pendingCount
        let made = try buildByScope(entry)
        if pendingCount > mark { try drain(from: mark) }
        return made
    }

    /// Builds `entry` according to its scope.
    @inlinable
    mutating func buildByScope<Destination>(_ entry: Entry<Destination>) throws -> Destination {
        let kind = entry.scope.kind
        guard kind == .transient || kind == .graph else {
            // A supplied value is read here, specialised: through `buildShared`, whose generic locals ask the
            // runtime for `Optional<Destination>`'s metadata, it cost about 440 instructions more.
            if kind == .supplied { return try suppliedValue(entry) }
            return try buildShared(entry)
        }
        if let existing = try existingInstance(
            entry, startingGraph: kind != .transient || entry.needsPreparation)
        {
            return existing
        }
        return try construct(entry)
    }

    /// What every build does before making anything: returns the object a cycle points back to, or this
    /// lookup's graph-scoped instance; otherwise starts the graph if `startingGraph` asks for one, and
    /// enforces the depth guard. Always inlined: as a call from unspecialised code, its optional result
    /// would cost a runtime metadata lookup on every build.
    @inlinable @inline(__always)
    mutating func existingInstance<Destination>(
        _ entry: Entry<Destination>, startingGraph: Bool
    ) throws -> Destination? {
        if let graphRef = graphRef {
            // Borrowed: the state owns the graph for the whole lookup.
            let found = try graphRef.with { graph -> Destination? in
                if injecting > 0 || entry.isShared, let closed = try closeCycle(entry, in: graph) {
                    return closed
                }
                if entry.scope.kind == .graph, let shared = graph.graphInstance(for: ObjectIdentifier(entry)) {
                    return try recordedInstance(shared, entry)
                }
                return nil
            }
            if let found { return found }
        } else if startingGraph {
            state.startGraph()
        }
        try checkDepth(entry)
        return nil
    }

    /// The depth guard, before one more level is built: throws when the lookup is `maxDepth` levels deep
    /// or the stack has no room for another level (measured again on this thread for an async lookup).
    @inlinable @inline(__always)
    mutating func checkDepth(_ entry: AnyEntry) throws {
        guard depth < maxDepth && (hasStackRoom || hasStackRoomOnThisThread()) else { throw tooDeep(entry) }
    }

    /// Runs the factory of the object in `frame`, naming the registration in its error, and records the
    /// object if a graph exists (the factory's own lookups may have started one), so that a queued
    /// preparation closing a cycle back to it gets this instance.
    ///
    /// `recordsInline: false` is for a factory that starts with no graph (`constructPlain`): a graph its own
    /// lookups start is rare, so the recording is then a call, and the hot path's function stays small
    /// (inlined, the recording cost every nested transient lookup registers).
    @inlinable @inline(__always)
    mutating func runFactory<Destination>(
        _ entry: Entry<Destination>, in frame: FrameRef, recordsInline: Bool = true
    ) throws -> Destination {
        let made: Destination
        do {
            made = try entry.factory(&self)
        } catch {
            throw wrap(error, entry, stage: "factory")
        }
        guard graphRef != nil else { return made }
        guard recordsInline else {
            try recordAfterGraphStarted(made, entry, in: frame)
            return made
        }
        record(made, entry, node: frame.node)
        // An `@Injected` property of the object failed: the lookup fails as if the factory had thrown.
        // (Checked after `record`, which it undoes: before it, the check cost the transient path registers.)
        if state.hasFailedInjection { try throwFailedInjection(of: entry, node: frame.node) }
        return made
    }

    /// What ``runFactory(_:in:recordsInline:)`` does once a graph exists, as a call.
    @usableFromInline @inline(never)
    mutating func recordAfterGraphStarted<Destination>(
        _ made: Destination, _ entry: Entry<Destination>, in frame: FrameRef
    ) throws {
        record(made, entry, node: frame.node)
        if state.hasFailedInjection { try throwFailedInjection(of: entry, node: frame.node) }
    }

    /// Fails the running factory (the top frame) with the failure of one of its object's `@Injected`
    /// properties, if one is recorded for it, taking back the preparation `record` queued for the dropped
    /// object (node `node`). Out of line: rare, and kept off the hot path's code.
    @usableFromInline
    mutating func throwFailedInjection(of entry: AnyEntry, node: Int32) throws {
        guard let failed = state.takeFailedInjection(in: top) else { return }
        if let graph, node >= 0, graph.pending.count > 0,
            graph.pending[graph.pending.count - 1].node == node
        {
            graph.removePending(from: graph.pending.count - 1)
        }
        throw wrap(failed, entry, stage: "factory")
    }

    /// Whether this level looks for a factory that is already running on the path: at each of the first
    /// eight levels, so that a short initializer-only cycle of transients stops at its first repeat
    /// (each factory having run once), then at every power of two, so that a longer one stops within twice
    /// its length and a deep acyclic chain pays about two frame visits per level.
    @inlinable @inline(__always)
    var checksForRepeat: Bool {
        depth > 0 && (depth <= 8 || depth & (depth &- 1) == 0)
    }

    /// The `circularDependency` error when `entry`'s factory is already running on the path and takes no
    /// input (with arguments or a configuration, a repeat may be a recursion that ends). A shared object's
    /// repeat, and any repeat inside a preparation, is found by the graph (`closeCycle`); this finds every
    /// other factory's, a graph-scoped one's included (its instance is recorded only once its factory
    /// returns; pinned by `aTwoStepInitializerCycleStopsAtItsFirstRepeat`). The cycle reported is the
    /// path's first repeat, wherever the check ran: the same error a check at every level gives.
    @inlinable @inline(__always)
    func repeatedFactory(_ entry: AnyEntry) -> RouteError? {
        // The common answer, with nothing allocated: no frame on the path runs this factory.
        var cursor = top
        while let frame = cursor {
            if frame.entry.refers(to: Borrowed(entry)) { return repeatedFactorySlow(entry) }
            cursor = frame.parent
        }
        return nil
    }

    /// ``repeatedFactory(_:)`` once a repeat was seen: the error, unless the factory takes input.
    @usableFromInline
    func repeatedFactorySlow(_ entry: AnyEntry) -> RouteError? {
        guard Self.takesNoInput(entry) else { return nil }
        var running: [AnyEntry] = [entry]
        var cursor = top
        while let frame = cursor {
            running.append(frame.entry.object)
            cursor = frame.parent
        }
        // Root first: the first object whose factory runs a second time, from its first run.
        running.reverse()
        var firstRun: [ObjectIdentifier: Int] = [:]
        for (position, object) in running.enumerated() where Self.takesNoInput(object) {
            if let first = firstRun[ObjectIdentifier(object)] {
                return RouteError.circular(running[first...position].map(\.key.short), entry: object)
            }
            firstRun[ObjectIdentifier(object)] = position
        }
        return nil
    }

    /// Whether a registration's factory takes no arguments and no configuration.
    static func takesNoInput(_ entry: AnyEntry) -> Bool {
        entry.argumentTypes == nil && entry.configurationConforms == nil && entry.configurationType() == nil
    }

    @usableFromInline
    mutating func buildTraced<Destination>(_ entry: Entry<Destination>) throws -> Destination {
        // The edge this build takes, for a recording or the undeclared-edge check (TakenEdges.swift); a
        // lookup traced only for that check (`withEdgesChecked`) emits no steps.
        noteTakenEdge(to: entry)
        guard table.isTracing, let tracer = table.tracer else { return try buildSlow(entry) }
        let clock = ContinuousClock()
        let start = clock.now
        let before = state.frames.constructions
        let level = depth
        do {
            let made: Destination
            if let shared = entry.builtSingleton {
                made = shared
            } else {
                made = try buildSlow(entry)
            }
            let built =
                state.frames.constructions != before && state.frames.lastConstructed == ObjectIdentifier(entry)
            tracer.emit(
                ResolutionStep(
                    key: entry.key.full, scope: entry.scope, outcome: built ? .built : .shared, depth: level,
                    duration: clock.now - start))
            return made
        } catch {
            tracer.emit(
                ResolutionStep(
                    key: entry.key.full, scope: entry.scope, outcome: .failed, depth: level,
                    duration: clock.now - start))
            throw error
        }
    }
}

/// What a top-level lookup can do with a registration without starting the general path.
@usableFromInline
enum FastCase<Destination> {
    /// A built singleton: return it.
    case built(Destination)
    /// A transient with nothing to prepare: run its factory at once.
    case plain
    /// Anything else: the general path.
    case other
}

extension Entry {
    /// Which fast case `entry` (filed under a key of `Destination`) is, read in place. A debug build that
    /// finds the entry is not an `Entry<Destination>` answers `.other`, and the general path throws the
    /// typed error (see ``borrow(_:_:)``).
    @inlinable @inline(__always)
    static func fastCase(_ entry: Borrowed<AnyEntry>) -> FastCase<Destination> {
        // A debug build that finds the entry is not an `Entry<Destination>` answers `.other`, and the
        // general path throws the typed error.
        let found = try? borrow(entry) { typed -> FastCase<Destination> in
            if let made = typed.builtSingleton { return .built(made) }
            return typed.isPlainTransient ? .plain : .other
        }
        return found ?? .other
    }
}
