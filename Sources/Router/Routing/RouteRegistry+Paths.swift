/// A path pattern's registration: how to make its destination from the parameters.
struct PathRoute: Sendable {
    let pattern: PathPattern
    let target: KeyDescription
    let targetID: KeyID
    let owner: String
    /// Makes the destination; `onMainActor` says whether the caller is isolated to the main actor.
    let make:
        @Sendable (RouteRegistry, PathParameters, _ onMainActor: Bool, _ preparation: (Any) throws -> Void) throws
            -> Any
    /// Fires the target registration's hooks, looked up in the registry that routes the path.
    let hook: @Sendable (RouteRegistry, HookMoment, Any) -> Void

    /// The key the pattern routes to, as an interceptor is told it.
    var destinationKey: RouteKey { RouteKey(id: targetID, key: target) }
}

extension RouteRegistry {
    /// Routes a path pattern to a service key; `preparation` receives the path's parameters.
    ///
    /// ```swift
    /// try registry.register(path: "settings/profile", to: .profileScreen)
    /// try registry.register(path: "books/:id(Int)", to: .bookScreen) { screen, parameters in
    ///     screen.bookID = try parameters.int("id")
    /// }
    /// let screen = try registry.makeDestination(path: "books/3?tab=reviews", as: (any Screen).self)
    /// ```
    /// - Parameters:
    ///   - pattern: Literal segments and parameters: `:name` (text) or `:name(Int)`, `(Double)`, `(Bool)`.
    ///   - key: The key whose destination the path makes.
    ///   - preparation: Hands the parameters to the destination.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed. A malformed
    ///   pattern (an unknown or unclosed type, a repeated or missing parameter name, a `?` or `#`) or one
    ///   that matches the same paths as another is reported by ``seal()`` and ``validate()`` as
    ///   ``RouteError/Code/invalidPath`` or ``RouteError/Code/duplicateIdentifier``, naming the pattern.
    public func register<Destination>(
        path pattern: String, to key: RoutableService<Destination>,
        preparation: @escaping @Sendable (Destination, PathParameters) throws -> Void = { _, _ in }
    ) throws {
        let parsed = PathPattern(pattern)
        try addPath { owner in
            PathRoute(
                pattern: parsed, target: key.keyDescription, targetID: key.id, owner: owner,
                make: { registry, parameters, onMainActor, preparing in
                    try registry.lookup(reporting: false, onMainActor: onMainActor) { resolver in
                        try resolver.build(try resolver.entry(for: key), input: nil) { destination in
                            try preparation(destination, parameters)
                            try preparing(destination)
                        }
                    }
                },
                hook: Self.pathHook(for: key))
        }
    }

    /// Routes a path pattern to the key of a main-actor screen, whose `preparation` sets the screen's
    /// properties from the parameters, on the main actor.
    ///
    /// ```swift
    /// try registry.registerOnMainActor(.bookScreen) { _ in BookScreen() }
    /// try registry.registerOnMainActor(path: "books/:id(Int)", to: .bookScreen) { screen, parameters in
    ///     screen.bookID = try parameters.int("id")
    /// }
    /// ```
    ///
    /// The preparation is isolated to the main actor, so it may set main-actor properties, which the
    /// nonisolated closure of ``register(path:to:preparation:)`` cannot. A path made or routed from
    /// main-actor code (``makeDestination(path:as:isolation:)``, a route's `perform`) runs it
    /// synchronously; any other fails with ``RouteError/Code/mainActorRequired`` before anything is made,
    /// never a data race. (A name of its own, not an overload of `register(path:to:preparation:)`, for the
    /// same reason as ``registerOnMainActor(_:file:line:factory:)``; the compiler also refuses two
    /// declarations that differ only in a closure's isolation.)
    /// - Parameters:
    ///   - pattern: Literal segments and parameters: `:name` (text) or `:name(Int)`, `(Double)`, `(Bool)`.
    ///   - key: The key whose destination the path makes.
    ///   - preparation: Hands the parameters to the destination, on the main actor.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed; a
    ///   malformed or duplicate pattern is reported by ``seal()`` as for ``register(path:to:preparation:)``.
    public func registerOnMainActor<Destination>(
        path pattern: String, to key: RoutableService<Destination>,
        preparation: @escaping @MainActor @Sendable (Destination, PathParameters) throws -> Void
    ) throws {
        let parsed = PathPattern(pattern)
        let isolated = MainActorPreparation(preparation)
        try addPath { owner in
            PathRoute(
                pattern: parsed, target: key.keyDescription, targetID: key.id, owner: owner,
                make: { registry, parameters, onMainActor, preparing in
                    try registry.lookup(reporting: false, onMainActor: onMainActor) { resolver in
                        // Checked once, before anything is built: the preparation runs later in this same
                        // synchronous lookup, as the caller's preparation, where the resolver is not at hand.
                        guard resolver.isOnMainActor else {
                            throw RouteError.pathOffTheMainActor(parameters, target: key.keyDescription)
                        }
                        return try resolver.build(try resolver.entry(for: key), input: nil) { destination in
                            try isolated.callAssumingIsolated(destination, parameters)
                            try preparing(destination)
                        }
                    }
                },
                hook: Self.pathHook(for: key))
        }
    }

    /// Fires the hooks of `key`'s registration, looked up in the registry that routes the path.
    private static func pathHook<Destination>(
        for key: RoutableService<Destination>
    ) -> @Sendable (RouteRegistry, HookMoment, Any) -> Void {
        { registry, moment, value in
            guard let destination = value as? Destination, let table = try? registry.table(),
                let entry = table.primary(key.id, name: key.name) as? Entry<Destination>
            else { return }
            entry.hooks.fire(moment, destination)
        }
    }

    /// Routes a path pattern to a module key; `configuring` hands the parameters to the configuration.
    ///
    /// ```swift
    /// try registry.register(path: "books/:id(Int)", to: .bookDetail) { config, parameters in
    ///     config.constructBookDetail(id: try parameters.int("id"))
    /// }
    /// ```
    /// - Parameters:
    ///   - pattern: Literal segments and parameters: `:name` (text) or `:name(Int)`, `(Double)`, `(Bool)`.
    ///   - key: The module key whose destination the path makes.
    ///   - configuring: Makes the `construct…` calls from the parameters.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed. A malformed
    ///   pattern (an unknown or unclosed type, a repeated or missing parameter name, a `?` or `#`) or one
    ///   that matches the same paths as another is reported by ``seal()`` and ``validate()`` as
    ///   ``RouteError/Code/invalidPath`` or ``RouteError/Code/duplicateIdentifier``, naming the pattern.
    public func register<Configuration, Destination>(
        path pattern: String, to key: RoutableServiceModule<Configuration, Destination>,
        configuring: @escaping @Sendable (Configuration, PathParameters) throws -> Void
    ) throws {
        let parsed = PathPattern(pattern)
        try addPath { owner in
            PathRoute(
                pattern: parsed, target: key.keyDescription, targetID: key.id, owner: owner,
                make: { registry, parameters, onMainActor, preparing in
                    try registry.makeConfigured(
                        key, configuring: { config in try configuring(config, parameters) },
                        preparation: { destination in try preparing(destination) }, reporting: false,
                        onMainActor: onMainActor)
                },
                hook: { registry, moment, value in
                    guard let destination = value as? Destination, let table = try? registry.table(),
                        let entry = table.primary(key.id) as? Entry<Destination>
                    else { return }
                    entry.hooks.fire(moment, destination)
                })
        }
    }

    /// Makes the destination of a path, checked against the type you ask for.
    ///
    /// The registry's interceptors run around it, as around a route performed without a presenter, so a
    /// guard on the key the pattern routes to holds here too (pinned by
    /// `aGuardOnAKeyRefusesEveryWayToItsScreenWhileSignedOut`); they are told the path as given
    /// (``RouteContext/Target/path(_:)``) and the key (``RouteContext/destinationKey``). It is a lookup, not a
    /// ``Route``: the registration's ``RouteHooks`` do not fire.
    ///
    /// ```swift
    /// let screen = try registry.makeDestination(path: "books/3", as: (any Screen).self)
    /// let any = try registry.makeDestination(path: "books/3")   // Any, when nothing names the type
    /// ```
    /// - Parameters:
    ///   - path: The path, e.g. `"books/3?tab=reviews"`.
    ///   - type: The type the destination must have.
    ///   - isolation: The caller's isolation; leave the default. Called from main-actor code, the lookup
    ///     may run main-actor factories, synchronously.
    /// - Returns: The destination.
    /// - Throws: ``RouteError``: ``RouteError/Code/unknownPath`` listing the patterns,
    ///   ``RouteError/Code/invalidPath`` naming the pattern whose parameter is missing or malformed,
    ///   ``RouteError/Code/routeCancelled`` when an interceptor throws (nothing is made),
    ///   ``RouteError/Code/destinationTypeMismatch``, or any error making the destination.
    public func makeDestination<Destination>(
        path: String, as type: Destination.Type = Destination.self, isolation: isolated (any Actor)? = #isolation
    ) throws -> Destination {
        do {
            let (route, parameters) = try matchPath(path)
            return try intercepting(
                interceptors, .path(path), leadingTo: route.destinationKey, reportingCancel: false
            ) {
                let made = try route.make(self, parameters, MainActorCheck.isMainActor(isolation)) { _ in }
                return try cast(made, path: path, route: route)
            }
        } catch {
            throw report(error)
        }
    }

    /// Makes the destination of a path, whatever its type: the form for a lookup where nothing names the
    /// type (`let screen = try registry.makeDestination(path: "settings")`), as ``route(path:)`` is for a
    /// route. It behaves as ``makeDestination(path:as:isolation:)`` asked for `Any` (pinned by
    /// `aLookupByPathWithoutATypeMakesTheDestinationAsAny`).
    /// - Parameters:
    ///   - path: The path, e.g. `"settings"`.
    ///   - isolation: The caller's isolation; leave the default.
    /// - Returns: The destination, as `Any`; cast it to the type you need, or name the type with
    ///   ``makeDestination(path:as:isolation:)``.
    /// - Throws: As ``makeDestination(path:as:isolation:)``.
    public func makeDestination(path: String, isolation: isolated (any Actor)? = #isolation) throws -> Any {
        try makeDestination(path: path, as: Any.self, isolation: isolation)
    }

    /// A route to the destination of a path, to perform (and later remove).
    /// - Parameters:
    ///   - path: The path, e.g. `"books/3"`.
    ///   - type: The type the destination must have.
    /// - Returns: An unrouted route.
    /// - Throws: ``RouteError``: ``RouteError/Code/unknownPath`` or ``RouteError/Code/invalidPath``.
    public func route<Destination>(
        path: String, as type: Destination.Type = Destination.self
    ) throws -> Route<Destination> {
        let (route, parameters) = try matchPath(path)
        return Route(
            registry: self, target: .path(path), destinationKey: route.destinationKey,
            make: { [self] onMainActor, preparation in
                let made = try route.make(self, parameters, onMainActor) { value in
                    if let typed = value as? Destination { try preparation(typed) }
                }
                return try cast(made, path: path, route: route)
            },
            hooks: { [self] moment, destination in route.hook(self, moment, destination) })
    }

    /// A route to the destination of a path, whatever its type: the form for a route that is only
    /// performed, where nothing names the type (`try registry.route(path: "cart").perform()`).
    ///
    /// ```swift
    /// try registry.route(path: "cart").perform()
    /// let route = try registry.route(path: "books/3", as: (any Screen).self)   // typed, for a presenter
    /// ```
    ///
    /// A route typed `Any` is performed without a presenter of its own type; for one, name the type with
    /// ``route(path:as:)``.
    /// - Parameter path: The path, e.g. `"cart"`.
    /// - Returns: An unrouted route.
    /// - Throws: ``RouteError``: ``RouteError/Code/unknownPath`` or ``RouteError/Code/invalidPath``.
    public func route(path: String) throws -> Route<Any> {
        try route(path: path, as: Any.self)
    }

    private func cast<Destination>(_ made: Any, path: String, route: PathRoute) throws -> Destination {
        guard let typed = made as? Destination else {
            throw RouteError.pathMakesOtherType(path, made: Swift.type(of: made), asked: Destination.self, route: route)
        }
        return typed
    }

    func matchPath(_ path: String) throws -> (PathRoute, PathParameters) {
        let table = try table()
        let pieces = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let parts = (pieces.first ?? "").split(separator: "/")
        var query: [String: String] = [:]
        if pieces.count > 1 {
            for pair in pieces[1].split(separator: "&") {
                let item = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                query[String(item[0])] = item.count > 1 ? String(item[1]) : ""
            }
        }
        var best: (route: PathRoute, values: [String: String], literals: Int)?
        var invalid: (route: PathRoute, reason: String, hint: String)?
        for route in table.allPaths {
            switch route.pattern.match(parts) {
            case .matched(let values, let literals):
                if best == nil || literals > (best?.literals ?? 0) { best = (route, values, literals) }
            case .invalid(let reason, let hint):
                if invalid == nil { invalid = (route, reason, hint) }
            case .noMatch:
                continue
            }
        }
        if let best {
            return (
                best.route,
                PathParameters(path: path, pattern: best.route.pattern.text, values: best.values, query: query)
            )
        }
        if let invalid {
            throw RouteError.pathDoesNotFit(path, route: invalid.route, reason: invalid.reason, hint: invalid.hint)
        }
        throw table.unknownPathError(path)
    }
}
