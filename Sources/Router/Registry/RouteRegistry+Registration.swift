extension RouteRegistry {
    /// Registers a factory for a service key; modifiers on the returned ``Registration`` say the rest.
    ///
    /// ```swift
    /// try registry.register(.car) { r in CarImpl(engine: try r.resolve(.engine)) }
    ///     .scope(.graph)
    ///     .injecting(\.radio, .radio)
    /// ```
    ///
    /// - Parameters:
    ///   - key: The key the factory serves.
    ///   - file: The registering file, for messages (leave the default).
    ///   - line: The registering line, for messages (leave the default).
    ///   - factory: Makes the destination; looks dependencies up through the resolver.
    /// - Returns: The registration, to modify.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed.
    @inlinable @discardableResult
    public func register<Destination>(
        _ key: RoutableService<Destination>, file: StaticString = #fileID, line: UInt = #line,
        factory: @escaping @Sendable (inout Resolver) throws -> Destination
    ) throws -> Registration<Destination, Destination> {
        // Inlinable so that the caller, which knows `Destination`, makes the entry: unspecialized here,
        // each registration would look up the metadata of `Entry<Destination>` at run time.
        let id = key.id
        let tag = key.tag
        let name = key.name
        let index = try add { order, module in
            Entry(
                plainService: id, tag: tag, name: name, order: order,
                site: RegistrationSite(module: module, file: file, line: line), noInjections: [], factory: factory)
        }
        return Registration(registry: self, index: index)
    }

    /// Registers a factory whose injections and preparations see the implementation class, so that
    /// injection points need not be public protocol setters.
    ///
    /// ```swift
    /// try registry.register(.convertible, as: ConvertibleImpl.self) { _ in ConvertibleImpl() }
    ///     .injecting(\.engine, .engine)          // a property of ConvertibleImpl, not of Convertible
    /// ```
    ///
    /// The factory still returns the key's type, so the compiler checks that `ConvertibleImpl` is one; an
    /// injection whose destination is not an `implementation` (a factory that returns another class)
    /// fails with ``RouteError/Code/destinationTypeMismatch``, naming both.
    /// - Parameters:
    ///   - key: The key the factory serves.
    ///   - implementation: The class injections and preparations are typed on.
    ///   - file: The registering file, for messages (leave the default).
    ///   - line: The registering line, for messages (leave the default).
    ///   - factory: Makes the destination.
    /// - Returns: The registration, to modify.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed.
    @inlinable @discardableResult
    public func register<Destination, Implementation: AnyObject>(
        _ key: RoutableService<Destination>, as implementation: Implementation.Type,
        file: StaticString = #fileID, line: UInt = #line,
        factory: @escaping @Sendable (inout Resolver) throws -> Destination
    ) throws -> Registration<Destination, Implementation> {
        let registration = try register(key, file: file, line: line, factory: factory)
        return Registration(registry: self, index: registration.index)
    }

    /// Registers a factory that must run on the main actor: view models and screens.
    ///
    /// ```swift
    /// try registry.registerOnMainActor(.profileScreen) { r in ProfileScreen(session: try r.resolve(.session)) }
    /// ```
    ///
    /// The closure is isolated to the main actor, so it may call main-actor initializers. A lookup made
    /// with ``makeDestination(to:arguments:isolation:preparation:)`` from main-actor code stays synchronous; any other lookup
    /// fails with ``RouteError/Code/mainActorRequired`` before the factory runs, never a data race (from
    /// elsewhere, hop: `await MainActor.run { … }`).
    ///
    /// (A name of its own, not an overload of `register`: two `register` overloads that differ only in
    /// the closure's isolation made the compiler blame the closure's parameter for any mistake in a
    /// factory's body.)
    /// - Parameters:
    ///   - key: The key the factory serves.
    ///   - file: The registering file, for messages (leave the default).
    ///   - line: The registering line, for messages (leave the default).
    ///   - factory: Makes the destination on the main actor.
    /// - Returns: The registration, to modify.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed.
    @discardableResult
    public func registerOnMainActor<Destination>(
        _ key: RoutableService<Destination>, file: StaticString = #fileID, line: UInt = #line,
        factory: @escaping @MainActor @Sendable (inout Resolver) throws -> Destination
    ) throws -> Registration<Destination, Destination> {
        let keyDescription = key.keyDescription
        let isolated = MainActorFactory(factory)
        let registration = try register(key, file: file, line: line) { resolver in
            try resolver.onMainActor(keyDescription, isolated)
        }
        return try registration.change { $0.isMainActor = true }
    }

    /// Registers a main-actor factory whose injections and preparations see the implementation class
    /// (see ``register(_:as:file:line:factory:)``), typically a view model set up with
    /// ``Registration/preparingOnMainActor(declaring:_:)``.
    ///
    /// ```swift
    /// try registry.registerOnMainActor(.inbox, as: InboxViewModel.self) { _ in InboxViewModel() }
    ///     .preparingOnMainActor { model, r in model.counter = try r.resolve(.mailCounter) }
    /// ```
    /// - Parameters:
    ///   - key: The key the factory serves.
    ///   - implementation: The class injections and preparations are typed on.
    ///   - file: The registering file, for messages (leave the default).
    ///   - line: The registering line, for messages (leave the default).
    ///   - factory: Makes the destination on the main actor.
    /// - Returns: The registration, to modify.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed.
    @discardableResult
    public func registerOnMainActor<Destination, Implementation: AnyObject>(
        _ key: RoutableService<Destination>, as implementation: Implementation.Type,
        file: StaticString = #fileID, line: UInt = #line,
        factory: @escaping @MainActor @Sendable (inout Resolver) throws -> Destination
    ) throws -> Registration<Destination, Implementation> {
        let registration = try registerOnMainActor(key, file: file, line: line, factory: factory)
        return Registration(registry: self, index: registration.index)
    }

    /// Registers a module: a configuration class whose `construct…` calls the caller makes first, and a
    /// factory that makes the destination from it.
    ///
    /// ```swift
    /// try registry.register(.cart, configuration: CartConfiguration.init) { config, r in
    ///     CartImpl(owner: try config.require(config.owner, setBy: "constructCart(owner:)"))
    /// }
    /// ```
    ///
    /// Sealing checks that the configuration class adopts the key's configuration protocol. A shared
    /// instance is configured by the lookup that builds it.
    /// - Parameters:
    ///   - key: The module key.
    ///   - configuration: Makes a fresh configuration for each lookup.
    ///   - file: The registering file, for messages (leave the default).
    ///   - line: The registering line, for messages (leave the default).
    ///   - factory: Makes the destination from the configuration.
    /// - Returns: The registration, to modify.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed.
    @discardableResult
    public func register<Configuration, Destination, Config: ModuleConfiguration<Destination>>(
        _ key: RoutableServiceModule<Configuration, Destination>,
        configuration: @escaping @Sendable () -> Config,
        file: StaticString = #fileID, line: UInt = #line,
        factory: @escaping @Sendable (Config, inout Resolver) throws -> Destination
    ) throws -> Registration<Destination, Destination> {
        let keyDescription = key.keyDescription
        var spec = RegistrationSpec<Destination> { resolver in
            let given = resolver.state.frames.takeInput()
            guard let config = (given ?? configuration()) as? Config else {
                throw RouteError.configurationNotOfType(keyDescription, Config.self)
            }
            return try factory(config, &resolver)
        }
        spec.makeConfiguration = configuration
        spec.configurationType = Configuration.self
        spec.configurationConforms = { configuration() is Configuration }
        return try add(id: key.id, key: keyDescription, file: file, line: line, spec: spec)
    }

    /// Registers a module whose destination must be made on the main actor: a screen with required
    /// parameters, set through its configuration's `construct…` calls.
    ///
    /// ```swift
    /// try registry.registerOnMainActor(.editorScreen, configuration: EditorConfiguration.init) { config, r in
    ///     EditorScreen(document: try config.require(config.document, setBy: "constructEditor(document:)"))
    /// }
    /// let editor = try registry.makeDestination(to: .editorScreen) { $0.constructEditor(document: "notes") }
    /// ```
    ///
    /// The configuration follows the rules of ``register(_:configuration:file:line:factory:)``: it is made
    /// and configured by the caller's thread before the factory runs, so its class stays nonisolated (in a
    /// target whose default isolation is the main actor, declare it `nonisolated`). The factory follows
    /// those of ``registerOnMainActor(_:file:line:factory:)``: a lookup made from main-actor code stays
    /// synchronous, and any other fails with ``RouteError/Code/mainActorRequired`` before the factory runs
    /// (the configuration's error and completion handlers then get that error).
    /// - Parameters:
    ///   - key: The module key.
    ///   - configuration: Makes a fresh configuration for each lookup.
    ///   - file: The registering file, for messages (leave the default).
    ///   - line: The registering line, for messages (leave the default).
    ///   - factory: Makes the destination on the main actor from the configuration.
    /// - Returns: The registration, to modify.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed.
    @discardableResult
    public func registerOnMainActor<Configuration, Destination, Config: ModuleConfiguration<Destination>>(
        _ key: RoutableServiceModule<Configuration, Destination>,
        configuration: @escaping @Sendable () -> Config,
        file: StaticString = #fileID, line: UInt = #line,
        factory: @escaping @MainActor @Sendable (Config, inout Resolver) throws -> Destination
    ) throws -> Registration<Destination, Destination> {
        let keyDescription = key.keyDescription
        let isolated = MainActorFunction(factory)
        let registration = try register(key, configuration: configuration, file: file, line: line) {
            config, resolver in
            // The configuration is passed to the main-actor factory, not captured: it is not Sendable.
            try resolver.onMainActor(keyDescription, passing: config, isolated)
        }
        return try registration.change { $0.isMainActor = true }
    }

    /// Files a registration made from `spec`.
    @usableFromInline
    func add<Destination>(
        id: KeyID, key: KeyDescription, file: StaticString, line: UInt, spec: RegistrationSpec<Destination>
    ) throws -> Registration<Destination, Destination> {
        let index = try add { order, module in
            Entry(
                id: id, key: key, order: order, site: RegistrationSite(module: module, file: file, line: line),
                spec: spec)
        }
        return Registration(registry: self, index: index)
    }
}
