extension Resolver {
    /// The one door into a lookup: every top-level lookup (registry calls, `Lazy`, `Provider`, routes,
    /// paths, identifiers, eager singletons) comes through here, so the rules are applied in one place:
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
    ///   - body: The lookup.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, or an error finishing the lookup.
    @inlinable
    static func lookup<Result>(
        in tableRef: Unmanaged<SealedTable>, reporting registry: RouteRegistry?, seeding snapshot: GraphSnapshot? = nil,
        _ body: (inout Resolver) throws -> Result
    ) throws -> Result {
        // Borrowed: the thread-local slot keeps the context alive, and the context keeps the state alive
        // until `end`.
        try ThreadContext.currentRef()._withUnsafeGuaranteedRef { context in
            if let running = context.running,
                running._withUnsafeGuaranteedRef({ $0.tableRef.toOpaque() == tableRef.toOpaque() })
            {
                return try running._withUnsafeGuaranteedRef { state in
                    var resolver = Resolver(state: state)
                    return try body(&resolver)
                }
            }
            return try context.begin(tableRef)._withUnsafeGuaranteedRef { state in
                if let snapshot { state.seed(from: snapshot) }
                var resolver = Resolver(state: state)
                do {
                    let made = try body(&resolver)
                    try resolver.finishLookup()
                    context.end(state)
                    return made
                } catch {
                    resolver.failLookup(error)
                    context.end(state)
                    throw context.report(error, to: registry)
                }
            }
        }
    }

    /// Resolves `key` as a whole lookup; a built singleton is returned before any lookup starts.
    @inlinable
    static func resolveTopLevel<Destination>(
        _ key: RoutableService<Destination>, in tableRef: Unmanaged<SealedTable>, reporting registry: RouteRegistry
    ) throws -> Destination {
        guard let found = tableRef._withUnsafeGuaranteedRef({ $0.primaryRef(key.id) }) else {
            // Through a lookup, so that the error names the path and reaches the error handler.
            return try lookup(in: tableRef, reporting: registry) { resolver in try resolver.resolve(key) }
        }
        if let made = try Entry<Destination>.borrow(found, { $0.builtSingleton }),
            !tableRef._withUnsafeGuaranteedRef({ $0.isTracing })
        {
            return made
        }
        // `found`, not the entry, crosses into the lookup: capturing a borrowed reference would retain it.
        return try lookup(in: tableRef, reporting: registry) { resolver in
            try Entry<Destination>.borrow(found) { entry in try resolver.build(entry) }
        }
    }

    /// Ends a lookup that started at the door: runs every pending preparation, publishes what it held
    /// back, and commits the creation transaction if this is the thread's outermost lookup.
    @inlinable
    mutating func finishLookup() throws {
        // Most lookups built nothing shared and queued nothing: nothing to do.
        if state.graphRef == nil && state.ownTransaction == nil { return }
        try finishLookupSlow()
    }

    @usableFromInline
    mutating func finishLookupSlow() throws {
        try drain(from: 0)
        guard let transaction = state.existingTransaction else { return }
        transaction.publishHeld(by: ObjectIdentifier(state))
        if state.outer == nil { try transaction.commit() }
    }

    /// Ends a lookup that failed: publishes the held instances whose preparations all ran, forgets the
    /// others (the next lookup builds them again).
    @usableFromInline
    mutating func failLookup(_ error: any Error) {
        guard let transaction = state.existingTransaction else { return }
        if state.outer == nil {
            transaction.rollBack(error, completed: [ObjectIdentifier(state): state.completed])
        } else {
            transaction.settleHeld(by: ObjectIdentifier(state), completed: state.completed)
        }
    }
}

extension ThreadContext {
    /// Starts a lookup of `tableRef` on this thread: the spare state, or a new one, nested in the running
    /// lookup if there is one.
    @inlinable @inline(__always)
    func begin(_ tableRef: Unmanaged<SealedTable>) -> Unmanaged<LookupState> {
        // The common case, inline: no lookup runs on this thread, and its primary state is free.
        if running == nil && !primaryBusy && !inHandler, let primary {
            primaryBusy = true
            primary._withUnsafeGuaranteedRef { state in
                state.tableRef = tableRef
                (state.maxDepth, state.tracing) = tableRef._withUnsafeGuaranteedRef { ($0.maxDepth, $0.isTracing) }
            }
            running = primary
            return primary
        }
        return beginSlow(tableRef)
    }

    @usableFromInline
    func beginSlow(_ tableRef: Unmanaged<SealedTable>) -> Unmanaged<LookupState> {
        let tracing = !inHandler && tableRef._withUnsafeGuaranteedRef { $0.isTracing }
        let made: Unmanaged<LookupState>
        if !primaryBusy, let primary {
            primaryBusy = true
            made = primary
            primary._withUnsafeGuaranteedRef {
                $0.restart(tableRef: tableRef, stackLimit: stackLimit, tracing: tracing)
            }
        } else {
            let state = LookupState(tableRef: tableRef, stackLimit: stackLimit)
            state.tracing = tracing
            if primary == nil {
                primary = Unmanaged.passRetained(state)
                primaryBusy = true
            } else {
                nested.append(state)
            }
            made = Unmanaged.passUnretained(state)
        }
        made._withUnsafeGuaranteedRef { state in state.outer = running }
        running = made
        return made
    }

    /// Ends the lookup `state` started by ``begin(_:)``, keeping the thread's primary state for the next one.
    @inlinable @inline(__always)
    func end(_ state: LookupState) {
        if state.outer == nil && state.isClean && primary?.toOpaque() == running?.toOpaque() {
            running = nil
            primaryBusy = false
            return
        }
        endSlow(state)
    }

    @usableFromInline
    func endSlow(_ state: LookupState) {
        running = state.outer
        state.reset()
        if primary?.toOpaque() == Unmanaged.passUnretained(state).toOpaque() {
            primaryBusy = false
        } else if let index = nested.lastIndex(where: { $0 === state }) {
            nested.remove(at: index)
        }
    }

    /// Hands a failed lookup's error to `registry`'s error handler, unless a handler is already running
    /// on this thread (a handler's own failing lookup must not call it again, without end).
    @usableFromInline
    func report(_ error: any Error, to registry: RouteRegistry?) -> any Error {
        guard let registry, !inHandler, let routeError = error as? RouteError, let handler = registry.errorHandler
        else { return error }
        inHandler = true
        defer { inHandler = false }
        handler(routeError)
        return error
    }

    /// Calls a trace handler, with lookups it makes untraced.
    func callHandler(_ body: () -> Void) {
        guard !inHandler else { return }
        inHandler = true
        defer { inHandler = false }
        body()
    }
}

extension LookupState {
    /// The creation transaction of this lookup (or the one it is nested in), if one was made.
    var existingTransaction: CreationTransaction? {
        var root = self
        while let outer = root.outer?.takeUnretainedValue() { root = outer }
        return root.ownTransaction
    }
}
