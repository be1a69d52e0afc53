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
    nonisolated(nonsending) mutating func buildAsync<Destination>(_ entry: Entry<Destination>) async throws
        -> Destination
    {
        guard let asyncFactory = entry.asyncFactory else {
            return try synchronously { resolver in try resolver.build(entry) }
        }
        if let made = entry.builtSingleton { return made }
        if let existing = try synchronously({ resolver in try resolver.existingInstance(entry, startingGraph: true) }) {
            return existing
        }
        guard let cell = entry.asyncCell else { return try await constructAsync(entry, asyncFactory) }
        let here = pathTo(entry.key.short)
        let made = unsafe try await cell.getOrCreate(by: state.transaction, entry: entry, path: here) {
            let mark = pendingCount
            let made = try await constructAsync(entry, asyncFactory)
            try synchronously { resolver in try resolver.drain(from: mark) }
            return made
        }
        // Also into the registration's singleton cell: later lookups, synchronous ones and override layers
        // see it as built.
        if let singleton = entry.singleton, !singleton.isPublished {
            CreationCoordinator.run { _ in if !singleton.isPublished { singleton.publish(made) } }
        }
        return made
    }

    /// Runs a synchronous part of an async lookup on the current thread: a lookup the registry starts
    /// from inside it joins this one, and the depth guard measures this thread's stack.
    mutating func synchronously<Result>(_ body: (inout Resolver) throws -> Result) throws -> Result {
        let context = ThreadContext.current
        let outer = unsafe context.running
        unsafe state.stackRange = context.stackRange
        unsafe context.running = unsafe Borrowed(state)
        defer { unsafe context.running = outer }
        return try body(&self)
    }

    /// As `construct`, with an async factory.
    nonisolated(nonsending) mutating func constructAsync<Destination>(
        _ entry: Entry<Destination>,
        _ factory: nonisolated(nonsending) @Sendable (inout Resolver) async throws -> Destination
    ) async throws -> Destination {
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
        unsafe state.constructions &+= 1
        unsafe state.lastConstructed = ObjectIdentifier(entry)
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
    public nonisolated(nonsending) func makeDestinationAsync<Destination>(
        to key: RoutableService<Destination>
    ) async throws -> Destination {
        let table: SealedTable
        do {
            table = try self.table()
        } catch {
            throw report(error)
        }
        // An async lookup's state is its own (it moves with the task between threads); `table` is kept
        // alive by this frame until the lookup ends.
        let state = unsafe LookupState(
            tableRef: Borrowed(table), stackRange: ThreadContext.current.stackRange, isAsync: true)
        // Nonsending: the lookup, its async factories included, runs on the caller's executor between its
        // awaits, so called from main-actor code it may make main-actor destinations there.
        unsafe state.onMainActor = MainActorCheck.isMainActor(#isolation)
        var resolver = Resolver(state: state)
        defer { withExtendedLifetime((table, state)) {} }
        do {
            let made = try await resolver.buildAsync(try resolver.entry(for: key))
            try resolver.synchronously { resolver in try resolver.finishLookup() }
            return made
        } catch {
            resolver.failLookup(error)
            throw report(error)
        }
    }
}
