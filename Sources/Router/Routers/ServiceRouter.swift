/// A router you subclass, ZIKRouter style: one destination type, one configuration type, and lifecycle
/// hooks the registry calls in order.
///
/// ```swift
/// final class EditorRouter: ServiceRouter<any Editor, EditorConfiguration> {
///     override class var scope: Scope { .transient }
///
///     override func makeDestination(configuration: EditorConfiguration, resolver: inout Resolver) throws -> any Editor {
///         EditorImpl(title: try configuration.require(configuration.title, setBy: "constructEditor(title:)"))
///     }
///
///     override func prepareDestination(_ destination: any Editor, configuration: EditorConfiguration, resolver: inout Resolver) throws {
///         if destination.spellChecker == nil { destination.spellChecker = try resolver.resolve(.spellChecker) }
///     }
/// }
///
/// try registry.register(router: EditorRouter.self, for: .editor)
/// ```
///
/// For every destination the registry makes a new router instance, then calls, in order:
/// ``makeDestination(configuration:resolver:)``; the caller's preparation, if any;
/// ``prepareDestination(_:configuration:resolver:)``; ``didFinishPrepareDestination(_:configuration:resolver:)``.
/// Preparations run once every factory of the lookup has returned, so a prepare hook can look up an
/// object that is still being built further up and get that same instance.
///
/// The class is `nonisolated`, and so are its subclasses, even in a target whose default isolation is the
/// main actor: the registry calls a router on whichever thread makes the lookup. A main-actor screen is
/// registered with ``RouteRegistry/registerOnMainActor(_:file:line:factory:)`` instead.
nonisolated open class ServiceRouter<Destination, Configuration: ModuleConfiguration<Destination>> {
    // Not Sendable: the registry makes a router for one destination and uses it within one lookup.

    /// Makes a router; the registry makes one per destination.
    public required init() {}

    /// The scope of the destinations this router makes (default ``Scope/transient``).
    open class var scope: Scope { .transient }

    /// The configuration used when the caller gives none (service keys, identifier lookups).
    /// - Returns: A fresh configuration.
    open class func defaultConfiguration() -> Configuration { Configuration() }

    /// Runs before every route to this router's destinations is presented, whoever performs it.
    /// - Parameter destination: The prepared destination.
    open class func willPerformRoute(to destination: Destination) {}

    /// Runs once every route to this router's destinations is performed.
    /// - Parameter destination: The destination.
    open class func didPerformRoute(to destination: Destination) {}

    /// Runs before every route to this router's destinations is removed.
    /// - Parameter destination: The destination.
    open class func willRemoveRoute(from destination: Destination) {}

    /// Runs once every route to this router's destinations is removed.
    /// - Parameter destination: The destination.
    open class func didRemoveRoute(from destination: Destination) {}

    /// The class's route hooks, as a registration carries them.
    static var routeHooks: RouteHooks<Destination> {
        RouteHooks(
            willPerform: { willPerformRoute(to: $0) }, didPerform: { didPerformRoute(to: $0) },
            willRemove: { willRemoveRoute(from: $0) }, didRemove: { didRemoveRoute(from: $0) })
    }

    /// Makes the destination. Override it: the default throws.
    /// - Parameters:
    ///   - configuration: The configuration the caller set up, or ``defaultConfiguration()``.
    ///   - resolver: Looks up dependencies.
    /// - Returns: The new destination.
    /// - Throws: Any error; the registry wraps it in ``RouteError`` with the key and path.
    open func makeDestination(configuration: Configuration, resolver: inout Resolver) throws -> Destination {
        // The registry turns this into a RouteError naming the key and the path (see `runRouter`).
        throw MakeDestinationNotOverridden(router: TypeName.of(Swift.type(of: self)))
    }

    /// Property and method injection by the router, after the caller's preparation: check what the caller
    /// already set before setting it.
    /// - Parameters:
    ///   - destination: The destination made by ``makeDestination(configuration:resolver:)``.
    ///   - configuration: The configuration it was made from.
    ///   - resolver: Looks up dependencies.
    /// - Throws: Any error; the registry wraps it in ``RouteError``.
    open func prepareDestination(
        _ destination: Destination, configuration: Configuration, resolver: inout Resolver
    ) throws {}

    /// Runs after every preparation of the destination.
    /// - Parameters:
    ///   - destination: The prepared destination.
    ///   - configuration: The configuration it was made from.
    ///   - resolver: Looks up dependencies.
    /// - Throws: Any error; the registry wraps it in ``RouteError``.
    open func didFinishPrepareDestination(
        _ destination: Destination, configuration: Configuration, resolver: inout Resolver
    ) throws {}
}

extension RouteRegistry {
    /// Registers a router class for a service key; the class's ``ServiceRouter/scope`` and route hooks
    /// apply, and modifiers on the returned registration may add to them.
    /// - Parameters:
    ///   - router: The router class; the registry makes one instance per destination.
    ///   - key: The key it serves.
    ///   - file: The registering file, for messages (leave the default).
    ///   - line: The registering line, for messages (leave the default).
    /// - Returns: The registration, to modify.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed.
    @discardableResult
    public func register<R: ServiceRouter<Destination, Configuration>, Destination, Configuration>(
        router: R.Type, for key: RoutableService<Destination>, file: StaticString = #fileID, line: UInt = #line
    ) throws -> Registration<Destination, Destination> {
        try register(key, file: file, line: line) { resolver in
            try resolver.runRouter(R.self, configuration: nil, key: key.keyDescription)
        }
        .scope(R.scope)
        .hooks(R.routeHooks)
    }

    /// Registers a router class for a module key; its configuration class must adopt the key's
    /// configuration protocol (sealing checks).
    /// - Parameters:
    ///   - router: The router class; the registry makes one instance per destination.
    ///   - key: The module key it serves.
    ///   - file: The registering file, for messages (leave the default).
    ///   - line: The registering line, for messages (leave the default).
    /// - Returns: The registration, to modify.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed.
    @discardableResult
    public func register<R: ServiceRouter<Destination, Config>, ConfigurationProtocol, Destination, Config>(
        router: R.Type, for key: RoutableServiceModule<ConfigurationProtocol, Destination>,
        file: StaticString = #fileID, line: UInt = #line
    ) throws -> Registration<Destination, Destination> {
        try register(key, configuration: R.defaultConfiguration, file: file, line: line) { configuration, resolver in
            try resolver.runRouter(R.self, configuration: configuration, key: key.keyDescription)
        }
        .scope(R.scope)
        .hooks(R.routeHooks)
    }
}

extension Resolver {
    /// Makes a router, lets it make the destination, and queues its preparation hooks.
    mutating func runRouter<R: ServiceRouter<Destination, Config>, Destination, Config>(
        _ type: R.Type, configuration given: Config?, key: KeyDescription
    ) throws -> Destination {
        let router = R()
        let configuration = given ?? R.defaultConfiguration()
        let made: Destination
        do {
            made = try router.makeDestination(configuration: configuration, resolver: &self)
        } catch let missing as MakeDestinationNotOverridden {
            throw RouteError.routerDoesNotMakeDestination(missing.router, key: key, path: pathHere(key.short))
        }
        enqueuePreparation { resolver in
            try router.prepareDestination(made, configuration: configuration, resolver: &resolver)
            try router.didFinishPrepareDestination(made, configuration: configuration, resolver: &resolver)
        }
        return made
    }

}

/// What ``ServiceRouter/makeDestination(configuration:resolver:)`` throws when a subclass does not override
/// it; the registry reports it as a ``RouteError`` with the key and the resolution path.
struct MakeDestinationNotOverridden: Error, CustomStringConvertible {
    /// The router class, as it reads in messages.
    let router: String

    var description: String { "\(router) does not override makeDestination(configuration:resolver:)." }
}
