import Synchronization

extension RouteRegistry {
    /// Makes the destination of a service key: the one lookup of a service key from synchronous code,
    /// with the runtime arguments its registration takes (none for most) and the caller's preparation,
    /// when one is given.
    ///
    /// ```swift
    /// let engine = try registry.makeDestination(to: .engine)
    /// let detail = try registry.makeDestination(to: .bookDetail, arguments: 3)
    /// let car = try registry.makeDestination(to: .car) { car in car.color = "red" }
    /// ```
    ///
    /// Called from main-actor code, the lookup may run main-actor factories
    /// (``registerOnMainActor(_:file:line:factory:)``), synchronously. The arguments pick the key's
    /// registration that takes their types (see ``register(_:arguments:file:line:factory:)``); a lookup
    /// whose arguments differ from every registration's, in number or type, fails with
    /// ``RouteError/Code/argumentMismatch``. The order of preparation is the caller's `preparation`, then
    /// the registration's injections and `prepare` hook (which can see what the caller set and skip it),
    /// then its `didFinishPrepare` hook; with arguments too (pinned by
    /// `aLookupWithArgumentsRunsTheCallersPreparationAfterTheFactoryAndBeforeTheRegistrations`).
    /// - Parameters:
    ///   - key: The key, e.g. `.engine`.
    ///   - arguments: The factory's runtime arguments, in order; none for a registration that takes none.
    ///   - isolation: The caller's isolation; leave the default.
    ///   - preparation: The caller's property and method injection, if any.
    /// - Returns: The destination, typed as the key's protocol, fully prepared.
    /// - Throws: ``RouteError``: the registry is not sealed, the key is unregistered or ambiguous, the
    ///   arguments fit no registration, a factory or preparation failed (an error thrown by `preparation`
    ///   is wrapped as ``RouteError/Code/factoryFailed``), or an initializer-only cycle was found.
    @inlinable @inline(__always)
    public func makeDestination<Destination, each Argument>(
        to key: RoutableService<Destination>, arguments: repeat each Argument,
        isolation: isolated (any Actor)? = #isolation, preparation: ((Destination) throws -> Void)? = nil
    ) throws -> Destination {
        // Made from the type parameters: a constant where the caller is specialised, so that a plain lookup
        // is the plain door's inline fast case and nothing else.
        let given = ArgumentList(repeat (each Argument).self)
        if given.count == 0, preparation == nil {
            return try Resolver.resolveTopLevel(key, in: tableRef(), reporting: self, isolation: isolation)
        }
        return try Resolver.resolveTopLevel(
            key, given: given, arguments: repeat each arguments, preparation: preparation, in: tableRef(),
            reporting: self, isolation: isolation)
    }

    /// Makes the destination of a module key, configured first.
    ///
    /// ```swift
    /// let cart = try registry.makeDestination(to: .cart) { config in
    ///     config.constructCart(owner: "ann")
    ///     config.successHandler = { cart in print("made", cart) }
    /// }
    /// ```
    /// - Parameters:
    ///   - key: The module key.
    ///   - isolation: The caller's isolation; leave the default. Called from main-actor code, the lookup
    ///     may run main-actor factories, synchronously.
    ///   - configuring: Sets the module up: `construct…` calls, handlers.
    /// - Returns: The prepared destination.
    /// - Throws: ``RouteError``; ``RouteError/Code/invalidConfiguration`` when a required `construct…`
    ///   call was not made, in which case no destination is made.
    public func makeDestination<Configuration, Destination>(
        to key: RoutableServiceModule<Configuration, Destination>, isolation: isolated (any Actor)? = #isolation,
        configuring: (Configuration) throws -> Void
    ) throws -> Destination {
        try makeConfigured(key, configuring: configuring, onMainActor: MainActorCheck.isMainActor(isolation))
    }

    /// Makes the destination of a service key, or returns nil when no router is registered for it.
    ///
    /// Only a missing registration gives nil; every other failure still throws. After
    /// ``shutdown()`` it throws ``RouteError/Code/shutDown`` (reported to the error handler), not nil.
    /// - Parameters:
    ///   - key: The key.
    ///   - isolation: The caller's isolation; leave the default. Called from main-actor code, the lookup
    ///     may run main-actor factories, synchronously.
    /// - Returns: The destination, or nil.
    /// - Throws: ``RouteError`` for every failure other than a missing registration.
    public func makeDestinationIfRegistered<Destination>(
        to key: RoutableService<Destination>, isolation: isolated (any Actor)? = #isolation
    ) throws -> Destination? {
        guard try table().hasRegistration(key.id, name: key.name) else {
            // A miss, looked at again through the door: nil, or the shut-down registry's error, reported.
            return try lookup(onMainActor: MainActorCheck.isMainActor(isolation)) { resolver in
                try resolver.resolveIfRegistered(key)
            }
        }
        return try makeDestination(to: key, isolation: isolation)
    }

    /// Makes one destination per registration of `key`, in registration order (a parent's first), all
    /// in one lookup, so graph-scoped dependencies are shared among them.
    /// - Parameters:
    ///   - key: The key.
    ///   - isolation: The caller's isolation; leave the default. Called from main-actor code, the lookup
    ///     may run main-actor factories, synchronously.
    /// - Returns: The destinations; empty when none is registered.
    /// - Throws: ``RouteError`` when a factory fails; ``RouteError/Code/shutDown`` after ``shutdown()``,
    ///   rather than an empty list.
    public func makeDestinations<Destination>(
        to key: RoutableService<Destination>, isolation: isolated (any Actor)? = #isolation
    ) throws -> [Destination] {
        try lookup(onMainActor: MainActorCheck.isMainActor(isolation)) { resolver in try resolver.resolveAll(key) }
    }

    /// Makes the destination registered under a string identifier, checked against the type you ask for.
    ///
    /// The check is made before anything is built, against the type the registration's key declares: ask
    /// for that type, a superclass of it, or `Any`. Asking for another protocol or a subclass is a
    /// ``RouteError/Code/destinationTypeMismatch`` even if the object made would happen to be one; look
    /// it up as the registered type and cast it yourself.
    ///
    /// The registry's interceptors run around it, as around a route performed without a presenter, so a
    /// guard on the registration's key holds here too (pinned by
    /// `aGuardOnAKeyRefusesEveryWayToItsScreenWhileSignedOut`); they are told the identifier
    /// (``RouteContext/Target/identifier(_:)``) and the key (``RouteContext/destinationKey``). It is a lookup,
    /// not a ``Route``: the registration's ``RouteHooks`` do not fire. An unknown identifier fails before
    /// any interceptor runs.
    ///
    /// ```swift
    /// let screen = try registry.makeDestination(identifier: "settings/profile", as: (any Screen).self)
    /// let any = try registry.makeDestination(identifier: "settings/profile")   // Any
    /// ```
    /// - Parameters:
    ///   - identifier: The identifier given at registration.
    ///   - type: The type the destination must have.
    ///   - isolation: The caller's isolation; leave the default. Called from main-actor code, the lookup
    ///     may run main-actor factories, synchronously.
    /// - Returns: The destination.
    /// - Throws: ``RouteError``: ``RouteError/Code/unknownIdentifier``, ``RouteError/Code/routeCancelled``
    ///   when an interceptor throws (nothing is made), or ``RouteError/Code/destinationTypeMismatch`` naming
    ///   both types.
    public func makeDestination<Destination>(
        identifier: String, as type: Destination.Type = Destination.self,
        isolation: isolated (any Actor)? = #isolation
    ) throws -> Destination {
        let onMainActor = MainActorCheck.isMainActor(isolation)
        let interceptors = interceptors
        // Found once before the lookup, for the interceptors; an identifier nobody registered (or a registry
        // that cannot look up) is left to the lookup, which reports it as before.
        guard !interceptors.isEmpty, let entry = try? table().entry(identifier: identifier) else {
            return try makeDestination(identifier: identifier, as: type, onMainActor: onMainActor)
        }
        return try intercepting(
            interceptors, .identifier(identifier), leadingTo: RouteKey(id: entry.id, key: entry.key),
            reportingCancel: true
        ) {
            try makeDestination(identifier: identifier, as: type, onMainActor: onMainActor)
        }
    }

    /// Makes the destination registered under a string identifier, whatever its type: the form for a lookup
    /// where nothing names the type. It behaves as ``makeDestination(identifier:as:isolation:)`` asked for
    /// `Any` (pinned by `aLookupByIdentifierWithoutATypeMakesTheDestinationAsAny`).
    /// - Parameters:
    ///   - identifier: The identifier given at registration.
    ///   - isolation: The caller's isolation; leave the default.
    /// - Returns: The destination, as `Any`; cast it to the type you need, or name the type with
    ///   ``makeDestination(identifier:as:isolation:)``.
    /// - Throws: As ``makeDestination(identifier:as:isolation:)``.
    public func makeDestination(identifier: String, isolation: isolated (any Actor)? = #isolation) throws -> Any {
        try makeDestination(identifier: identifier, as: Any.self, isolation: isolation)
    }

    /// The lookup of ``makeDestination(identifier:as:isolation:)``, once its interceptors let it through.
    private func makeDestination<Destination>(
        identifier: String, as type: Destination.Type, onMainActor: Bool
    ) throws -> Destination {
        try lookup(onMainActor: onMainActor) { resolver in
            let table = resolver.table
            guard let entry = table.entry(identifier: identifier) else {
                throw table.unknownIdentifierError(identifier)
            }
            // The registered type is checked before anything is built: a lookup that asks for the wrong type
            // must not run the factory, nor publish a singleton it would then refuse to return.
            let registered = entry.destinationMetatype
            guard registered is Destination.Type || Destination.self == Any.self else {
                throw RouteError.identifierMakesOtherType(
                    identifier, makes: registered, asked: Destination.self, entry: entry)
            }
            let made = try entry.buildErased(&resolver)
            guard let typed = made as? Destination else {
                throw RouteError.identifierMakesOtherType(
                    identifier, makes: Swift.type(of: made), asked: Destination.self, entry: entry)
            }
            return typed
        }
    }

    // MARK: The door

    /// Runs `body` as a lookup of this registry through the one door (``Resolver/lookup(in:reporting:_:)``):
    /// joined to a lookup already running on this thread, or a new one that reports its failure to the
    /// error handler (unless `reporting` is false: routes and paths report through their own path).
    /// `onMainActor`: the caller is isolated to the main actor (see ``LookupContext/onMainActor``).
    @inlinable
    func lookup<Result>(
        reporting: Bool = true, onMainActor: Bool = false, _ body: (inout Resolver) throws -> Result
    ) throws -> Result {
        let reporter = reporting ? self : nil
        if let tableRef = tableRef() {
            return try Resolver.lookup(in: tableRef, reporting: reporter, onMainActor: onMainActor, body)
        }
        let table: SealedTable
        do {
            table = try tableSlow()
        } catch {
            throw reporting ? report(error) : error
        }
        return try withExtendedLifetime(table) {
            try Resolver.lookup(in: Borrowed(table), reporting: reporter, onMainActor: onMainActor, body)
        }
    }

    /// Makes a module's destination: configured by `configuring`, built through the door; the
    /// configuration's success or failure handler runs once the whole lookup has ended.
    func makeConfigured<Configuration, Destination>(
        _ key: RoutableServiceModule<Configuration, Destination>,
        configuring: (Configuration) throws -> Void, preparation: (Destination) throws -> Void = { _ in },
        reporting: Bool = true, onMainActor: Bool = false
    ) throws -> Destination {
        var configuration: ModuleConfiguration<Destination>?
        do {
            let made = try lookup(reporting: reporting, onMainActor: onMainActor) { resolver in
                let entry = try resolver.moduleEntry(for: key)
                let made = try resolver.configure(entry, as: Configuration.self, configuring)
                configuration = made
                let built = try resolver.build(entry, input: made, preparation: preparation)
                resolver.reportUnreadConstructCalls(made, of: entry)
                return built
            }
            configuration?.finish(.success(made))
            return made
        } catch let error as RouteError {
            configuration?.finish(.failure(error))
            throw error
        }
    }
}

extension RouteRegistry {
    // MARK: The table a lookup reads

    /// The table lookups use: the sealed one, or this task's override layered over it.
    @inlinable @inline(__always)
    func table() throws -> SealedTable {
        if let table = tableRef() { return table.object }
        return try tableSlow()
    }

    /// The sealed table, unretained, when no override is running; nil otherwise (see ``tableSlow()``).
    /// Always inlined: three loads that every lookup starts with. Left to the optimizer, a caller that
    /// inlines other lookups too (the argument fast path) can exceed its budget and call it instead, which
    /// cost the gate's built singleton (s3) 3 of its instructions.
    @inlinable @inline(__always)
    func tableRef() -> Borrowed<SealedTable>? {
        guard phase.load(ordering: .acquiring) == 2, overrideCounter.running.load(ordering: .relaxed) == 0 else {
            return nil
        }
        return sealedRef.load(ordering: .relaxed)
    }

    @usableFromInline
    func tableSlow() throws -> SealedTable {
        if phase.load(ordering: .acquiring) == Phase.sealed.rawValue, let table = sealedTable {
            let overrides = OverrideContext.tables
            // The tables are filed by address, and a task that outlives `withOverrides` keeps them after
            // their registry is freed: a table counts only for the registry it was made for (its
            // reporter, held weakly, so nil once that registry is freed), never one made at its address.
            if let own = overrides[ObjectIdentifier(self)], own.reporter.registry === self { return own.inForce }
            // A parent's overrides reach this registry's lookups: a view of this registry over them.
            var ancestor = parent
            while !overrides.isEmpty, let current = ancestor {
                if let filed = overrides[ObjectIdentifier(current)], filed.reporter.registry === current {
                    let layer = filed.inForce
                    if let inForce = layer.layer { return inForce.view(of: self, table: table, over: layer) }
                }
                ancestor = current.parent
            }
            // Overrides of every registry (a test trait's) are beneath this registry's own.
            if let everywhere = OverrideContext.everywhere { return try everywhere.table(for: self, over: table) }
            return table
        }
        // Shut down (`shutdown()`): a table with no registration, whose misses say so. Checked after the
        // sealed phase, so that the other slow lookups (overrides, async lookups) take no lock for it.
        if let closed = closedTable { return closed }
        throw RouteError.notSealedForLookups()
    }
}
