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
    ///   - body: The lookup.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, or an error finishing the lookup.
    @inlinable
    static func lookup<Result>(
        in tableRef: Unmanaged<SealedTable>, reporting registry: RouteRegistry?,
        _ body: (inout Resolver) throws -> Result
    ) throws -> Result {
        let context = ThreadContext.current
        if let running = context.running, running.tableRef.toOpaque() == tableRef.toOpaque() {
            var resolver = Resolver(state: running)
            return try body(&resolver)
        }
        let state = context.begin(tableRef)
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

    /// Resolves `key` as a whole lookup; a built singleton is returned before any lookup starts.
    @inlinable
    static func resolveTopLevel<Destination>(
        _ key: RoutableService<Destination>, in tableRef: Unmanaged<SealedTable>, reporting registry: RouteRegistry
    ) throws -> Destination {
        let built = try tableRef._withUnsafeGuaranteedRef { table -> Destination? in
            guard !table.isTracing, let found = table.primaryRef(key.id) else { return nil }
            return try Entry<Destination>.borrow(found) { $0.builtSingleton }
        }
        if let built { return built }
        return try lookup(in: tableRef, reporting: registry) { resolver in try resolver.resolve(key) }
    }

    /// Ends a lookup that started at the door: runs every pending preparation, publishes what it held
    /// back, and commits the creation transaction if this is the thread's outermost lookup.
    @usableFromInline
    mutating func finishLookup() throws {
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
    @usableFromInline
    func begin(_ tableRef: Unmanaged<SealedTable>) -> LookupState {
        let tracing = !inHandler && tableRef._withUnsafeGuaranteedRef { $0.isTracing }
        let state: LookupState
        if let spare {
            self.spare = nil
            state = spare
            state.restart(tableRef: tableRef, stackLimit: stackLimit, tracing: tracing)
        } else {
            state = LookupState(tableRef: tableRef, stackLimit: stackLimit)
            state.tracing = tracing
        }
        state.outer = running
        running = state
        return state
    }

    /// Ends the lookup `state` started by ``begin(_:)``, keeping the state for the next one.
    @usableFromInline
    func end(_ state: LookupState) {
        running = state.outer
        state.reset()
        if spare == nil { spare = state }
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
        while let outer = root.outer { root = outer }
        return root.ownTransaction
    }
}
