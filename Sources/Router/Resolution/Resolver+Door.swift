import Synchronization

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

    /// The async door: every async lookup (``RouteRegistry/makeDestinationAsync(to:arguments:preparation:)`` and its forms with
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

    /// ``resolveTopLevel(_:in:reporting:isolation:)`` for a lookup with runtime arguments or a caller's
    /// preparation: when there is no preparation and the key's primary registration is a plain transient
    /// that takes exactly the given types, the lookup runs
    /// ``resolvePlainTopLevel(_:given:arguments:in:reporting:onMainActor:)``, specialised for them in the
    /// caller; anything else (no table, a missing key, named registrations, another argument list, a
    /// shared or prepared registration, a preparation) takes the general way,
    /// `RouteRegistry.makeDestinationGenerally`, whose checks give every typed error.
    @inlinable @inline(__always)
    static func resolveTopLevel<Destination, each Argument>(
        _ key: RoutableService<Destination>, given: ArgumentList, arguments: repeat each Argument,
        preparation: ((Destination) throws -> Void)?, in tableRef: Borrowed<SealedTable>?,
        reporting registry: RouteRegistry, isolation: (any Actor)?
    ) throws -> Destination {
        if preparation == nil, given.count > 0, let tableRef = tableRef {
            let (entry, slow) = tableRef.with { ($0.primaryRefInline(key.id), $0.hasNamedKeys) }
            if let entry = entry, !slow, entry.with({ $0.isPlainTransient && $0.takesArguments(given) }) {
                return try resolvePlainTopLevel(
                    entry, given: given, arguments: repeat each arguments, in: tableRef, reporting: registry,
                    onMainActor: MainActorCheck.isMainActor(isolation))
            }
        }
        return try registry.makeDestinationGenerally(
            to: key, given: given, arguments: repeat each arguments, preparation: preparation,
            onMainActor: MainActorCheck.isMainActor(isolation))
    }

    /// ``resolvePlainTopLevel(_:in:reporting:onMainActor:)`` with runtime arguments, which `found` (a plain
    /// transient) takes exactly: the same pieces (the idle thread's state, ``run(_:in:reporting:_:)``,
    /// ``constructFirst(_:)``), with the values handed to the factory for the length of the build
    /// (``ArgumentHandoff``). The factory still checks them (``callTakingArguments(_:takes:for:)``).
    @inlinable @inline(never)
    static func resolvePlainTopLevel<Destination, each Argument>(
        _ found: Borrowed<AnyEntry>, given: ArgumentList, arguments: repeat each Argument,
        in tableRef: Borrowed<SealedTable>, reporting registry: RouteRegistry, onMainActor: Bool
    ) throws -> Destination {
        try ArgumentHandoff.withKnownTypes(given, repeat each arguments, making: Destination.self) { handoff in
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
