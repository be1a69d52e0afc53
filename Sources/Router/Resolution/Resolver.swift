import Synchronization

/// Looks up dependencies from inside a factory or a preparation.
///
/// A factory receives the resolver `inout`, so it can neither escape nor outlive the lookup it belongs
/// to. Everything one top-level lookup builds shares it: graph-scoped instances, the path printed in
/// errors, the depth guard and the cycle detection. A lookup made through the registry (or a `Lazy` or
/// `Provider`) from inside a factory joins the running lookup the same way.
///
/// ```swift
/// try registry.register(.car) { r in
///     CarImpl(engine: try r.resolve(.engine), wheels: try r.resolveAll(.wheel))
/// }
/// ```
///
/// How a lookup runs, file by file, is drawn in `ARCHITECTURE.md` at the top of the repository.
public struct Resolver: ~Copyable {
    /// The running lookup's state. Borrowed: the door that started the lookup keeps it alive for as long
    /// as any resolver of it exists (a resolver is not copyable and is lent `inout`, so it cannot escape
    /// the call it is lent to).
    @usableFromInline let stateRef: Borrowed<LookupState>

    /// The running lookup's state.
    @inlinable
    var state: LookupState { stateRef.object }

    @inlinable
    init(state: LookupState) {
        stateRef = Borrowed(state)
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
        // Local functions, not closures: always inlined, so the probe, `build` and the factory's frame are
        // one function (see `constructPlain`).
        @inline(__always) func probe(_ table: SealedTable) -> Borrowed<AnyEntry>? {
            let found = table.primaryRefInline(key.id)
            // A named key's hash may find a registration of another name (see `KeyName`).
            guard table.hasNamedKeys, let named = found else { return found }
            return key.isNotNamed(as: named) ? nil : named
        }
        guard let found = tableRef.with(probe) else {
            throw missingError(for: key)
        }
        @inline(__always) func buildFound(_ entry: Entry<Destination>) throws -> Destination { try build(entry) }
        // Borrowed, not retained: the table keeps the entry alive for the whole lookup.
        return try Entry<Destination>.borrow(found, buildFound)
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
        try build(entry(for: key), input: nil, preparation: preparation)
    }

    /// Resolves the destination of `key`, or returns nil when no router is registered for it.
    ///
    /// Only a missing registration gives nil: a registered key whose factory fails still throws, and so
    /// does a lookup of a registry that was shut down (``RouteError/Code/shutDown``).
    /// - Parameter key: The key to resolve.
    /// - Returns: The destination, or nil.
    /// - Throws: ``RouteError`` for every failure other than a missing registration.
    public mutating func resolveIfRegistered<Destination>(
        _ key: RoutableService<Destination>
    ) throws -> Destination? {
        guard table.hasRegistration(key.id, name: key.name) else {
            // A miss is nil, unless the registry is shut down: then it says so.
            if let closed = table.shutDownError(key.keyDescription.full, path: pathTo(key.keyDescription.short)) {
                throw closed
            }
            return nil
        }
        return try resolve(key)
    }

    /// Resolves every registration of `key`, in registration order (a parent registry's first).
    ///
    /// - Parameter key: The key to resolve; its tag or name, if any, narrows the set.
    /// - Returns: One destination per registration; empty when none is registered.
    /// - Throws: ``RouteError`` when one of the factories fails; ``RouteError/Code/shutDown`` when the
    ///   registry was shut down, rather than an empty list.
    public mutating func resolveAll<Destination>(_ key: RoutableService<Destination>) throws -> [Destination] {
        let entries = table.allEntries(for: key.id, name: key.name)
        // None is an empty list, unless the registry is shut down: then it says so.
        if entries.isEmpty,
            let closed = table.shutDownError(key.keyDescription.full, path: pathTo(key.keyDescription.short))
        {
            throw closed
        }
        return try entries.map { erased in
            try Entry<Destination>.borrow(Borrowed(erased)) { entry in try build(entry) }
        }
    }

    /// Resolves the destination of a module, configured by `configuring` before it is made.
    ///
    /// (Inside a factory every lookup is `resolve…`; code outside any lookup starts one with the
    /// registry's `makeDestination…`.)
    /// - Parameters:
    ///   - key: The module key.
    ///   - configuring: Sets the module up, typically with a `construct…` call.
    /// - Returns: The destination.
    /// - Throws: ``RouteError``; ``RouteError/Code/invalidConfiguration`` when a required `construct…`
    ///   call was not made.
    public mutating func resolve<Configuration, Destination>(
        _ key: RoutableServiceModule<Configuration, Destination>,
        configuring: (Configuration) throws -> Void
    ) throws -> Destination {
        let entry: Entry<Destination> = try moduleEntry(for: key)
        let configuration = try configure(entry, as: Configuration.self, configuring)
        let made = try state.withInput(configuration) { try build(entry) }
        reportUnreadConstructCalls(configuration, of: entry)
        return made
    }

    // MARK: The state, as the engine's files read it

    @inlinable var tableRef: Borrowed<SealedTable> { state.context.tableRef }
    /// The table, for the paths that are not hot.
    @usableFromInline
    var table: SealedTable { state.table }
    @inlinable var maxDepth: Int { state.context.maxDepth }
    @inlinable var tracing: Bool { state.context.tracing }
    @inlinable var graphRef: Borrowed<ResolutionGraph>? { state.preparations.graphRef }
    @inlinable var graph: ResolutionGraph? { state.graph }
    /// How many preparations are queued, read without retaining the graph.
    @inlinable var pendingCount: Int { graphRef?.with { $0.pending.count } ?? 0 }
    @inlinable var current: Int32 { state.frames.current }
    @inlinable var top: FrameRef? { state.frames.top }
    @inlinable var depth: Int { state.frames.depth }
    @inlinable var injecting: Int { state.frames.injecting }
    @inlinable var sharedFloor: Int32 { state.preparations.sharedFloor }
    /// Whether the stack has room for one more nested build (see ``ThreadContext``), as far as the range
    /// the lookup last measured says. An address on another thread's stack is outside it as well:
    /// ``hasStackRoomOnThisThread()`` then measures again.
    @inlinable var hasStackRoom: Bool { state.context.stackRange.contains(StackPointer.current) }

    /// ``hasStackRoom`` for a lookup that may have moved to another thread: an async lookup resumes on any
    /// thread after an await, also inside an async factory that then resolves synchronously, so it is
    /// measured against the stack it runs on now. (A stale range gave a false "would overflow".)
    @usableFromInline
    func hasStackRoomOnThisThread() -> Bool {
        guard state.context.isAsync else { return false }
        state.context.measureStack(ThreadContext.current.stackRange)
        return hasStackRoom
    }
}

// MARK: - The door

extension Resolver {
    /// The one door into a lookup: every top-level lookup (registry calls, `Lazy`, `Provider`, routes,
    /// paths, identifiers, eager singletons) comes through here, so the rules are applied in one place.
    /// (``resolvePlainTopLevel(_:in:reporting:onMainActor:)`` is this door with its answers known for one case: an
    /// idle thread starting a lookup of a plain transient; it keeps the same rules.)
    ///
    /// - **Joining.** On a thread already running a lookup of the same table (a factory or preparation
    ///   calling the registry, a `Lazy` or a `Provider`), `body` continues that lookup: same graph, same
    ///   depth guard, same cycle detection, same creation transaction. The outer lookup finishes it.
    /// - **Nesting.** A lookup of another table started inside a factory gets a state of its own, nested
    ///   in the running one; it shares the thread's creation transaction, so it never waits for its own
    ///   thread.
    /// - **Finishing.** A lookup that started here runs every pending preparation, publishes what it
    ///   held back and commits its creation transaction; a failed one rolls it back.
    /// - **Reporting.** A failure of a lookup that started here goes to `registry`'s error handler, unless
    ///   that handler (or a trace handler) is what made the lookup.
    ///
    /// - Parameters:
    ///   - tableRef: The table; the caller keeps it alive for the whole call.
    ///   - registry: The registry whose error handler sees failures, if any.
    ///   - snapshot: For a `Lazy` or `Provider` read after the lookup that made it: that lookup's
    ///     graph-scoped instances that are still alive, which a new lookup reuses (a joined one does not).
    ///   - onMainActor: Whether the caller is isolated to the main actor (see ``LookupContext/onMainActor``).
    ///   - body: The lookup.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, or an error finishing the lookup.
    @inlinable
    static func lookup<Result>(
        in tableRef: Borrowed<SealedTable>, reporting registry: RouteRegistry?, seeding snapshot: GraphSnapshot? = nil,
        onMainActor: Bool = false, _ body: (inout Resolver) throws -> Result
    ) throws -> Result {
        // Borrowed: the thread-local slot keeps the context alive, and the context keeps the state alive
        // until `end`.
        try ThreadContext.currentRef().with { context in
            if let running = context.running,
                running.with({ $0.context.tableRef.refers(to: tableRef) })
            {
                return try running.with { state in
                    try state.withOnMainActor(onMainActor) {
                        var resolver = Resolver(state: state)
                        return try body(&resolver)
                    }
                }
            }
            if context.running == nil, context.asyncLookups.count.load(ordering: .relaxed) > 0,
                let joined = AsyncLookupBinding.joinable()
            {
                return try joinAsync(joined, in: context, tableRef, reporting: registry, onMainActor, body)
            }
            return try context.begin(tableRef, onMainActor: onMainActor).with { state in
                if let snapshot { state.seed(from: snapshot) }
                return try run(state, in: context, reporting: registry, body)
            }
        }
    }

    /// The door for a lookup started inside an async factory, between its awaits: the async lookup runs
    /// on this thread for the call, so that the lookup joins it (same table) or nests in it (another).
    @usableFromInline
    static func joinAsync<Result>(
        _ joined: AsyncLookupBinding, in context: ThreadContext, _ tableRef: Borrowed<SealedTable>,
        reporting registry: RouteRegistry?, _ onMainActor: Bool, _ body: (inout Resolver) throws -> Result
    ) throws -> Result {
        try context.withRunning(joined.state) {
            try lookup(in: tableRef, reporting: registry, onMainActor: onMainActor, body)
        }
    }

    /// Runs `body` as a lookup that started on this thread in `state`, then finishes it (every pending
    /// preparation, the held-back publications, the creation transaction) or, when anything failed, rolls
    /// it back and reports the error to `registry`. Either way the thread's context ends the state.
    @inlinable @inline(__always)
    static func run<Result>(
        _ state: LookupState, in context: ThreadContext, reporting registry: RouteRegistry?,
        _ body: (inout Resolver) throws -> Result
    ) throws -> Result {
        var resolver = Resolver(state: state)
        do {
            let made = try body(&resolver)
            // Tested on `state`, which the caller lends: through the resolver's reference, the test would
            // retain the state.
            if state.needsFinishing { try resolver.finishLookupSlow() }
            context.end(state)
            return made
        } catch {
            resolver.failLookup(error)
            context.end(state)
            throw context.report(error, to: registry)
        }
    }

    /// The async door: every async lookup (``RouteRegistry/makeDestinationAsync(to:)`` and its forms with
    /// arguments, a caller's preparation or a module's configuration, `warmUp()`) begins here, and ends
    /// through the session it returns (``AsyncLookupSession/finish(_:of:)`` or
    /// ``AsyncLookupSession/fail(_:_:of:reporting:)``).
    /// It follows the synchronous door's rules and ends a lookup the same way (``finishLookup()`` or
    /// ``failLookup(_:)``, then the state is emptied, its snapshot captured for the `Lazy`s and `Provider`s it
    /// made, and its invariants checked in debug builds); what differs is how the running lookup is found
    /// (filed under its task, ``AsyncLookupBinding``, instead of the thread's context) and that its state is
    /// its own, since it moves with the task between threads. A session rather than a closure: an async
    /// closure is an async frame of its own, which cost every async lookup about 1,100 instructions.
    ///
    /// - **Joining.** Inside an async factory of a lookup of the same table, the session continues that
    ///   lookup, which finishes it and reports its failure.
    /// - **Nesting.** Inside one of another table's, the new lookup nests in it and shares its creation
    ///   transaction, so it never waits for the lookup it is part of.
    ///
    /// - Parameters:
    ///   - table: The table.
    ///   - registry: The registry looked up: its override counter sends its synchronous lookups to the
    ///     door while this one runs, and its error handler sees a failure when `reporting`.
    ///   - reporting: Whether a failure goes to the error handler.
    ///   - onMainActor: Whether the caller is isolated to the main actor.
    /// - Returns: The session; look up through its ``AsyncLookupSession/state``, then end it.
    // Inlined into the async door: out of line (as it went when `nest` grew) it cost s12 about 26 instructions.
    @usableFromInline @inline(__always)
    static func beginAsync(
        in table: SealedTable, of registry: RouteRegistry, reporting: Bool, onMainActor: Bool
    ) -> AsyncLookupSession {
        let joined = AsyncLookupBinding.joinable()
        if let joined, joined.state.table === table {
            let was = joined.state.context.joinOnMainActor(onMainActor)
            return AsyncLookupSession(state: joined.state, binding: nil, wasOnMainActor: was)
        }
        // `table` is kept alive by the caller until the lookup ends.
        let binding = AsyncLookupBinding.take(for: table, stackRange: ThreadContext.current.stackRange)
        let state = binding.state
        // Nonsending: the lookup, its async factories included, runs on the caller's executor between its
        // awaits, so called from main-actor code it may make main-actor destinations there.
        state.nest(in: joined.map { Borrowed($0.state) }, onMainActor: onMainActor)
        binding.file()
        registry.overrideCounter.running.add(OverrideCounter.asyncLookup, ordering: .relaxed)
        return AsyncLookupSession(state: state, binding: binding, wasOnMainActor: false)
    }

    /// The async door with the lookup as a closure, for the forms that are not hot (``beginAsync(in:of:reporting:onMainActor:)``
    /// says why the hot one takes the session itself).
    @inline(__always)
    @usableFromInline
    nonisolated(nonsending) static func lookupAsync<Result>(
        in table: SealedTable, of registry: RouteRegistry, reporting: Bool, onMainActor: Bool,
        _ body: nonisolated(nonsending) (inout Resolver) async throws -> Result
    ) async throws -> Result {
        let session = beginAsync(in: table, of: registry, reporting: reporting, onMainActor: onMainActor)
        var resolver = Resolver(state: session.state)
        defer { withExtendedLifetime(table) {} }
        do {
            let made = try await body(&resolver)
            try session.finish(&resolver, of: registry)
            session.recycle()
            return made
        } catch {
            let failure = session.fail(error, &resolver, of: registry, reporting: reporting)
            session.recycle()
            throw failure
        }
    }

    /// Resolves `key` as a whole lookup, with the two commonest cases inline in the caller: a built
    /// singleton is returned before any lookup starts, and a transient with nothing to prepare takes
    /// ``resolvePlainTopLevel(_:in:reporting:onMainActor:)``. `tableRef` is nil while an override, an async
    /// lookup or a trace handler runs in the registry's family (see ``RouteRegistry/tableRef()``): every
    /// lookup then goes the general way.
    ///
    /// Only `key.id` is read before the general way is taken, and the key is handed on at one call, out of
    /// line: so the caller spends nothing building the key in memory unless that call is made.
    @inlinable @inline(__always)
    static func resolveTopLevel<Destination>(
        _ key: RoutableService<Destination>, in tableRef: Borrowed<SealedTable>?, reporting registry: RouteRegistry,
        isolation: (any Actor)?
    ) throws -> Destination {
        // With named registrations, a named key's hash may find one of another name: the general way checks.
        var found: Borrowed<AnyEntry>? = nil
        if let tableRef = tableRef {
            let (entry, slow) = tableRef.with { ($0.primaryRefInline(key.id), $0.hasNamedKeys) }
            found = entry
            if let entry = entry, !slow {
                switch Entry<Destination>.fastCase(entry) {
                // No factory runs, so the caller's isolation does not matter (and is not even compared).
                case .built(let made): return made
                case .plain:
                    return try resolvePlainTopLevel(
                        entry, in: tableRef, reporting: registry, onMainActor: MainActorCheck.isMainActor(isolation))
                case .other: break
                }
            }
        }
        return try resolveTopLevelSlow(
            key, found, in: tableRef, reporting: registry, onMainActor: MainActorCheck.isMainActor(isolation))
    }

    /// Resolves `key` through the door: a missing key (so that the error names the path and reaches the
    /// error handler), a traced lookup or one under overrides (`tableRef` nil), or anything but a built
    /// singleton or a plain transient. `found` is what the caller's probe of `tableRef` found.
    @inlinable @inline(never)
    static func resolveTopLevelSlow<Destination>(
        _ key: RoutableService<Destination>, _ found: Borrowed<AnyEntry>?, in tableRef: Borrowed<SealedTable>?,
        reporting registry: RouteRegistry, onMainActor: Bool
    ) throws -> Destination {
        // A named key's hash may have found a registration of another name (see `KeyName`).
        guard let tableRef = tableRef, let found = found, !key.isNotNamed(as: found) else {
            return try registry.lookup(onMainActor: onMainActor) { resolver in try resolver.resolve(key) }
        }
        // `found`, not the entry, crosses into the lookup: capturing a borrowed reference would retain it.
        return try lookup(in: tableRef, reporting: registry, onMainActor: onMainActor) { resolver in
            try Entry<Destination>.borrow(found) { entry in try resolver.build(entry) }
        }
    }

    /// A top-level lookup of a transient registration with nothing to prepare, untraced: the door,
    /// `build` and `construct` with what they would test known. It still publishes the lookup on the
    /// thread before the factory runs (so that a lookup the factory starts joins it), keeps the stack
    /// guard, records the object if the factory's own lookups started a graph, finishes what they queued,
    /// and reports a failure as the door does. Anything unusual on this thread (a running lookup to join,
    /// a handler, a busy state) goes through the door instead.
    @inlinable @inline(never)
    static func resolvePlainTopLevel<Destination>(
        _ found: Borrowed<AnyEntry>, in tableRef: Borrowed<SealedTable>, reporting registry: RouteRegistry,
        onMainActor: Bool
    ) throws -> Destination {
        // The bodies are local functions, not closures, so that they can be inlined into one function: a
        // closure's body is compiled apart, and each call between them costs a frame.
        @inline(__always) func first(_ resolver: inout Resolver) throws -> Destination {
            @inline(__always) func make(_ entry: Entry<Destination>) throws -> Destination {
                try resolver.constructFirst(entry)
            }
            return try Entry<Destination>.borrow(found, make)
        }
        @inline(__always) func start(in context: ThreadContext) throws -> Destination {
            guard let primary = context.idlePrimary else {
                return try lookup(in: tableRef, reporting: registry, onMainActor: onMainActor) { resolver in
                    try Entry<Destination>.borrow(found) { entry in try resolver.build(entry) }
                }
            }
            @inline(__always) func begin(_ state: LookupState) throws -> Destination {
                try run(state, in: context, reporting: registry, first)
            }
            // Borrowed: the context keeps its primary state (+1) as long as it lives.
            // Untraced: a trace handler sends every lookup to the door (`tableRef()` is nil then).
            return try context.start(primary, tableRef, onMainActor: onMainActor, tracing: false).with(begin)
        }
        let slot = tableRef.with { $0.contextSlot }
        // Borrowed: the thread-local slot keeps the context alive until the thread ends.
        return try ThreadContextKey.context(in: slot).with(start)
    }

    /// ``resolveTopLevel(_:in:reporting:isolation:)`` for a lookup with runtime arguments: when the key's
    /// primary registration is a plain transient that takes exactly the given types, the lookup runs
    /// ``resolvePlainTopLevel(_:given:arguments:_:in:reporting:onMainActor:)``, specialised for them in the
    /// caller; anything else (no table, a missing key, named registrations, another argument list, a
    /// shared or prepared registration) takes the general way, `RouteRegistry.makeDestinationGenerally`,
    /// whose checks give every typed error.
    @inlinable @inline(__always)
    static func resolveTopLevel<Destination, First, each Argument>(
        _ key: RoutableService<Destination>, arguments first: First, _ rest: repeat each Argument,
        in tableRef: Borrowed<SealedTable>?, reporting registry: RouteRegistry, isolation: (any Actor)?
    ) throws -> Destination {
        // Made from the type parameters: constants here, where they are known.
        let given = ArgumentList(First.self, repeat (each Argument).self)
        if let tableRef = tableRef {
            let (entry, slow) = tableRef.with { ($0.primaryRefInline(key.id), $0.hasNamedKeys) }
            if let entry = entry, !slow, entry.with({ $0.isPlainTransient && $0.takesArguments(given) }) {
                return try resolvePlainTopLevel(
                    entry, given: given, arguments: first, repeat each rest, in: tableRef, reporting: registry,
                    onMainActor: MainActorCheck.isMainActor(isolation))
            }
        }
        return try registry.makeDestinationGenerally(
            to: key, given: given, arguments: first, repeat each rest,
            onMainActor: MainActorCheck.isMainActor(isolation))
    }

    /// ``resolvePlainTopLevel(_:in:reporting:onMainActor:)`` with runtime arguments, which `found` (a plain
    /// transient) takes exactly: the same pieces (the idle thread's state, ``run(_:in:reporting:_:)``,
    /// ``constructFirst(_:)``), with the values handed to the factory for the length of the build
    /// (``ArgumentHandoff``). The factory still checks them (``callTakingArguments(_:takes:for:)``).
    @inlinable @inline(never)
    static func resolvePlainTopLevel<Destination, First, each Argument>(
        _ found: Borrowed<AnyEntry>, given: ArgumentList, arguments first: First, _ rest: repeat each Argument,
        in tableRef: Borrowed<SealedTable>, reporting registry: RouteRegistry, onMainActor: Bool
    ) throws -> Destination {
        try ArgumentHandoff.withKnownTypes(given, first, repeat each rest, making: Destination.self) { handoff in
            @inline(__always) func first(_ resolver: inout Resolver) throws -> Destination {
                @inline(__always) func make(_ entry: Entry<Destination>) throws -> Destination {
                    // Cleared after the build whether or not a factory took the values (the invariant's (b)).
                    resolver.state.frames.handArguments(handoff)
                    defer { resolver.state.frames.handArguments(nil) }
                    return try resolver.constructFirst(entry)
                }
                return try Entry<Destination>.borrow(found, make)
            }
            @inline(__always) func start(in context: ThreadContext) throws -> Destination {
                guard let primary = context.idlePrimary else {
                    return try lookup(in: tableRef, reporting: registry, onMainActor: onMainActor) { resolver in
                        try Entry<Destination>.borrow(found) { entry in try resolver.build(entry, arguments: handoff) }
                    }
                }
                @inline(__always) func begin(_ state: LookupState) throws -> Destination {
                    try run(state, in: context, reporting: registry, first)
                }
                // Borrowed: the context keeps its primary state (+1) as long as it lives.
                return try context.start(primary, tableRef, onMainActor: onMainActor, tracing: false).with(begin)
            }
            let slot = tableRef.with { $0.contextSlot }
            // Borrowed: the thread-local slot keeps the context alive until the thread ends.
            return try ThreadContextKey.context(in: slot).with(start)
        }
    }

    /// Ends a lookup that started at the door: runs every pending preparation, publishes what it held
    /// back, and commits the creation transaction if this is the thread's outermost lookup.
    @inlinable
    mutating func finishLookup() throws {
        // Most lookups built nothing shared and queued nothing: nothing to do.
        guard state.needsFinishing else { return }
        try finishLookupSlow()
    }

    @usableFromInline
    mutating func finishLookupSlow() throws {
        // An `@Injected` property that failed outside any factory (or in a preparation) fails the lookup.
        if state.hasFailedInjection, let failed = state.takeFailedInjection(in: nil) {
            throw failed
        }
        try drain(from: 0)
        if state.hasFailedInjection, let failed = state.takeFailedInjection(in: nil) {
            throw failed
        }
        guard let transaction = state.existingTransaction else { return }
        transaction.publishHeld(by: ObjectIdentifier(state))
        if let outer = state.context.outer?.object {
            // What this nested lookup returns may hold an instance the outer lookups have not published: what
            // the outer lookup builds around it is held as if it had reached that instance itself.
            if state.preparations.reachedOuterInstance { outer.noteReachedGroupInstance() }
        } else {
            try transaction.commit()
        }
    }

    /// Ends a lookup that failed: publishes the held instances whose preparations all ran, forgets the
    /// others (the next lookup builds them again).
    @usableFromInline
    mutating func failLookup(_ error: any Error) {
        guard let transaction = state.existingTransaction else { return }
        if state.context.outer == nil {
            transaction.rollBack(error, completed: [ObjectIdentifier(state): state.preparations.completed])
        } else {
            transaction.settleHeld(by: ObjectIdentifier(state), completed: state.preparations.completed)
        }
    }
}

/// An async lookup the async door began (``Resolver/beginAsync(in:of:reporting:onMainActor:)``): one of the
/// task's own, or the task's running lookup it joined. Ends with ``finish(_:of:)`` or
/// ``fail(_:_:of:reporting:)``, once.
@usableFromInline
struct AsyncLookupSession {
    // The caller keeps the table alive until the session ends (the state borrows it), and passes the
    // registry to `finish` and `fail`: fields the session does not hold cost no retain per lookup.

    /// The lookup's state: a resolver of it looks up in the session.
    @usableFromInline let state: LookupState
    /// The lookup's binding, filed under its task, when the session started the lookup; nil when it joined
    /// the task's running one, which ends it.
    let binding: AsyncLookupBinding?
    /// A joined lookup's main-actor flag before the session, restored when it ends.
    let wasOnMainActor: Bool

    /// Ends a lookup whose body succeeded: a started one runs what is pending and publishes what it held
    /// (``Resolver/finishLookup()``), then its state is emptied and it leaves its task.
    /// - Throws: An error finishing the lookup; the caller then ends it with ``fail(_:_:of:reporting:)``.
    @usableFromInline @inline(__always)
    func finish(_ resolver: inout Resolver, of registry: RouteRegistry) throws {
        guard let binding else {
            state.context.restoreOnMainActor(wasOnMainActor)
            return
        }
        if state.needsFinishing { try resolver.synchronously { resolver in try resolver.finishLookupSlow() } }
        close(binding, registry)
    }

    /// Ends a lookup that failed with `error`: a started one rolls back what it claimed, is emptied, leaves
    /// its task and reports the failure (when `reporting`).
    /// - Returns: The error to throw.
    @usableFromInline
    func fail(_ error: any Error, _ resolver: inout Resolver, of registry: RouteRegistry, reporting: Bool)
        -> any Error
    {
        guard let binding else {
            state.context.restoreOnMainActor(wasOnMainActor)
            return error
        }
        resolver.failLookup(error)
        close(binding, registry)
        return reporting ? registry.report(error) : error
    }

    /// Empties the state and unfiles the lookup.
    @inline(__always)
    private func close(_ binding: AsyncLookupBinding, _ registry: RouteRegistry) {
        state.end()
        registry.overrideCounter.running.subtract(OverrideCounter.asyncLookup, ordering: .relaxed)
        binding.end()
    }

    /// After ``finish(_:of:)`` or ``fail(_:_:of:reporting:)``, when the caller will not touch the state
    /// again: gives a started lookup's state and binding back to its table, for the next async lookup to
    /// reuse instead of allocating its own. (A caller that skips it only loses the reuse.)
    @usableFromInline @inline(__always)
    func recycle() {
        binding?.giveBack(to: state.context.tableRef)
    }
}

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
        _ = registry.report(
            RouteError(
                .unusedConstructCall, key: entry.key.full,
                reason:
                    "The configuration of \(entry.key.full) received \(calls), which its router never read.",
                hint: "Read it in the factory with require(_:setBy:), or stop making the call."))
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
    /// input (with arguments or a configuration, a repeat may be a recursion that ends). A shared or
    /// graph-scoped object's repeat is found by the graph; this finds the transients'. The cycle reported
    /// is the path's first repeat, wherever the check ran: the same error a check at every level gives.
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
