extension RouteRegistry {
    /// Registers a factory for a service key.
    ///
    /// ```swift
    /// try registry.register(.car, scope: .graph, injections: [.property(\.radio, .radio)]) { r in
    ///     CarImpl(engine: try r.resolve(.engine))
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - key: The key the factory serves.
    ///   - scope: How long instances live (default ``Scope/transient``).
    ///   - identifier: A string under which the destination can also be looked up, e.g. `"settings/profile"`.
    ///   - isDefault: Whether a single lookup picks this registration when the key has several.
    ///   - dependencies: Keys the factory resolves, declared for validation and graph export.
    ///   - injections: Property and method injections, run after creation in this order.
    ///   - prepare: The router's preparation hook, run after `injections`; it sees what the caller's
    ///     preparation already set.
    ///   - didFinishPrepare: Runs once every preparation of the destination has run.
    ///   - hooks: Per-destination hooks fired for every ``Route`` to these destinations, whoever performs it.
    ///   - exclusive: Whether this must be the only registration serving the key's protocol (any tag or
    ///     name); sealing reports any other as an ``RouteError/Code/exclusiveRegistration`` problem.
    ///   - factory: Makes the destination; looks dependencies up through the resolver.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed.
    @inlinable
    public func register<Destination>(
        _ key: RoutableService<Destination>,
        scope: Scope = .transient,
        identifier: String? = nil,
        isDefault: Bool = false,
        dependencies: [RouteDependency] = [],
        injections: [Injection<Destination>] = [],
        prepare: (@Sendable (Destination, inout Resolver) throws -> Void)? = nil,
        didFinishPrepare: (@Sendable (Destination, inout Resolver) throws -> Void)? = nil,
        hooks: RouteHooks<Destination> = RouteHooks(),
        exclusive: Bool = false,
        factory: @escaping @Sendable (inout Resolver) throws -> Destination
    ) throws {
        // Inlinable so that the caller, which knows `Destination`, makes the entry: unspecialized here,
        // each registration would look up the metadata of `Entry<Destination>` at run time. The caller
        // also sees which options are left out (mostly all), and then passes none of them.
        let isPlain =
            identifier == nil && dependencies.isEmpty && injections.isEmpty && prepare == nil
            && didFinishPrepare == nil && hooks.willPerform == nil && hooks.didPerform == nil
            && hooks.willRemove == nil && hooks.didRemove == nil && !exclusive
        if isPlain {
            // A closure of its own, so that it captures and passes only what it uses.
            let id = key.id
            let tag = key.tag
            let name = key.name
            try add { order, owner in
                Entry(
                    plainService: id, tag: tag, name: name, scope: scope, order: order, isDefault: isDefault,
                    owner: owner,
                    noInjections: injections, factory: factory)
            }
        } else {
            try add { order, owner in
                Entry(
                    service: key.id, tag: key.tag, name: key.name, scope: scope, order: order,
                    dependencies: dependencies,
                    identifier: identifier, isDefault: isDefault, owner: owner, injections: injections,
                    hasInjections: !injections.isEmpty, prepare: prepare, didFinish: didFinishPrepare, hooks: hooks,
                    isExclusive: exclusive, factory: factory)
            }
        }
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
    /// Sealing checks that the configuration class adopts the key's configuration protocol.
    /// - Parameters:
    ///   - key: The module key.
    ///   - configuration: Makes a fresh configuration for each lookup.
    ///   - scope: How long instances live (default ``Scope/transient``). A shared instance is configured
    ///     by the lookup that builds it.
    ///   - identifier: A string under which the module can also be looked up (with its default configuration).
    ///   - isDefault: Whether a single lookup picks this registration when the key has several.
    ///   - dependencies: Keys the factory resolves, declared for validation and graph export.
    ///   - injections: Property and method injections, run after creation in this order.
    ///   - prepare: The router's preparation hook, run after `injections`.
    ///   - didFinishPrepare: Runs once every preparation of the destination has run.
    ///   - hooks: Per-destination hooks fired for every ``Route`` to these destinations, whoever performs it.
    ///   - factory: Makes the destination from the configuration.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed.
    public func register<Configuration, Destination, Config: ModuleConfiguration<Destination>>(
        _ key: RoutableServiceModule<Configuration, Destination>,
        configuration: @escaping @Sendable () -> Config,
        scope: Scope = .transient,
        identifier: String? = nil,
        isDefault: Bool = false,
        dependencies: [RouteDependency] = [],
        injections: [Injection<Destination>] = [],
        prepare: (@Sendable (Destination, inout Resolver) throws -> Void)? = nil,
        didFinishPrepare: (@Sendable (Destination, inout Resolver) throws -> Void)? = nil,
        hooks: RouteHooks<Destination> = RouteHooks(),
        factory: @escaping @Sendable (Config, inout Resolver) throws -> Destination
    ) throws {
        var steps = injections
        if let prepare { steps.append(Injection.run(prepare)) }
        let keyDescription = key.keyDescription
        try add { order, owner in
            Entry(
                id: key.id, key: keyDescription, scope: scope, order: order, dependencies: dependencies,
                identifier: identifier, isDefault: isDefault, owner: owner, injections: steps,
                didFinish: didFinishPrepare, makeConfiguration: configuration,
                configurationType: Configuration.self,
                configurationConforms: { configuration() is Configuration }, hooks: hooks
            ) { resolver in
                let given = resolver.input
                resolver.input = nil
                guard let config = (given ?? configuration()) as? Config else {
                    throw RouteError(
                        .destinationTypeMismatch, key: keyDescription.full,
                        reason:
                            "The configuration given to \(keyDescription.full) is not a \(TypeName.of(Config.self)).")
                }
                return try factory(config, &resolver)
            }
        }
    }
}
