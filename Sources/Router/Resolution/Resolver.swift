import Synchronization

/// Looks up dependencies from inside a factory or a preparation.
///
/// A factory receives the resolver `inout`, so it can neither escape nor outlive the lookup it belongs
/// to. Everything one top-level lookup builds shares it: graph-scoped instances, the path printed in
/// errors, and the cycle detection.
///
/// ```swift
/// try registry.register(.car) { r in
///     CarImpl(engine: try r.resolve(.engine), wheels: try r.resolveAll(.wheel))
/// }
/// ```
public struct Resolver: ~Copyable {
    // Unretained: a resolver lives inside one call on a registry (or a Lazy/Provider) that keeps the table
    // alive, and not retaining it keeps lookups on several threads from fighting over its reference count.
    @usableFromInline let tableRef: Unmanaged<SealedTable>
    /// The deepest nesting allowed, copied from the table so the hot path does not reach for it.
    @usableFromInline let maxDepth: Int
    /// Whether a trace handler was installed when the lookup started.
    @usableFromInline let tracing: Bool
    /// The graph, once a lookup needs one; owned (+1) by the resolver and released by its `deinit`. Held
    /// unmanaged so that a resolver has no field the compiler must destroy through value witnesses.
    @usableFromInline var graphRef: Unmanaged<ResolutionGraph>?
    /// The graph, if this lookup has one.
    @usableFromInline var graph: ResolutionGraph? { graphRef?.takeUnretainedValue() }
    /// The node of the object being built or prepared, -1 when none is recorded.
    @usableFromInline var current: Int32 = -1
    /// The innermost running factory's frame, on the call stack.
    @usableFromInline var top: UnsafeMutablePointer<Frame>?
    @usableFromInline var depth = 0
    /// Greater than zero while a preparation (property injection) runs.
    @usableFromInline var injecting = 0
    /// The configuration or the arguments handed to the next factory that takes them, unretained: whoever
    /// sets it keeps the object alive until it is cleared.
    @usableFromInline var inputRef: Unmanaged<AnyObject>?
    /// The configuration or the arguments handed to the next factory that takes them.
    var input: AnyObject? {
        get { inputRef?.takeUnretainedValue() }
        set { inputRef = newValue.map { Unmanaged.passUnretained($0) } }
    }
    /// How many factories have returned, and the last one's registration (for the trace).
    @usableFromInline var constructions = 0
    @usableFromInline var lastConstructed: ObjectIdentifier?
    /// Whether this lookup holds the creation lock (from its first shared build until it finishes).
    @usableFromInline var holdsCreationLock = false
    /// Whether shared instances are published when the whole lookup finishes (synchronous lookups), or
    /// as soon as each is built and prepared (async lookups, which must not hold a lock across `await`).
    @usableFromInline var publishesAtEnd = true
    /// While a shared instance's preparations run: its node. An unbuilt ancestor below it (built by an
    /// enclosing factory) defers the preparation instead of failing.
    @usableFromInline var sharedFloor: Int32 = -1

    @inlinable
    init(table: SealedTable) {
        self.init(tableRef: Unmanaged.passUnretained(table))
    }

    @inlinable
    init(tableRef: Unmanaged<SealedTable>) {
        self.tableRef = tableRef
        (maxDepth, tracing) = tableRef._withUnsafeGuaranteedRef { table in (table.maxDepth, table.isTracing) }
    }

    /// The table, for the paths that are not hot (it is retained while used).
    var table: SealedTable { tableRef.takeUnretainedValue() }

    @inlinable
    deinit {
        if holdsCreationLock { abandon() }
        if let graphRef { GraphPool.recycle(graphRef) }
    }

    /// Ends a lookup that failed while holding the creation lock: publishes the shared instances whose
    /// preparations all ran, forgets the others (the next lookup builds them again), and lets go of the lock.
    @usableFromInline
    func abandon() {
        if let graph {
            for publication in graph.publications {
                if publication.queuedAfter <= graph.completed {
                    publication.publish()
                } else {
                    publication.discard()
                }
            }
        }
        CreationLock.shared.unlock()
    }

    // MARK: Public lookups

    /// Resolves the destination of `key`.
    ///
    /// - Parameter key: The key to resolve.
    /// - Returns: The destination, made or shared according to its scope.
    /// - Throws: ``RouteError``: the key is unregistered or ambiguous, a factory failed, or the
    ///   dependencies form an initializer-only cycle.
    @inlinable
    public mutating func resolve<Destination>(_ key: RoutableService<Destination>) throws -> Destination {
        guard let found = tableRef._withUnsafeGuaranteedRef({ $0.primaryRef(key.id) }) else {
            throw missingError(for: key)
        }
        // Borrowed, not retained: the table keeps the entry alive for the whole lookup.
        return try found._withUnsafeGuaranteedRef { entry in
            // Sound: the table files an Entry<D> only under keys made from RoutableService<D>.
            try build(unsafeDowncast(entry, to: Entry<Destination>.self))
        }
    }

    /// Resolves `key` as a whole lookup: a built singleton straight away, anything else built, then the
    /// preparations it queued run and its shared instances published.
    ///
    /// The table and the entry are borrowed, not retained, and a built singleton is returned before any
    /// resolver exists.
    @inlinable
    static func resolveTopLevel<Destination>(
        _ key: RoutableService<Destination>, in tableRef: Unmanaged<SealedTable>
    ) throws -> Destination {
        try tableRef._withUnsafeGuaranteedRef { table in
            guard let found = table.primaryRef(key.id) else {
                var resolver = Resolver(tableRef: tableRef)
                throw resolver.missingError(for: key)
            }
            return try found._withUnsafeGuaranteedRef { entry in
                // Sound: the table files an Entry<D> only under keys made from RoutableService<D>.
                let typed = unsafeDowncast(entry, to: Entry<Destination>.self)
                if let made = typed.builtSingleton, !table.isTracing { return made }
                var resolver = Resolver(tableRef: tableRef)
                return try resolver.buildTopLevel(typed)
            }
        }
    }

    /// Resolves the destination of `key`, then runs `preparation` on it before the registration's own
    /// preparation runs.
    ///
    /// - Parameters:
    ///   - key: The key to resolve.
    ///   - preparation: The caller's property and method injection.
    /// - Returns: The destination.
    /// - Throws: ``RouteError``, as ``resolve(_:)-(RoutableService<Destination>)``; an error thrown by `preparation` is wrapped as
    ///   ``RouteError/Code/factoryFailed``.
    public mutating func resolve<Destination>(
        _ key: RoutableService<Destination>, preparation: (Destination) throws -> Void
    ) throws -> Destination {
        let entry = try entry(for: key)
        let made = try build(entry)
        try runCallerPreparation(made, entry, preparation)
        return made
    }

    /// Resolves the destination of `key`, or returns nil when no router is registered for it.
    ///
    /// Only a missing registration gives nil: a registered key whose factory fails still throws.
    /// - Parameter key: The key to resolve.
    /// - Returns: The destination, or nil.
    /// - Throws: ``RouteError`` for every failure other than a missing registration.
    public mutating func resolveIfRegistered<Destination>(
        _ key: RoutableService<Destination>
    ) throws -> Destination? {
        guard table.hasRegistration(key.id) else { return nil }
        return try resolve(key)
    }

    /// Resolves every registration of `key`, in registration order (a parent registry's first).
    ///
    /// - Parameter key: The key to resolve; its tag or name, if any, narrows the set.
    /// - Returns: One destination per registration; empty when none is registered.
    /// - Throws: ``RouteError`` when one of the factories fails.
    public mutating func resolveAll<Destination>(_ key: RoutableService<Destination>) throws -> [Destination] {
        try table.allEntries(for: key.id).map { try build(unsafeDowncast($0, to: Entry<Destination>.self)) }
    }

    /// Makes the destination of a module, configured by `configuring` before it is made.
    ///
    /// - Parameters:
    ///   - key: The module key.
    ///   - configuring: Sets the module up, typically with a `construct…` call.
    /// - Returns: The destination.
    /// - Throws: ``RouteError``; ``RouteError/Code/invalidConfiguration`` when a required `construct…`
    ///   call was not made.
    public mutating func makeDestination<Configuration, Destination>(
        to key: RoutableServiceModule<Configuration, Destination>,
        configuring: (Configuration) throws -> Void
    ) throws -> Destination {
        let entry: Entry<Destination> = try moduleEntry(for: key)
        let configuration = try configure(entry, as: Configuration.self, configuring)
        input = configuration
        defer { input = nil }
        return try build(entry)
    }

    // MARK: Entry lookup

    @inlinable
    mutating func entry<Destination>(for key: RoutableService<Destination>) throws -> Entry<Destination> {
        guard let found = tableRef._withUnsafeGuaranteedRef({ $0.primaryRef(key.id) }) else {
            throw missingError(for: key)
        }
        // Sound: the table files an Entry<D> only under keys made from RoutableService<D>.
        return unsafeDowncast(found.takeUnretainedValue(), to: Entry<Destination>.self)
    }

    @usableFromInline
    mutating func missingError<Destination>(for key: RoutableService<Destination>) -> any Error {
        // `mutating` only so that inlined callers pass the resolver by reference: calling a non-mutating
        // method copies the whole resolver into the caller's stack frame, at every nesting level. The same
        // holds for the other error builders the hot path calls (`wrap`, `tooDeep`).
        // Boxed here, not in the caller: a RouteError built inline would enlarge every lookup's stack frame.
        table.missingError(key.id, key: key.keyDescription, path: pathTo(key.keyDescription.short))
    }

    mutating func moduleEntry<C, D>(for key: RoutableServiceModule<C, D>) throws -> Entry<D> {
        guard let found = table.primary(key.id) else {
            throw table.missingError(key.id, key: key.keyDescription, path: pathTo(key.keyDescription.short))
        }
        guard let typed = found as? Entry<D> else {
            throw RouteError(
                .destinationTypeMismatch, key: key.keyDescription.full, path: pathTo(key.keyDescription.short),
                reason:
                    "The module \(key.keyDescription.full) makes \(found.destinationType), not \(TypeName.of(D.self)).")
        }
        return typed
    }

    mutating func configure<C, D>(
        _ entry: Entry<D>, as type: C.Type, _ configuring: (C) throws -> Void
    ) throws -> ModuleConfiguration<D> {
        guard let made = entry.makeConfiguration?() else {
            throw RouteError(
                .invalidConfiguration, key: entry.key.full, reason: "\(entry.key.full) takes no configuration.")
        }
        guard let offered = made as? C else {
            throw RouteError(
                .destinationTypeMismatch, key: entry.key.full,
                reason:
                    "The configuration \(TypeName.of(Swift.type(of: made))) of \(entry.key.full) does not conform to \(TypeName.of(C.self)).",
                hint: "Make the module's configuration class adopt the configuration protocol.")
        }
        do {
            try configuring(offered)
        } catch {
            throw wrap(error, entry, stage: "caller's configuring closure")
        }
        return made
    }

    // MARK: The build pipeline

    /// Returns the destination of `entry`, shared or made according to its scope.
    @inlinable
    mutating func build<Destination>(_ entry: Entry<Destination>) throws -> Destination {
        if tracing { return try buildTraced(entry) }
        if let made = entry.builtSingleton { return made }
        // The common case: a transient object with nothing to prepare, in a lookup with no graph.
        if graphRef == nil && entry.isPlainTransient && depth < maxDepth {
            return try construct(entry)
        }
        return try buildSlow(entry)
    }

    /// Builds what `build` does not handle inline: anything in a lookup that has a graph, objects with
    /// preparations, graph-scoped and shared ones. Inlinable, so the graph path is specialised for the
    /// destination type in the caller instead of asking the runtime for generic metadata on every call.
    @inlinable
    mutating func buildSlow<Destination>(_ entry: Entry<Destination>) throws -> Destination {
        let kind = entry.scope.kind
        guard kind == .transient || kind == .graph else { return try buildShared(entry) }
        if let existing = try existingInstance(
            entry, startingGraph: kind != .transient || entry.needsPreparation)
        {
            return existing
        }
        return try construct(entry)
    }

    /// Returns or builds the instance of a shared registration (singleton, weak singleton, custom scope).
    @usableFromInline
    mutating func buildShared<Destination>(_ entry: Entry<Destination>) throws -> Destination {
        let kind = entry.scope.kind
        if let existing = try existingInstance(entry, startingGraph: true) {
            return existing
        }
        switch kind {
        case .transient, .graph:
            return try construct(entry)
        case .singleton, .eagerSingleton:
            guard let cell = entry.singleton else { return try construct(entry) }
            return try createShared(entry, cell.slot)
        case .weakSingleton:
            guard let cell = entry.weakCell else { return try construct(entry) }
            return try createShared(entry, cell.slot(as: Destination.self))
        case .custom:
            guard let scope = entry.scope.customScope,
                let cell = scope.cell(for: ObjectIdentifier(entry), of: Destination.self)
            else {
                throw RouteError(
                    .scopeClosed, key: entry.key.full, path: pathTo(entry.key.short),
                    reason:
                        "\(entry.key.full) lives in \(entry.scope.customScope?.description ?? "a custom scope"), which was closed.",
                    hint: "Create a new CustomScope for a new session; reset() empties a scope without closing it.")
            }
            if let made = cell.instance { return made }
            return try createShared(entry, cell.slot)
        }
    }

    /// What every build does before making anything: returns the object a cycle points back to, or this
    /// lookup's graph-scoped instance; otherwise starts the graph if `startingGraph` asks for one, and
    /// enforces the depth limit. Always inlined: as a call from unspecialised code, its optional result
    /// would cost a runtime metadata lookup on every build (6% of the cycle scenario, measured).
    @inlinable @inline(__always)
    mutating func existingInstance<Destination>(
        _ entry: Entry<Destination>, startingGraph: Bool
    ) throws -> Destination? {
        if let graphRef {
            // Borrowed: the resolver owns the graph for the whole lookup.
            let found = try graphRef._withUnsafeGuaranteedRef { graph -> Destination? in
                if injecting > 0 || entry.scope.isShared, let closed = try closeCycle(entry, in: graph) {
                    return closed
                }
                if entry.scope.kind == .graph, let shared = graph.graphInstance(for: ObjectIdentifier(entry)) {
                    return try cast(shared, entry)
                }
                return nil
            }
            if let found { return found }
        } else if startingGraph {
            startGraph()
        }
        guard depth < maxDepth else { throw tooDeep(entry) }
        return nil
    }

    /// Builds a shared instance under the creation lock. A synchronous lookup keeps the lock and publishes
    /// the instance only when the whole lookup has finished, so that a preparation still pending (one that
    /// closes a cycle through an object built further up) runs before any other thread can see it.
    mutating func createShared<Destination>(
        _ entry: Entry<Destination>, _ slot: SharedSlot<Destination>
    ) throws -> Destination {
        if let made = slot.published() { return made }
        if graph == nil { startGraph() }
        guard publishesAtEnd else {
            // Async lookups must not hold the lock across a suspension: build, prepare and publish at once.
            CreationLock.shared.lock()
            defer { CreationLock.shared.unlock() }
            if let made = slot.published() ?? slot.provisional() { return made }
            let mark = graph?.pending.count ?? 0
            let made = try construct(entry)
            slot.setProvisional(made)
            do {
                try drain(from: mark)
            } catch {
                slot.setProvisional(nil)
                throw error
            }
            slot.publish(made)
            return made
        }
        if !holdsCreationLock {
            CreationLock.shared.lock()
            holdsCreationLock = true
        }
        // Published by another thread while this one waited, or built earlier on this thread and not yet
        // published (by this lookup, or by an enclosing one whose factory started this lookup).
        if let made = slot.published() ?? slot.provisional() { return made }
        let mark = graph?.pending.count ?? 0
        let node = Int32(graph?.nodes.count ?? -1)  // the node `construct` is about to push
        let made = try construct(entry)
        slot.setProvisional(made)
        let deferred: [ResolutionGraph.Pending]
        do {
            deferred = try drainShared(from: mark, node: node)
        } catch {
            slot.setProvisional(nil)
            throw error
        }
        guard let graph, !deferred.isEmpty else {
            slot.publish(made)
            return made
        }
        // A preparation needs an object an enclosing factory is still building: it runs in the enclosing
        // lookup's drain, and the instance is published after it.
        graph.pending.append(contentsOf: deferred)
        graph.publications.append(
            (publish: { slot.publish(made) }, discard: { slot.setProvisional(nil) }, queuedAfter: graph.pending.count))
        return made
    }

    /// Runs a shared instance's preparations now, except those that need an object an enclosing factory is
    /// still building: those are returned, to run in the enclosing lookup's drain.
    mutating func drainShared(from mark: Int, node: Int32) throws -> [ResolutionGraph.Pending] {
        guard let graph else { return [] }
        let outerFloor = sharedFloor
        sharedFloor = node
        defer {
            sharedFloor = outerFloor
            graph.pending.removeSuffix(from: mark)
        }
        var deferred: [ResolutionGraph.Pending] = []
        var index = mark
        while index < graph.pending.count {
            let item = graph.pending[index]
            index += 1
            do {
                try runPending(item, graph: graph)
            } catch is DeferToEnclosingLookup {
                deferred.append(item)
            }
        }
        return deferred
    }

    @usableFromInline
    mutating func buildTraced<Destination>(_ entry: Entry<Destination>) throws -> Destination {
        guard let tracer = table.tracer else { return try buildSlow(entry) }
        let clock = ContinuousClock()
        let start = clock.now
        let before = constructions
        let level = depth
        do {
            let made: Destination
            if let cell = entry.singleton, let shared = cell.instance {
                made = shared
            } else {
                made = try buildSlow(entry)
            }
            let built = constructions != before && lastConstructed == ObjectIdentifier(entry)
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

    /// Runs the factory inside a frame on the call stack, records the object, and queues its preparation.
    @inlinable
    mutating func construct<Destination>(_ entry: Entry<Destination>) throws -> Destination {
        var frame = Frame(entry: entry, parent: top, node: -1)
        return try withUnsafeMutablePointer(to: &frame) { framePointer in
            let parentNode = enterFrame(framePointer)
            defer { leaveFrame(framePointer, parentNode: parentNode) }
            let made: Destination
            do {
                made = try entry.factory(&self)
            } catch {
                throw wrap(error, entry, stage: "factory")
            }
            constructions &+= 1
            lastConstructed = ObjectIdentifier(entry)
            if graphRef != nil { record(made, entry, node: framePointer.pointee.node) }
            return made
        }
    }

    /// Pushes a factory's frame (and its node, when a graph exists); returns the node to restore after.
    @inlinable
    mutating func enterFrame(_ frame: UnsafeMutablePointer<Frame>) -> Int32 {
        let parentNode = current
        if let graphRef {
            frame.pointee.node = graphRef._withUnsafeGuaranteedRef { $0.push(frame.pointee.entry, parent: parentNode) }
            current = frame.pointee.node
        }
        top = frame
        depth &+= 1
        return parentNode
    }

    /// Pops a factory's frame.
    @inlinable
    mutating func leaveFrame(_ frame: UnsafeMutablePointer<Frame>, parentNode: Int32) {
        let outerTop = frame.pointee.parent
        top = outerTop
        // A graph started inside the factory gave the enclosing frame a node of its own.
        if let outer = outerTop, outer.pointee.node >= 0 {
            current = outer.pointee.node
        } else {
            current = parentNode
        }
        depth &-= 1
    }

    /// Records a made object in the graph and queues its preparation.
    @inlinable
    mutating func record<Destination>(_ made: Destination, _ entry: Entry<Destination>, node: Int32) {
        guard let graphRef, node >= 0 else { return }
        graphRef._withUnsafeGuaranteedRef { graph in
            let index = Int32(graph.instances.count)
            graph.instances.append(made)
            graph.nodes[Int(node)].instance = index
            if entry.scope.kind == .graph {
                graph.graphScoped.append((ObjectIdentifier(entry), index))
            }
            if entry.needsPreparation {
                // Unowned: the table keeps the entry alive for longer than the lookup.
                graph.pending.append(
                    .init(node: node) { [unowned(unsafe) entry] resolver in try resolver.prepare(made, entry) })
            }
        }
    }

    /// Runs the registration's injections (cycle-closing ones last), then its finish hook.
    @inlinable
    mutating func prepare<Destination>(_ made: Destination, _ entry: Entry<Destination>) throws {
        // Two passes instead of a list of the closing ones: no allocation, and `closesCycle` depends only on
        // the ancestors of the object being prepared, which the injections do not change. The first pass
        // remembers the closing ones in a bit mask (the first 64; any later ones are checked again).
        // Through the buffer, so that no injection is copied (and its closure retained) on the way.
        try entry.injections.withUnsafeBufferPointer { injections in
            var closing: UInt64 = 0
            var closesLate = false
            for index in injections.indices {
                if let dependency = injections[index].dependency, closesCycle(dependency) {
                    if index < 64 { closing |= 1 << UInt64(index) } else { closesLate = true }
                    continue
                }
                try runInjection(injections[index], made, entry)
            }
            while closing != 0 {
                let index = closing.trailingZeroBitCount
                closing &= closing - 1
                try runInjection(injections[index], made, entry)
            }
            if closesLate {
                for index in injections.indices.dropFirst(64) {
                    if let dependency = injections[index].dependency, closesCycle(dependency) {
                        try runInjection(injections[index], made, entry)
                    }
                }
            }
        }
        if let didFinish = entry.didFinish {
            do {
                try didFinish(made, &self)
            } catch {
                throw wrap(error, entry, stage: "didFinishPrepare hook")
            }
        }
    }

    @inlinable
    mutating func runInjection<Destination>(
        _ injection: Injection<Destination>, _ made: Destination, _ entry: Entry<Destination>
    ) throws {
        do {
            try injection.apply(made, &self)
        } catch {
            throw wrap(error, entry, stage: "preparation")
        }
    }

    /// Runs queued preparations from `mark` on, including those they queue, then forgets them.
    @usableFromInline
    mutating func drain(from mark: Int) throws {
        guard let graphRef else { return }
        // Borrowed: the resolver owns the graph until it ends.
        try graphRef._withUnsafeGuaranteedRef { graph in
            defer {
                graph.pending.removeSuffix(from: mark)
            }
            var index = mark
            while index < graph.pending.count {
                let item = graph.pending[index]
                index += 1
                try runPending(item, graph: graph)
                if mark == 0 { graph.completed = index }
            }
        }
    }

    /// Runs one queued preparation inside the object it prepares.
    mutating func runPending(_ item: ResolutionGraph.Pending, graph: ResolutionGraph) throws {
        let outer = current
        let outerDepth = depth
        current = item.node
        // A preparation's lookups are nested inside the object it prepares.
        depth = item.node >= 0 ? Int(graph.nodes[Int(item.node)].level) + 1 : depth
        injecting += 1
        defer {
            current = outer
            depth = outerDepth
            injecting -= 1
        }
        try item.run(&self)
    }

    /// Builds `entry` as a top-level lookup with no configuration, arguments or caller preparation.
    @inlinable
    mutating func buildTopLevel<Destination>(_ entry: Entry<Destination>) throws -> Destination {
        let made = try build(entry)
        if graphRef != nil { try finish() }
        return made
    }

    /// Ends a top-level lookup: runs every pending preparation, then publishes the shared instances it
    /// built and lets go of the creation lock.
    @usableFromInline
    mutating func finish() throws {
        try drain(from: 0)
        if let graphRef, graphRef._withUnsafeGuaranteedRef({ !$0.publications.isEmpty }) {
            let graph = graphRef.takeUnretainedValue()
            for publication in graph.publications { publication.publish() }
            graph.publications = []
        }
        if holdsCreationLock {
            holdsCreationLock = false
            CreationLock.shared.unlock()
        }
    }

    /// Builds `entry` as a top-level lookup: the destination and everything it needs, fully prepared.
    @usableFromInline
    mutating func buildTopLevel<Destination>(
        _ entry: Entry<Destination>, configuration: ModuleConfiguration<Destination>?,
        arguments: ArgumentList? = nil, preparation: (Destination) throws -> Void = { _ in }
    ) throws -> Destination {
        input = configuration ?? arguments
        do {
            let made = try build(entry)
            input = nil
            try runCallerPreparation(made, entry, preparation)
            try finish()
            configuration?.finish(.success(made))
            return made
        } catch let error as RouteError {
            configuration?.finish(.failure(error))
            throw error
        }
    }

    mutating func runCallerPreparation<Destination>(
        _ made: Destination, _ entry: Entry<Destination>, _ preparation: (Destination) throws -> Void
    ) throws {
        do {
            try preparation(made)
        } catch {
            throw wrap(error, entry, stage: "caller's preparation")
        }
    }

    // MARK: Cycles, paths and errors

    /// If `entry` already has an object on the current path, returns it (a property edge closing a cycle)
    /// or throws (an initializer-only cycle: the object does not exist yet).
    @inlinable
    mutating func closeCycle<Destination>(
        _ entry: Entry<Destination>, in graph: ResolutionGraph
    ) throws -> Destination? {
        guard let found = graph.ancestor(of: current, entry: entry) else { return nil }
        let instance = graph.nodes[Int(found)].instance
        if instance >= 0 { return try cast(graph.instances[Int(instance)], entry) }
        throw unbuiltAncestor(found, entry: entry, in: graph)
    }

    /// The error for a cycle that reaches an object whose initializer has not returned: a deferral to the
    /// enclosing lookup's drain, or an initializer-only cycle.
    @usableFromInline
    func unbuiltAncestor(_ found: Int32, entry: AnyEntry, in graph: ResolutionGraph) -> any Error {
        if sharedFloor >= 0 && found < sharedFloor { return DeferToEnclosingLookup() }
        let path = graph.path(to: current)
        let start = max(0, path.count - cycleLength(from: found, graph: graph))
        return circularError(Array(path[start...]) + [entry.key.short], entry: entry)
    }

    private func cycleLength(from ancestor: Int32, graph: ResolutionGraph) -> Int {
        var length = 1
        var index = current
        while index >= 0 && index != ancestor {
            length += 1
            index = graph.nodes[Int(index)].parent
        }
        return length
    }

    /// Whether the key of `dependency` has an object among the ancestors of the object being prepared.
    @usableFromInline
    func closesCycle(_ dependency: RouteDependency) -> Bool {
        guard let graphRef, current >= 0,
            let target = tableRef._withUnsafeGuaranteedRef({ $0.primaryRef(dependency.id) })
        else { return false }
        // Everything borrowed: this runs for every injection of every prepared object.
        return graphRef._withUnsafeGuaranteedRef { graph in
            target._withUnsafeGuaranteedRef { target in
                graph.ancestor(of: graph.parent(of: current), entry: target) != nil
            }
        }
    }

    func circularError(_ cycle: [String], entry: AnyEntry) -> RouteError {
        RouteError(
            .circularDependency, key: entry.key.full, path: cycle,
            reason:
                "Circular dependency: \(cycle.joined(separator: " → ")) cannot be built, because \(cycle.last ?? "") is needed before its initializer has returned.",
            hint:
                "Inject one edge of the cycle after creation (an Injection, or a preparation), or through Lazy or Provider."
        )
    }

    @inlinable
    func cast<Destination>(_ instance: Any, _ entry: Entry<Destination>) throws -> Destination {
        guard let typed = instance as? Destination else { throw Self.castFailure(entry, expected: Destination.self) }
        return typed
    }

    @usableFromInline
    static func castFailure(_ entry: AnyEntry, expected: Any.Type) -> RouteError {
        RouteError(
            .destinationTypeMismatch, key: entry.key.full,
            reason: "Internal error: the shared instance of \(entry.key.full) is not a \(TypeName.of(expected)).")
    }

    /// Makes the graph, turning the frames of the running factories into its first nodes.
    @usableFromInline
    mutating func startGraph() {
        if let graphRef { GraphPool.recycle(graphRef) }
        let taken = GraphPool.take()
        graphRef = taken
        guard top != nil else { return }  // the common case: the graph starts before any factory runs
        var frames: [UnsafeMutablePointer<Frame>] = []
        var cursor = top
        while let frame = cursor {
            frames.append(frame)
            cursor = frame.pointee.parent
        }
        var parent = current
        taken._withUnsafeGuaranteedRef { graph in
            for frame in frames.reversed() {
                frame.pointee.node = graph.push(frame.pointee.entry, parent: parent)
                parent = frame.pointee.node
            }
        }
        current = parent
    }

    /// The names of the objects being built, outermost first.
    func runningPath() -> [String] {
        if let graph, current >= 0 { return graph.path(to: current) }
        var names: [String] = []
        var cursor = top
        while let frame = cursor {
            names.append(frame.pointee.entry.takeUnretainedValue().key.short)
            cursor = frame.pointee.parent
        }
        return names.reversed()
    }

    /// The path from the outermost object to a key about to be looked up.
    @usableFromInline
    func pathTo(_ last: String) -> [String] {
        runningPath() + [last]
    }

    /// The path to the object whose factory is running now (for errors raised inside a factory).
    func pathHere(_ fallback: String) -> [String] {
        let path = runningPath()
        return path.isEmpty ? [fallback] : path
    }

    func currentPath(_ entry: AnyEntry) -> [String] {
        pathHere(entry.key.short)
    }

    @usableFromInline
    mutating func wrap(_ error: any Error, _ entry: AnyEntry, stage: String) -> any Error {
        if error is RouteError || error is DeferToEnclosingLookup { return error }
        let path = currentPath(entry)
        if let missing = error as? MissingConstructCall {
            return RouteError(
                .invalidConfiguration, key: entry.key.full, path: path,
                reason:
                    "The configuration of \(entry.key.full) is missing the call \(missing.call); no destination was made.",
                hint: "Call \(missing.call) in the configuring closure of makeDestination(to:configuring:).")
        }
        return RouteError(
            .factoryFailed, key: entry.key.full, path: path,
            reason: "The \(stage) of \(entry.key.full) threw: \(error).", underlyingError: error)
    }

    @usableFromInline
    mutating func tooDeep(_ entry: AnyEntry) -> RouteError {
        let path = pathTo(entry.key.short)
        // An initializer-only cycle recurses until the limit: report the cycle, not the depth.
        var lastSeen: [String: Int] = [:]
        for (index, name) in path.enumerated() {
            if let previous = lastSeen[name] {
                return circularError(Array(path[previous...index]), entry: entry)
            }
            lastSeen[name] = index
        }
        let shown = path.count > 8 ? Array(path.prefix(3)) + ["…"] + Array(path.suffix(3)) : path
        return RouteError(
            .resolutionTooDeep, key: entry.key.full, path: shown,
            reason: "Resolving \(entry.key.full) went deeper than \(table.maxDepth) nested lookups.",
            hint: "Raise maxDepth when making the RouteRegistry if the chain is intended.")
    }
}
