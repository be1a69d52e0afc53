extension Resolver {
    /// Resolves `key` from an async factory; keys with async factories need this form, keys with plain
    /// factories work with it too. (It has its own name so that `resolve(_:)` stays synchronous in async code.)
    ///
    /// - Parameter key: The key to resolve.
    /// - Returns: The destination.
    /// - Throws: ``RouteError``, as ``resolve(_:)-(RoutableService<Destination>)``.
    public mutating func resolveAsync<Destination>(_ key: RoutableService<Destination>) async throws -> Destination {
        try await buildAsync(entry(for: key))
    }

    /// Builds `entry` in an async lookup: an async factory with `await`; a plain one exactly as a
    /// synchronous lookup would, as a synchronous segment of this lookup.
    mutating func buildAsync<Destination>(_ entry: Entry<Destination>) async throws -> Destination {
        guard let asyncFactory = entry.asyncFactory else {
            return try synchronously { resolver in try resolver.build(entry) }
        }
        if let made = entry.builtSingleton { return made }
        if let existing = try synchronously({ resolver in try resolver.existingInstance(entry, startingGraph: true) }) {
            return existing
        }
        guard let cell = entry.asyncCell else { return try await constructAsync(entry, asyncFactory) }
        let here = pathTo(entry.key.short)
        let made = try await cell.getOrCreate(by: state.transaction, entry: entry, path: here) {
            let mark = pendingCount
            let made = try await constructAsync(entry, asyncFactory)
            try synchronously { resolver in try resolver.drain(from: mark) }
            return made
        }
        // Also into the registration's singleton cell: later lookups, synchronous ones and override layers
        // see it as built.
        if let singleton = entry.singleton, !singleton.isPublished {
            CreationCoordinator.withLock { if !singleton.isPublished { singleton.publish(made) } }
        }
        return made
    }

    /// Runs a synchronous part of an async lookup on the current thread: a lookup the registry starts
    /// from inside it joins this one, and the depth guard measures this thread's stack.
    mutating func synchronously<Result>(_ body: (inout Resolver) throws -> Result) throws -> Result {
        let context = ThreadContext.current
        let outer = context.running
        state.stackLimit = context.stackLimit
        context.running = Unmanaged.passUnretained(state)
        defer { context.running = outer }
        return try body(&self)
    }

    /// As `construct`, with an async factory.
    mutating func constructAsync<Destination>(
        _ entry: Entry<Destination>, _ factory: @Sendable (inout Resolver) async throws -> Destination
    ) async throws -> Destination {
        // A heap frame: a pointer to a stack local cannot live across a suspension.
        let frame = UnsafeMutablePointer<Frame>.allocate(capacity: 1)
        frame.initialize(to: Frame(entry: entry, parent: top, node: -1))
        let parentNode = enterFrame(frame)
        defer {
            leaveFrame(frame, parentNode: parentNode)
            frame.deinitialize(count: 1)
            frame.deallocate()
        }
        let made: Destination
        do {
            made = try await factory(&self)
        } catch {
            throw wrap(error, entry, stage: "factory")
        }
        state.constructions &+= 1
        state.lastConstructed = ObjectIdentifier(entry)
        record(made, entry, node: frame.pointee.node)
        return made
    }
}

extension RouteRegistry {
    /// Registers an async factory, for destinations that must await something to exist (opening a
    /// database, reading a file).
    ///
    /// ```swift
    /// try registry.registerAsync(.database, scope: .singleton) { r async throws in
    ///     try await Database.open(path: try r.resolve(.settings).databasePath)
    /// }
    /// let database = try await registry.makeDestinationAsync(to: .database)
    /// ```
    ///
    /// Look such a key up with `makeDestinationAsync(to:)` or `resolveAsync(_:)`; a synchronous lookup fails with ``RouteError/Code/asyncOnly``.
    /// Async factories support the transient, graph and singleton scopes; a singleton is built once even
    /// when many tasks ask at the same time. Preparations stay synchronous.
    /// - Parameters:
    ///   - key: The key the factory serves.
    ///   - scope: ``Scope/transient`` (default), ``Scope/graph`` or ``Scope/singleton``.
    ///   - identifier: A string under which the destination can also be looked up.
    ///   - isDefault: Whether a single lookup picks this registration when the key has several.
    ///   - dependencies: Keys the factory resolves, declared for validation and graph export.
    ///   - injections: Property and method injections, run after creation in this order.
    ///   - prepare: The router's preparation hook, run after `injections`.
    ///   - didFinishPrepare: Runs once every preparation of the destination has run.
    ///   - factory: Makes the destination; may await.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed.
    public func registerAsync<Destination>(
        _ key: RoutableService<Destination>,
        scope: Scope = .transient,
        identifier: String? = nil,
        isDefault: Bool = false,
        dependencies: [RouteDependency] = [],
        injections: [Injection<Destination>] = [],
        prepare: (@Sendable (Destination, inout Resolver) throws -> Void)? = nil,
        didFinishPrepare: (@Sendable (Destination, inout Resolver) throws -> Void)? = nil,
        factory: @escaping @Sendable (inout Resolver) async throws -> Destination
    ) throws {
        let steps = injections + (prepare.map { [Injection.run($0)] } ?? [])
        let keyDescription = key.keyDescription
        try add { order, owner in
            Entry(
                id: key.id, key: key.keyDescription, scope: scope, order: order, dependencies: dependencies,
                identifier: identifier, isDefault: isDefault, owner: owner, injections: steps,
                didFinish: didFinishPrepare, asyncFactory: factory
            ) { resolver in
                throw RouteError(
                    .asyncOnly, key: keyDescription.full, path: resolver.pathHere(keyDescription.short),
                    reason: "\(keyDescription.full) has only an async factory, so it cannot be made synchronously.",
                    hint:
                        "Look it up with try await makeDestinationAsync(to:), or resolveAsync(_:) in an async factory.")
            }
        }
    }

    /// Makes the destination of a key from async code; keys with async factories need this form, keys with
    /// plain factories work with it too. (It has its own name so that `makeDestination(to:)` stays
    /// synchronous in async code.)
    ///
    /// - Parameter key: The key.
    /// - Returns: The prepared destination.
    /// - Throws: ``RouteError``, as the synchronous form.
    public func makeDestinationAsync<Destination>(
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
        let state = LookupState(
            tableRef: Unmanaged.passUnretained(table), stackLimit: ThreadContext.current.stackLimit, isAsync: true)
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
