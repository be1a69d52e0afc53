import Synchronization

extension Resolver {
    /// Resolves `key` from an async factory; keys with async factories need this form, keys with plain
    /// factories work with it too. (It has its own name so that `resolve(_:)` stays synchronous in async code.)
    ///
    /// - Parameter key: The key to resolve.
    /// - Returns: The destination.
    /// - Throws: ``RouteError``, as ``resolve(_:)-(RoutableService<Destination>)``.
    public nonisolated(nonsending) mutating func resolveAsync<Destination>(_ key: RoutableService<Destination>)
        async throws -> Destination
    {
        try await buildAsync(entry(for: key))
    }

    /// Builds `entry` in an async lookup: an async factory with `await`; a plain one exactly as a
    /// synchronous lookup would, as a synchronous segment of this lookup.
    ///
    /// Waiting for a shared instance another lookup is building suspends the lookup, never blocking a
    /// thread: an async singleton's claim waits suspended, and before a synchronous segment starts, the
    /// lookup waits suspended for the instance that segment would otherwise block on. (A segment's
    /// factories are synchronous code: an instance one of them asks for is waited for as a synchronous
    /// lookup waits.)
    nonisolated(nonsending) mutating func buildAsync<Destination>(_ entry: Entry<Destination>) async throws
        -> Destination
    {
        guard let asyncFactory = entry.asyncFactory else {
            if let cell = entry.unpublishedCell {
                await unsafe state.transaction.awaitRelease(of: cell, for: entry)
            }
            return try synchronously { resolver in try resolver.build(entry) }
        }
        if entry.isPlainTransient && injecting == 0 {
            // What `existingInstance` does for it, without its optional result (unspecialized here, a
            // `Destination?` costs two runtime metadata requests per lookup): a transient with nothing to
            // prepare, outside a preparation, has no earlier object to find and needs no graph (its object
            // is recorded only if its factory's own lookups start one); only the depth guard applies.
            try checkDepth(entry)
            return try await constructAsync(entry, asyncFactory)
        }
        if let made = entry.builtSingleton { return made }
        if let existing = try synchronously({ resolver in try resolver.existingInstance(entry, startingGraph: true) }) {
            return existing
        }
        guard let cell = entry.singleton else { return try await constructAsync(entry, asyncFactory) }
        return try await createSharedAsync(entry, cell, asyncFactory)
    }

    /// Builds an async singleton inside this lookup's creation transaction, as `createShared` builds a
    /// synchronous one: claims its cell (waiting suspended while another lookup builds it), builds and
    /// prepares it, then publishes it, or gives the claim up when that fails.
    nonisolated(nonsending) mutating func createSharedAsync<Destination>(
        _ entry: Entry<Destination>, _ cell: SharedCell<Destination>,
        _ factory: nonisolated(nonsending) @Sendable (inout Resolver) async throws -> Destination
    ) async throws -> Destination {
        let transaction = unsafe state.transaction
        while true {
            switch try await transaction.claimAsync(cell, for: entry) {
            case .published:
                if let made = cell.instance { return made }
                continue
            case .inProgress(let provisional, let otherSide):
                if let made = provisional as? Destination { return made }
                throw inProgressError(entry, otherSide: otherSide)
            case .claimed:
                break
            case .heldByAsyncLookup(let holder):
                // Not answered to a claim that waits suspended; handled as a synchronous claim would be.
                throw RouteError.heldByAsyncLookup(entry.key, path: runningPath() + [entry.key.short], holder: holder)
            }
            let mark = pendingCount
            let made: Destination
            do {
                made = try await constructAsync(entry, factory)
                try synchronously { resolver in try resolver.drain(from: mark) }
            } catch {
                transaction.abandon(cell)
                throw error
            }
            unsafe transaction.finish(
                cell, state: ObjectIdentifier(state), publish: { cell.publish(made) },
                discard: { cell.discardProvisional() })
            return made
        }
    }

    /// Runs a synchronous part of an async lookup on the current thread: a lookup the registry starts
    /// from inside it joins this one, and the depth guard measures this thread's stack.
    mutating func synchronously<Result>(_ body: (inout Resolver) throws -> Result) throws -> Result {
        try ThreadContext.current.withRunning(unsafe state) { try body(&self) }
    }

    /// As `construct`, with an async factory.
    nonisolated(nonsending) mutating func constructAsync<Destination>(
        _ entry: Entry<Destination>,
        _ factory: nonisolated(nonsending) @Sendable (inout Resolver) async throws -> Destination
    ) async throws -> Destination {
        // As `construct`: a transient's factory already running on the path is a cycle, found at its first
        // repeat (the graph finds shared and graph-scoped repeats).
        if checksForRepeat, let cycle = repeatedFactory(entry) { throw cycle }
        // A heap frame: a pointer to a stack local cannot live across a suspension.
        let frame = UnsafeMutablePointer<Frame>.allocate(capacity: 1)
        unsafe frame.initialize(to: Frame(entry: entry, parent: top, node: -1))
        let parentNode = unsafe enterFrame(frame)
        defer {
            unsafe leaveFrame(frame, parentNode: parentNode)
            unsafe frame.deinitialize(count: 1)
            unsafe frame.deallocate()
        }
        let made: Destination
        // Nonsending, as the whole async lookup: the factory runs on the lookup's executor between its
        // awaits, so what it looks up synchronously is on the main actor exactly when the lookup is.
        do {
            made = try await factory(&self)
        } catch {
            throw wrap(error, entry, stage: "factory")
        }
        if unsafe state.hasFailedInjection { try throwFailedInjection(of: entry, node: -1) }
        unsafe state.frames.constructions &+= 1
        unsafe state.frames.lastConstructed = ObjectIdentifier(entry)
        unsafe record(made, entry, node: frame.pointee.node)
        return made
    }
}

extension RouteRegistry {
    /// Registers an async factory, for destinations that must await something to exist (opening a
    /// database, reading a file).
    ///
    /// ```swift
    /// try registry.registerAsync(.database) { r async throws in
    ///     try await Database.open(path: try r.resolve(.settings).databasePath)
    /// }
    /// .scope(.singleton)
    /// let database = try await registry.makeDestinationAsync(to: .database)
    /// ```
    ///
    /// Look such a key up with `makeDestinationAsync(to:)` or `resolveAsync(_:)`; a synchronous lookup fails with ``RouteError/Code/asyncOnly``.
    /// The factory is `nonisolated(nonsending)`: between its awaits it runs on its lookup's executor, so a
    /// lookup made from main-actor code may look main-actor keys up in it.
    /// Async factories support the transient, graph and singleton scopes; a singleton is built once even
    /// when many tasks ask at the same time. Preparations stay synchronous.
    /// - Parameters:
    ///   - key: The key the factory serves.
    ///   - file: The registering file, for messages (leave the default).
    ///   - line: The registering line, for messages (leave the default).
    ///   - factory: Makes the destination; may await.
    /// - Returns: The registration, to modify; its scope may be ``Scope/transient`` (default),
    ///   ``Scope/graph`` or ``Scope/singleton``.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed.
    @discardableResult
    public func registerAsync<Destination>(
        _ key: RoutableService<Destination>, file: StaticString = #fileID, line: UInt = #line,
        factory: nonisolated(nonsending) @escaping @Sendable (inout Resolver) async throws -> Destination
    ) throws -> Registration<Destination, Destination> {
        let keyDescription = key.keyDescription
        var spec = RegistrationSpec<Destination> { resolver in
            throw RouteError.asyncOnly(keyDescription, path: resolver.pathHere(keyDescription.short))
        }
        spec.asyncFactory = factory
        return try add(id: key.id, key: keyDescription, file: file, line: line, spec: spec)
    }

    /// Makes the destination of a key from async code; keys with async factories need this form, keys with
    /// plain factories work with it too. (It has its own name so that `makeDestination(to:)` stays
    /// synchronous in async code.)
    ///
    /// The lookup runs on the caller's executor (the method is `nonisolated(nonsending)`): called from
    /// main-actor code it may make main-actor destinations, there; called from elsewhere, such a key fails
    /// with ``RouteError/Code/mainActorRequired``.
    /// - Parameter key: The key.
    /// - Returns: The prepared destination.
    /// - Throws: ``RouteError``, as the synchronous form.
    @inlinable
    public nonisolated(nonsending) func makeDestinationAsync<Destination>(
        to key: RoutableService<Destination>
    ) async throws -> Destination {
        // A built singleton, the commonest case, inline in the caller (specialized): no lookup at all. With
        // an override, an async lookup or a trace handler running, or named registrations, the general path
        // decides.
        if let tableRef = unsafe tableRef(),
            let found = unsafe tableRef.with({ unsafe $0.hasNamedKeys ? nil : $0.primaryRefInline(key.id) }),
            case .built(let made) = unsafe Entry<Destination>.fastCase(found)
        {
            return made
        }
        return try await makeDestinationAsyncSlow(to: key)
    }

    /// ``makeDestinationAsync(to:)`` past its inline fast case: joins the async lookup this task runs, or
    /// starts one.
    @usableFromInline
    nonisolated(nonsending) func makeDestinationAsyncSlow<Destination>(
        to key: RoutableService<Destination>
    ) async throws -> Destination {
        let table: SealedTable
        do {
            table = try self.table()
        } catch {
            throw report(error)
        }
        let joined = AsyncLookupBinding.joinable()
        if let joined, joined.state.table === table {
            // Called inside an async factory of a lookup of this registry: part of that lookup, which
            // finishes it and reports its failure.
            return try await joined.state.withOnMainActor(MainActorCheck.isMainActor(#isolation)) {
                var resolver = Resolver(state: joined.state)
                return try await resolver.buildAsync(try resolver.entry(for: key))
            }
        }
        // An async lookup's state is its own (it moves with the task between threads); `table` is kept
        // alive by this frame until the lookup ends.
        let state = unsafe LookupState(
            tableRef: Borrowed(table), stackRange: ThreadContext.current.stackRange, isAsync: true)
        // Nonsending: the lookup, its async factories included, runs on the caller's executor between its
        // awaits, so called from main-actor code it may make main-actor destinations there.
        unsafe state.context.onMainActor = MainActorCheck.isMainActor(#isolation)
        // Inside an async factory of another registry's lookup: nested in it, sharing its creation
        // transaction (so it never waits for the lookup it is part of), as a synchronous nested lookup.
        if let joined { unsafe state.context.outer = Borrowed(joined.state) }
        var resolver = Resolver(state: state)
        let filed = AsyncLookupBinding.begin(state)
        overrideCounter.running.add(OverrideCounter.asyncLookup, ordering: .relaxed)
        defer {
            overrideCounter.running.subtract(OverrideCounter.asyncLookup, ordering: .relaxed)
            if let filed { AsyncLookupBinding.end(filed) }
            withExtendedLifetime((table, state, joined)) {}
        }
        do {
            let made = try await resolver.buildAsync(try resolver.entry(for: key))
            if state.needsFinishing { try resolver.synchronously { resolver in try resolver.finishLookup() } }
            return made
        } catch {
            resolver.failLookup(error)
            throw report(error)
        }
    }
}
