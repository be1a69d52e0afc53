import Synchronization

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
    ///   - onMainActor: Whether the caller is isolated to the main actor (see ``LookupState/onMainActor``).
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
        unsafe try ThreadContext.currentRef().with { context in
            if let running = unsafe context.running,
                unsafe running.with({ unsafe $0.context.tableRef.opaque == tableRef.opaque })
            {
                return unsafe try running.with { state in
                    try state.withOnMainActor(onMainActor) {
                        var resolver = Resolver(state: state)
                        return try body(&resolver)
                    }
                }
            }
            if unsafe context.running == nil, context.asyncLookups.count.load(ordering: .relaxed) > 0,
                let joined = AsyncLookupBinding.joinable()
            {
                return unsafe try joinAsync(joined, in: context, tableRef, reporting: registry, onMainActor, body)
            }
            return unsafe try context.begin(tableRef).with { state in
                if onMainActor { unsafe state.context.onMainActor = true }
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
            unsafe try lookup(in: tableRef, reporting: registry, onMainActor: onMainActor, body)
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

    /// Resolves `key` as a whole lookup, with the two commonest cases inline in the caller: a built
    /// singleton is returned before any lookup starts, and a transient with nothing to prepare takes
    /// ``resolvePlainTopLevel(_:in:reporting:onMainActor:)``. The caller checked that no override is running
    /// (`tableRef()`); a trace handler sends every lookup the general way.
    @inlinable @inline(__always)
    static func resolveTopLevel<Destination>(
        _ key: RoutableService<Destination>, in tableRef: Borrowed<SealedTable>, reporting registry: RouteRegistry,
        isolation: (any Actor)?
    ) throws -> Destination {
        // With named registrations, a named key's hash may find one of another name: the slow path checks.
        let (found, slow) = unsafe tableRef.with {
            unsafe ($0.primaryRefInline(key.id), $0.hasNamedKeys || $0.isTracing)
        }
        if let found = unsafe found, !slow {
            switch unsafe Entry<Destination>.fastCase(found) {
            // No factory runs, so the caller's isolation does not matter (and is not even compared).
            case .built(let made): return made
            case .plain:
                return unsafe try resolvePlainTopLevel(
                    found, in: tableRef, reporting: registry, onMainActor: MainActorCheck.isMainActor(isolation))
            case .other: break
            }
        }
        return unsafe try resolveTopLevelSlow(
            key, found, in: tableRef, reporting: registry, onMainActor: MainActorCheck.isMainActor(isolation))
    }

    /// Resolves `key` through the door: a missing key (so that the error names the path and reaches the
    /// error handler), a traced lookup, or anything but a built singleton or a plain transient.
    @inlinable @inline(never)
    static func resolveTopLevelSlow<Destination>(
        _ key: RoutableService<Destination>, _ found: Borrowed<AnyEntry>?, in tableRef: Borrowed<SealedTable>,
        reporting registry: RouteRegistry, onMainActor: Bool
    ) throws -> Destination {
        // A named key's hash may have found a registration of another name (see `KeyName`).
        let found = unsafe found.flatMap { unsafe key.isNotNamed(as: $0) ? nil : $0 }
        guard let found = unsafe found else {
            return unsafe try lookup(in: tableRef, reporting: registry, onMainActor: onMainActor) { resolver in
                try resolver.resolve(key)
            }
        }
        // `found`, not the entry, crosses into the lookup: capturing a borrowed reference would retain it.
        return unsafe try lookup(in: tableRef, reporting: registry, onMainActor: onMainActor) { resolver in
            unsafe try Entry<Destination>.borrow(found) { entry in try resolver.build(entry) }
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
            return unsafe try Entry<Destination>.borrow(found, make)
        }
        @inline(__always) func start(in context: ThreadContext) throws -> Destination {
            guard let primary = unsafe context.idlePrimary else {
                return unsafe try lookup(in: tableRef, reporting: registry, onMainActor: onMainActor) { resolver in
                    unsafe try Entry<Destination>.borrow(found) { entry in try resolver.build(entry) }
                }
            }
            unsafe context.primaryBusy = true
            unsafe context.running = primary
            @inline(__always) func begin(_ state: LookupState) throws -> Destination {
                unsafe state.context.tableRef = tableRef
                unsafe state.context.maxDepth = tableRef.with { $0.maxDepth }
                unsafe state.context.tracing = false
                unsafe state.context.onMainActor = onMainActor
                return try run(state, in: context, reporting: registry, first)
            }
            // Borrowed: the context keeps its primary state (+1) as long as it lives.
            return unsafe try primary.with(begin)
        }
        let slot = unsafe tableRef.with { $0.contextSlot }
        // Borrowed: the thread-local slot keeps the context alive until the thread ends.
        return unsafe try ThreadContextKey.context(in: slot).with(start)
    }

    /// `construct` for the first object of a lookup, which has no enclosing frame or node and is not
    /// traced: the frame is pushed and popped by plain stores.
    @inlinable @inline(__always)
    mutating func constructFirst<Destination>(_ entry: Entry<Destination>) throws -> Destination {
        // The first level: the depth count (0 < maxDepth, which is at least 1) always allows it; the stack
        // may not.
        guard hasStackRoom else { throw tooDeep(entry) }
        var frame = unsafe Frame(entry: entry, parent: nil, node: -1)
        // Unprotected: see `Frame`.
        return unsafe try _withUnprotectedUnsafeMutablePointer(to: &frame) { framePointer in
            unsafe top = unsafe framePointer
            depth = 1
            defer {
                unsafe top = nil
                current = -1
                depth = 0
            }
            return unsafe try runFactory(entry, in: framePointer)
        }
    }

    /// Ends a lookup that started at the door: runs every pending preparation, publishes what it held
    /// back, and commits the creation transaction if this is the thread's outermost lookup.
    @inlinable
    mutating func finishLookup() throws {
        // Most lookups built nothing shared and queued nothing: nothing to do.
        guard unsafe state.needsFinishing else { return }
        try finishLookupSlow()
    }

    @usableFromInline
    mutating func finishLookupSlow() throws {
        // An `@Injected` property that failed outside any factory (or in a preparation) fails the lookup.
        if unsafe state.hasFailedInjection, let failed = unsafe state.takeFailedInjection(in: nil) {
            throw failed
        }
        try drain(from: 0)
        if unsafe state.hasFailedInjection, let failed = unsafe state.takeFailedInjection(in: nil) {
            throw failed
        }
        guard let transaction = unsafe state.existingTransaction else { return }
        unsafe transaction.publishHeld(by: ObjectIdentifier(state))
        if unsafe state.context.outer == nil { try transaction.commit() }
    }

    /// Ends a lookup that failed: publishes the held instances whose preparations all ran, forgets the
    /// others (the next lookup builds them again).
    @usableFromInline
    mutating func failLookup(_ error: any Error) {
        guard let transaction = unsafe state.existingTransaction else { return }
        if unsafe state.context.outer == nil {
            unsafe transaction.rollBack(error, completed: [ObjectIdentifier(state): state.preparations.completed])
        } else {
            unsafe transaction.settleHeld(by: ObjectIdentifier(state), completed: state.preparations.completed)
        }
    }
}

extension ThreadContext {
    /// Starts a lookup of `tableRef` on this thread: the spare state, or a new one, nested in the running
    /// lookup if there is one.
    /// The primary state when a lookup may start on it straight away: no lookup runs on this thread, the
    /// primary state is free, and no handler is being called.
    @inlinable @inline(__always)
    var idlePrimary: Borrowed<LookupState>? {
        unsafe running == nil && !primaryBusy && !inHandler ? primary : nil
    }

    @inlinable @inline(__always)
    func begin(_ tableRef: Borrowed<SealedTable>) -> Borrowed<LookupState> {
        // The common case, inline: no lookup runs on this thread, and its primary state is free.
        if unsafe running == nil && !primaryBusy && !inHandler, let primary = unsafe primary {
            unsafe primaryBusy = true
            unsafe primary.with { state in
                unsafe state.context.tableRef = tableRef
                unsafe (state.context.maxDepth, state.context.tracing) = tableRef.with { ($0.maxDepth, $0.isTracing) }
                unsafe state.context.onMainActor = false
            }
            unsafe running = primary
            return unsafe primary
        }
        return unsafe beginSlow(tableRef)
    }

    @usableFromInline
    func beginSlow(_ tableRef: Borrowed<SealedTable>) -> Borrowed<LookupState> {
        let tracing = unsafe !inHandler && tableRef.with { $0.isTracing }
        let made: Borrowed<LookupState>
        if unsafe !primaryBusy, let primary = unsafe primary {
            unsafe primaryBusy = true
            unsafe made = unsafe primary
            unsafe primary.with {
                unsafe $0.restart(tableRef: tableRef, stackRange: stackRange, tracing: tracing)
            }
        } else {
            let state = unsafe LookupState(tableRef: tableRef, stackRange: stackRange)
            unsafe state.context.tracing = tracing
            if unsafe primary == nil {
                unsafe primary = Borrowed.retained(state)
                unsafe primaryBusy = true
            } else {
                unsafe nested.append(state)
            }
            unsafe made = unsafe Borrowed(state)
        }
        unsafe made.with { state in
            unsafe state.context.outer = unsafe running
            // A lookup nested in a main-actor one runs on the same thread, inside it.
            unsafe state.context.onMainActor = unsafe running?.with { unsafe $0.context.onMainActor } ?? false
        }
        unsafe running = made
        return unsafe made
    }

    /// Ends the lookup `state` started by ``begin(_:)``, keeping the thread's primary state for the next one.
    @inlinable @inline(__always)
    func end(_ state: LookupState) {
        if unsafe state.context.outer == nil && state.isClean && primary?.opaque == running?.opaque {
            #if DEBUG
                let problems = state._checkInvariants(idle: true)
                assert(problems.isEmpty, "lookup state: \(problems.joined(separator: "; "))")
            #endif
            unsafe running = nil
            unsafe primaryBusy = false
            return
        }
        endSlow(state)
    }

    @usableFromInline
    func endSlow(_ state: LookupState) {
        unsafe running = unsafe state.context.outer
        state.reset()
        if unsafe primary?.opaque == Borrowed(state).opaque {
            unsafe primaryBusy = false
        } else if let index = unsafe nested.lastIndex(where: { $0 === state }) {
            unsafe nested.remove(at: index)
        }
    }

    /// Runs `body` with `state` (an async lookup's, which moves between threads) as this thread's running
    /// lookup, measured against this thread's stack, then restores the lookup that was running.
    @inline(__always)
    func withRunning<Result>(_ state: LookupState, _ body: () throws -> Result) rethrows -> Result {
        let outer = unsafe running
        unsafe state.context.stackRange = stackRange
        unsafe running = unsafe Borrowed(state)
        defer { unsafe running = outer }
        return try body()
    }

    /// Hands a failed lookup's error to `registry`'s error handler, unless a handler is already running
    /// on this thread (a handler's own failing lookup must not call it again, without end).
    @usableFromInline
    func report(_ error: any Error, to registry: RouteRegistry?) -> any Error {
        guard let registry, unsafe !inHandler, let routeError = error as? RouteError,
            let handler = registry.errorHandler
        else { return error }
        unsafe inHandler = true
        defer { unsafe inHandler = false }
        handler(routeError)
        return error
    }

    /// Calls a trace handler, with lookups it makes untraced.
    func callHandler(_ body: () -> Void) {
        guard unsafe !inHandler else { return }
        unsafe inHandler = true
        defer { unsafe inHandler = false }
        body()
    }
}

extension LookupState {
    /// The creation transaction of this lookup (or the one it is nested in), if one was made.
    var existingTransaction: CreationTransaction? {
        var root = self
        while let outer = unsafe root.context.outer?.object { root = outer }
        return unsafe root.creation.ownTransaction
    }
}
