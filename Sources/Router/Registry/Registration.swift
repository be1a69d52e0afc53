/// A registration being made: every kind of `register` returns one, and its modifiers say the rest, the
/// same for services, modules, arguments, async and main-actor factories, router classes and adapters.
///
/// ```swift
/// try registry.register(.car) { r in CarImpl(engine: try r.resolve(.engine)) }
///     .scope(.graph)
///     .injecting(\.radio, .radio)
///     .preparing { car, r in car.tune(to: try r.resolve(.station)) }
/// ```
///
/// Modifiers take effect in the order they are written; the registration is filed as it stands when
/// the registry is sealed. A modifier called after sealing throws
/// ``RouteError/Code/registrationAfterSeal``, like `register` itself.
///
/// `Root` is the type injections and preparations see: the destination's type, or the implementation
/// class named with `register(_:as:…)`, so that injection points need not be public protocol setters.
public struct Registration<Destination, Root>: Sendable {
    @usableFromInline let registry: RouteRegistry
    /// The registration's position among the registry's registrations.
    @usableFromInline let index: Int

    @usableFromInline
    init(registry: RouteRegistry, index: Int) {
        self.registry = registry
        self.index = index
    }

    /// Sets how long instances live (default ``Scope/transient``).
    /// - Parameter scope: The scope.
    /// - Returns: This registration, for the next modifier.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed.
    @discardableResult
    public func scope(_ scope: Scope) throws -> Self {
        try change { $0.scope = scope }
    }

    /// Makes the destination reachable by a string as well, e.g. `"settings/profile"`.
    /// - Parameter identifier: The string; sealing reports one used twice.
    /// - Returns: This registration, for the next modifier.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed.
    @discardableResult
    public func identifier(_ identifier: String) throws -> Self {
        try change { $0.identifier = identifier }
    }

    /// Makes this the registration a single lookup picks when the key has several.
    /// - Returns: This registration, for the next modifier.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed.
    @discardableResult
    public func asDefault() throws -> Self {
        try change { $0.isDefault = true }
    }

    /// Declares keys the factory resolves, so that sealing checks them and the graph shows them.
    ///
    /// Injections declare their own keys; an auto-wired registration (`register(_:initializer:)`)
    /// declares its initializer's.
    /// - Parameter dependencies: The keys and how they are reached, e.g. `.initializer(.engine)`.
    /// - Returns: This registration, for the next modifier.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed.
    @discardableResult
    public func dependencies(_ dependencies: RouteDependency...) throws -> Self {
        try change { $0.dependencies += dependencies }
    }

    /// Declares keys the factory resolves, from a list built elsewhere (see ``dependencies(_:)-(RouteDependency...)``).
    /// - Parameter dependencies: The keys and how they are reached.
    /// - Returns: This registration, for the next modifier.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed.
    @discardableResult
    public func dependencies(_ dependencies: [RouteDependency]) throws -> Self {
        try change { $0.dependencies += dependencies }
    }

    /// Makes this the only registration that may serve the key's protocol (with any tag or name): sealing
    /// reports any other as an ``RouteError/Code/exclusiveRegistration`` problem.
    /// - Returns: This registration, for the next modifier.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed.
    @discardableResult
    public func exclusive() throws -> Self {
        try change { $0.isExclusive = true }
    }

    /// Marks this registration as one of several for its key, made to be looked up together
    /// (``RouteRegistry/makeDestinations(to:isolation:)``, ``Resolver/resolveAll(_:)``): plug-ins, handlers,
    /// wheels.
    ///
    /// ```swift
    /// try registry.register(.wheel) { _ in WheelImpl(position: 1) }.oneOfMany()
    /// try registry.register(.wheel) { _ in WheelImpl(position: 2) }.oneOfMany()
    /// ```
    ///
    /// Without it, a key registered twice with the same argument types is taken for a mistake (two modules
    /// registering the same key): ``RouteRegistry/seal()`` and ``RouteRegistry/validate()`` report it as an
    /// ``RouteError/Code/ambiguousRegistration`` problem naming every registration's site, unless one of
    /// them is ``asDefault()`` or some registration declares a ``RouteDependency/many(_:)`` dependency on
    /// the key. A single lookup of a key whose registrations are all `oneOfMany` stays ambiguous.
    /// - Returns: This registration, for the next modifier.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed.
    @discardableResult
    public func oneOfMany() throws -> Self {
        try change { $0.isOneOfMany = true }
    }

    /// Adds hooks fired for every ``Route`` to this registration's destinations, whoever performs it.
    /// - Parameter hooks: The hooks.
    /// - Returns: This registration, for the next modifier.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed.
    @discardableResult
    public func hooks(_ hooks: RouteHooks<Destination>) throws -> Self {
        try change { $0.hooks = hooks }
    }

    /// Sets a property of the destination to the destination of `key`, after creation (property
    /// injection). The key is declared, so sealing checks it and the graph shows it.
    ///
    /// Injections run in the order they are added, once every factory of the lookup has returned, so
    /// an injection may close a cycle back to an object still being built.
    /// - Parameters:
    ///   - property: A writable key path of a class-bound destination (or of the `as:` class).
    ///   - key: The key whose destination is assigned.
    /// - Returns: This registration, for the next modifier.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed.
    @inlinable @inline(__always) @discardableResult
    public func injecting<Value>(
        _ property: any ReferenceWritableKeyPath<Root, Value> & Sendable, _ key: RoutableService<Value>
    ) throws -> Self {
        // Always inlined: where the registration writes the key path literally, the optimizer turns this
        // key-path write into a direct property write (about 300 instructions less per injection).
        let injection = Injection<Destination>(dependency: .property(key).lookedUpWithoutArguments) {
            destination, resolver in
            try Self.root(of: destination)[keyPath: property] = try resolver.resolve(key)
        }
        return try adding(injection)
    }

    /// Sets an optional property of the destination to the destination of `key`, after creation.
    /// - Parameters:
    ///   - property: A writable key path of a class-bound destination (or of the `as:` class).
    ///   - key: The key whose destination is assigned.
    /// - Returns: This registration, for the next modifier.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed.
    @inlinable @inline(__always) @discardableResult
    public func injecting<Value>(
        _ property: any ReferenceWritableKeyPath<Root, Value?> & Sendable, _ key: RoutableService<Value>
    ) throws -> Self {
        let injection = Injection<Destination>(dependency: .property(key).lookedUpWithoutArguments) {
            destination, resolver in
            try Self.root(of: destination)[keyPath: property] = try resolver.resolve(key)
        }
        return try adding(injection)
    }

    /// Runs code on the destination after creation: method injection, several properties at once, or the
    /// router's own preparation. Runs after the caller's preparation and the injections added before it,
    /// so it sees what they set.
    /// - Parameters:
    ///   - dependency: A key the closure resolves, declared for validation and the graph (optional).
    ///   - body: Gets the destination (as `Root`) and a resolver.
    /// - Returns: This registration, for the next modifier.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed.
    @inlinable @discardableResult
    public func preparing(
        declaring dependency: RouteDependency? = nil, _ body: @escaping @Sendable (Root, inout Resolver) throws -> Void
    ) throws -> Self {
        let injection = Injection<Destination>(dependency: dependency) { destination, resolver in
            try body(try Self.root(of: destination), &resolver)
        }
        return try adding(injection)
    }

    /// Runs code on the destination after creation, on the main actor: for main-actor destinations (view
    /// models, screens) whose properties a `preparing` closure, which is not isolated, cannot touch.
    ///
    /// ```swift
    /// try registry.registerOnMainActor(.profileScreen) { _ in ProfileScreen() }
    ///     .preparingOnMainActor { screen, r in screen.avatar = try r.resolve(.avatarLoader) }
    /// ```
    ///
    /// It runs where `preparing` would, in the order added. A lookup that is not made from main-actor code
    /// fails with ``RouteError/Code/mainActorRequired`` (the registration counts as a main-actor one), never
    /// a data race. (A name of its own rather than a `preparing` overload, for the same reason as
    /// ``RouteRegistry/registerOnMainActor(_:file:line:factory:)``.)
    /// - Parameters:
    ///   - dependency: A key the closure resolves, declared for validation and the graph (optional).
    ///   - body: Gets the destination (as `Root`) and a resolver, on the main actor.
    /// - Returns: This registration, for the next modifier.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed.
    @discardableResult
    public func preparingOnMainActor(
        declaring dependency: RouteDependency? = nil,
        _ body: @escaping @MainActor @Sendable (Root, inout Resolver) throws -> Void
    ) throws -> Self {
        let isolated = MainActorFunction(body)
        return try change { spec in
            spec.isMainActor = true
            spec.injections.append(
                Injection(dependency: dependency) { destination, resolver in
                    try resolver.onMainActor(isolated, try Self.root(of: destination))
                })
        }
    }

    /// Sets a main-actor property of the destination to the destination of `key`, after creation, on the
    /// main actor: ``injecting(_:_:)-(ReferenceWritableKeyPath<Root,Value>Sendable,_)`` for main-actor
    /// classes (presenters, view models, screens), to which no `Sendable` key path can be formed.
    ///
    /// ```swift
    /// try registry.registerOnMainActor(.profilePresenter) { _ in ProfilePresenter() }
    ///     .injectingOnMainActor(.profileView) { presenter, view in presenter.view = view }
    /// ```
    ///
    /// The key is declared as a property edge, so sealing checks it, the graph shows it, and, like any
    /// injection, it runs once every factory of the lookup has returned: it may close a cycle back to an
    /// object still being built (a view that holds its presenter). It runs where `injecting` would, in
    /// the order added; a lookup that is not made from main-actor code fails with
    /// ``RouteError/Code/mainActorRequired`` (the registration counts as a main-actor one).
    /// - Parameters:
    ///   - key: The key whose destination is assigned.
    ///   - assign: Gets the destination (as `Root`) and `key`'s destination, on the main actor; sets the
    ///     property.
    /// - Returns: This registration, for the next modifier.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed.
    @discardableResult
    public func injectingOnMainActor<Value>(
        _ key: RoutableService<Value>, _ assign: @escaping @MainActor @Sendable (Root, Value) -> Void
    ) throws -> Self {
        let isolated = MainActorFunction<Root, Void> { root, resolver in assign(root, try resolver.resolve(key)) }
        return try change { spec in
            spec.isMainActor = true
            spec.injections.append(
                Injection(dependency: .property(key).lookedUpWithoutArguments) { destination, resolver in
                    try resolver.onMainActor(isolated, try Self.root(of: destination))
                })
        }
    }

    /// Runs once every preparation of the destination has run (ZIKRouter's `didFinishPrepareDestination`).
    /// Called twice, both run, in order.
    /// - Parameter body: Gets the prepared destination (as `Root`) and a resolver.
    /// - Returns: This registration, for the next modifier.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed.
    @discardableResult
    public func didFinishPrepare(_ body: @escaping @Sendable (Root, inout Resolver) throws -> Void) throws -> Self {
        try change { spec in
            let earlier = spec.didFinish
            spec.didFinish = { destination, resolver in
                try earlier?(destination, &resolver)
                try body(try Self.root(of: destination), &resolver)
            }
        }
    }

    /// Makes the same registration reachable through another key as well (DITranquillity's `.as`): one
    /// factory, and one shared instance whichever key a lookup uses.
    ///
    /// ```swift
    /// try registry.register(.logger) { _ in FileLogger() }.scope(.singleton).also(.auditLog)
    /// ```
    ///
    /// The destination must also be an `Other`; a lookup through `key` whose destination is not one fails
    /// with ``RouteError/Code/destinationTypeMismatch``, naming both types.
    ///
    /// Among `key`'s registrations, this one keeps its own place: a many-lookup of `key`
    /// (``RouteRegistry/makeDestinations(to:isolation:)``, ``Resolver/resolveAll(_:)``) returns it where
    /// `register` was called, before those registered after it, whenever `also` itself is called.
    /// - Parameter key: The other key.
    /// - Returns: This registration, for the next modifier.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed.
    @discardableResult
    public func also<Other>(_ key: RoutableService<Other>) throws -> Self {
        let also = AlsoKey<Destination>(id: key.id, key: key.keyDescription) { primary in
            primary.serving(key)
        }
        return try change { $0.alsoKeys.append(also) }
    }

    /// Declares the keys an auto-wired initializer's parameters are looked up by: the factory the library
    /// made looks up exactly those, so its first run is not checked for undeclared edges.
    @usableFromInline @discardableResult
    func wiredDependencies(_ dependencies: [RouteDependency]) throws -> Self {
        try change { spec in
            spec.dependencies += dependencies
            spec.factoryDeclaresItsEdges = true
        }
    }

    /// Adds an injection or preparation after those added before.
    @usableFromInline
    func adding(_ injection: Injection<Destination>) throws -> Self {
        try change { $0.injections.append(injection) }
    }

    /// Applies `body` to the registration's spec, and files the registration made from it.
    @usableFromInline
    func change(_ body: (inout RegistrationSpec<Destination>) -> Void) throws -> Self {
        try registry.modify(index, as: Destination.self, body)
        return self
    }

    /// The checked cast of ``root(of:)``, out of line: unspecialised code (a closure the client did not
    /// specialise) otherwise instantiated `Optional<Root>`'s metadata on every call, even when the types
    /// are the same (about 330 instructions per preparation).
    @usableFromInline @inline(never)
    static func castRoot(_ destination: Destination) throws -> Root {
        if let root = destination as? Root { return root }
        throw RootMismatch(destination, expected: Root.self)
    }
}
