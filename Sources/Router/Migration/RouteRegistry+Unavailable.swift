// Calls that do not compile, named so that the compiler says how to write them: the labels of the
// registration API before modifiers (scope:, isDefault:, identifier:, dependencies:, prepare:), a module
// key registered without its configuration, an initializer of another type, an arguments factory without
// the resolver, and property injection into a value type. Without these, each gives a list of partially
// matching candidates or no useful message at all. Each one kept here was measured to improve its case
// and to leave every other message unchanged (a factory missing one argument value was tried and did not
// help; injections: did once, before the whole labelled signature below, with RemovedInjection for its
// elements); scripts/check-compile-errors.sh pins what they print.

extension RouteRegistry {
    /// Unavailable: the scope is a modifier now.
    ///
    /// Write `try registry.register(.key) { r in … }.scope(.singleton)`.
    /// - Parameters:
    ///   - key: The key the factory serves.
    ///   - scope: The scope; give it to ``Registration/scope(_:)`` instead.
    ///   - file: The registering file.
    ///   - line: The registering line.
    ///   - factory: Makes the destination.
    /// - Returns: Never returns: the call does not compile.
    /// - Throws: Always, should it ever be reached: the call does not compile.
    @available(*, unavailable, message: "scope is a modifier now: register(.key) { r in … }.scope(.singleton)")
    @discardableResult
    public func register<Destination>(
        _ key: RoutableService<Destination>, scope: Scope, file: StaticString = #fileID, line: UInt = #line,
        factory: @escaping @Sendable (inout Resolver) throws -> Destination
    ) throws -> Registration<Destination, Destination> {
        throw RouteError.unavailable(#function)
    }

    /// Unavailable: making a registration the default is a modifier now.
    ///
    /// Write `try registry.register(.key) { r in … }.asDefault()`.
    /// - Parameters:
    ///   - key: The key the factory serves.
    ///   - isDefault: Whether it is the default; call ``Registration/asDefault()`` instead.
    ///   - file: The registering file.
    ///   - line: The registering line.
    ///   - factory: Makes the destination.
    /// - Returns: Never returns: the call does not compile.
    /// - Throws: Always, should it ever be reached: the call does not compile.
    @available(*, unavailable, message: "isDefault is a modifier now: register(.key) { r in … }.asDefault()")
    @discardableResult
    public func register<Destination>(
        _ key: RoutableService<Destination>, isDefault: Bool, file: StaticString = #fileID, line: UInt = #line,
        factory: @escaping @Sendable (inout Resolver) throws -> Destination
    ) throws -> Registration<Destination, Destination> {
        throw RouteError.unavailable(#function)
    }

    /// Unavailable: the identifier is a modifier now.
    ///
    /// Write `try registry.register(.key) { r in … }.identifier("settings/profile")`.
    /// - Parameters:
    ///   - key: The key the factory serves.
    ///   - identifier: The identifier; give it to ``Registration/identifier(_:)`` instead.
    ///   - file: The registering file.
    ///   - line: The registering line.
    ///   - factory: Makes the destination.
    /// - Returns: Never returns: the call does not compile.
    /// - Throws: Always, should it ever be reached: the call does not compile.
    @available(*, unavailable, message: "identifier is a modifier now: register(.key) { r in … }.identifier(\"…\")")
    @discardableResult
    public func register<Destination>(
        _ key: RoutableService<Destination>, identifier: String, file: StaticString = #fileID, line: UInt = #line,
        factory: @escaping @Sendable (inout Resolver) throws -> Destination
    ) throws -> Registration<Destination, Destination> {
        throw RouteError.unavailable(#function)
    }

    /// Unavailable: dependencies are declared with a modifier now.
    ///
    /// Write `try registry.register(.key) { r in … }.dependencies(.initializer(.engine))`.
    /// - Parameters:
    ///   - key: The key the factory serves.
    ///   - dependencies: The keys; give them to ``Registration/dependencies(_:)-([RouteDependency])`` instead.
    ///   - file: The registering file.
    ///   - line: The registering line.
    ///   - factory: Makes the destination.
    /// - Returns: Never returns: the call does not compile.
    /// - Throws: Always, should it ever be reached: the call does not compile.
    @available(
        *, unavailable,
        message: "dependencies is a modifier now: register(.key) { r in … }.dependencies(.initializer(.other))"
    )
    @discardableResult
    public func register<Destination>(
        _ key: RoutableService<Destination>, dependencies: [RouteDependency], file: StaticString = #fileID,
        line: UInt = #line, factory: @escaping @Sendable (inout Resolver) throws -> Destination
    ) throws -> Registration<Destination, Destination> {
        throw RouteError.unavailable(#function)
    }

    /// Unavailable: preparations are a modifier now.
    ///
    /// Write `try registry.register(.key) { r in … }.preparing { destination, r in … }`.
    /// - Parameters:
    ///   - key: The key the factory serves.
    ///   - prepare: The preparation; give it to ``Registration/preparing(declaring:_:)`` instead.
    ///   - file: The registering file.
    ///   - line: The registering line.
    ///   - factory: Makes the destination.
    /// - Returns: Never returns: the call does not compile.
    /// - Throws: Always, should it ever be reached: the call does not compile.
    @available(
        *, unavailable,
        message: "prepare is a modifier now: register(.key) { r in … }.preparing { destination, r in … }"
    )
    @discardableResult
    public func register<Destination>(
        _ key: RoutableService<Destination>,
        prepare: @escaping @Sendable (Destination, inout Resolver) throws -> Void,
        file: StaticString = #fileID, line: UInt = #line,
        factory: @escaping @Sendable (inout Resolver) throws -> Destination
    ) throws -> Registration<Destination, Destination> {
        throw RouteError.unavailable(#function)
    }

    /// Unavailable: a module key is registered with its configuration.
    ///
    /// Write `try registry.register(.cart, configuration: CartConfiguration.init) { config, r in … }`.
    /// - Parameters:
    ///   - key: The module key.
    ///   - file: The registering file.
    ///   - line: The registering line.
    ///   - factory: Makes the destination.
    /// - Returns: Never returns: the call does not compile.
    /// - Throws: Always, should it ever be reached: the call does not compile.
    @available(
        *, unavailable,
        message: "a module key needs its configuration: register(.key, configuration: Config.init) { config, r in … }"
    )
    @discardableResult
    public func register<Configuration, Destination>(
        _ key: RoutableServiceModule<Configuration, Destination>, file: StaticString = #fileID, line: UInt = #line,
        factory: @escaping @Sendable (inout Resolver) throws -> Destination
    ) throws -> Registration<Destination, Destination> {
        throw RouteError.unavailable(#function)
    }

    /// Unavailable: an initializer that makes something other than the key's type.
    /// - Parameters:
    ///   - key: The key the initializer serves.
    ///   - initializer: An initializer whose result is not the key's type.
    ///   - file: The registering file.
    ///   - line: The registering line.
    /// - Returns: Never returns: the call does not compile.
    /// - Throws: Always, should it ever be reached: the call does not compile.
    @available(
        *, unavailable, message: "the initializer must make the key's type: does the class adopt the key's protocol?"
    )
    @discardableResult
    public func register<Destination, Other, each Parameter>(
        _ key: RoutableService<Destination>,
        initializer: @escaping @Sendable (repeat each Parameter) throws -> Other,
        file: StaticString = #fileID, line: UInt = #line
    ) throws -> Registration<Destination, Destination> {
        throw RouteError.unavailable(#function)
    }

    /// Unavailable: an arguments factory without the resolver.
    /// - Parameters:
    ///   - key: The key the factory serves.
    ///   - first: The first argument's type.
    ///   - rest: The other arguments' types.
    ///   - file: The registering file.
    ///   - line: The registering line.
    ///   - factory: A factory that lacks the resolver parameter.
    /// - Returns: Never returns: the call does not compile.
    /// - Throws: Always, should it ever be reached: the call does not compile.
    @available(
        *, unavailable,
        message: "the factory takes the resolver first, then one value per argument type: { r, first, second in … }"
    )
    @discardableResult
    public func register<Destination, First, each Argument>(
        _ key: RoutableService<Destination>,
        arguments first: First.Type, _ rest: repeat (each Argument).Type,
        file: StaticString = #fileID, line: UInt = #line,
        factory: @escaping @Sendable (First, repeat each Argument) throws -> Destination
    ) throws -> Registration<Destination, Destination> {
        throw RouteError.unavailable(#function)
    }

    /// Unavailable: an async arguments factory without the resolver (without this overload, the compiler
    /// printed the factory's whole closure type and "expects 2 arguments, but 1 was used").
    /// - Parameters:
    ///   - key: The key the factory serves.
    ///   - first: The first argument's type.
    ///   - rest: The other arguments' types.
    ///   - file: The registering file.
    ///   - line: The registering line.
    ///   - factory: An async factory that lacks the resolver parameter.
    /// - Returns: Never returns: the call does not compile.
    /// - Throws: Always, should it ever be reached: the call does not compile.
    @available(
        *, unavailable,
        message:
            "the async factory takes the resolver first, then one value per argument type: { r, first, second async throws in … }"
    )
    @discardableResult
    public func registerAsync<Destination, First, each Argument>(
        _ key: RoutableService<Destination>,
        arguments first: First.Type, _ rest: repeat (each Argument).Type,
        file: StaticString = #fileID, line: UInt = #line,
        factory: nonisolated(nonsending) @escaping @Sendable (First, repeat each Argument) async throws -> Destination
    ) throws -> Registration<Destination, Destination> {
        throw RouteError.unavailable(#function)
    }
}

// The labelled registration API of 0.1.0, all labels at once: a call that combines labels (`scope:` with
// `injections:`) matches none of the one-label overloads above, and without these got "extra arguments at
// positions #2, #3 in call" and a cascade. Each takes the labels in 0.1.0's order, every one defaulted; an
// available overload always wins over an unavailable one, so the calls that compile are unchanged, and a
// call with one label still gets that label's own message above. CHANGELOG.md has the table of labels and
// modifiers.

extension RouteRegistry {
    /// Unavailable: 0.1.0's labelled options are modifiers now.
    ///
    /// Write `try registry.register(.key) { r in … }` and chain the modifiers: `scope:` → ``Registration/scope(_:)``,
    /// `identifier:` → ``Registration/identifier(_:)``, `isDefault:` → ``Registration/asDefault()``,
    /// `dependencies:` → ``Registration/dependencies(_:)-([RouteDependency])``, `injections: [.property(…)]`
    /// → ``Registration/injecting(_:_:)-(any ReferenceWritableKeyPath<Root,Value>&Sendable,_)``,
    /// `injections: [.run { … }]` and `prepare:` → ``Registration/preparing(declaring:_:)``,
    /// `didFinishPrepare:` → ``Registration/didFinishPrepare(_:)``, `hooks:` → ``Registration/hooks(_:)``,
    /// `exclusive:` → ``Registration/exclusive()``.
    /// - Parameters:
    ///   - key: The key the factory serves.
    ///   - scope: Give it to ``Registration/scope(_:)``.
    ///   - identifier: Give it to ``Registration/identifier(_:)``.
    ///   - isDefault: Call ``Registration/asDefault()``.
    ///   - dependencies: Give them to ``Registration/dependencies(_:)-([RouteDependency])``.
    ///   - injections: One `injecting` or `preparing` modifier each.
    ///   - prepare: Give it to ``Registration/preparing(declaring:_:)``.
    ///   - didFinishPrepare: Give it to ``Registration/didFinishPrepare(_:)``.
    ///   - hooks: Give them to ``Registration/hooks(_:)``.
    ///   - exclusive: Call ``Registration/exclusive()``.
    ///   - file: The registering file.
    ///   - line: The registering line.
    ///   - factory: Makes the destination.
    /// - Returns: Never returns: the call does not compile.
    /// - Throws: Always, should it ever be reached: the call does not compile.
    @available(
        *, unavailable,
        message:
            "the labels are modifiers now: register(.key) { r in … } then .scope(.singleton), .identifier(\"…\"), .asDefault(), .dependencies(…), .injecting(\\.property, .key), .preparing { destination, r in … }, .didFinishPrepare { destination, r in … }, .hooks(…), .exclusive()"
    )
    @discardableResult
    public func register<Destination>(
        _ key: RoutableService<Destination>, scope: Scope = .transient, identifier: String? = nil,
        isDefault: Bool = false, dependencies: [RouteDependency] = [], injections: [RemovedInjection<Destination>] = [],
        prepare: (@Sendable (Destination, inout Resolver) throws -> Void)? = nil,
        didFinishPrepare: (@Sendable (Destination, inout Resolver) throws -> Void)? = nil,
        hooks: RouteHooks<Destination> = RouteHooks(), exclusive: Bool = false,
        file: StaticString = #fileID, line: UInt = #line,
        factory: @escaping @Sendable (inout Resolver) throws -> Destination
    ) throws -> Registration<Destination, Destination> {
        throw RouteError.unavailable(#function)
    }

    /// Unavailable: 0.1.0's labelled options of a module registration are modifiers now.
    ///
    /// Write `try registry.register(.key, configuration: Config.init) { config, r in … }` and chain the
    /// modifiers, as for ``register(_:scope:identifier:isDefault:dependencies:injections:prepare:didFinishPrepare:hooks:exclusive:file:line:factory:)``.
    /// - Parameters:
    ///   - key: The module key.
    ///   - configuration: Makes the module's configuration; stays a parameter.
    ///   - scope: Give it to ``Registration/scope(_:)``.
    ///   - identifier: Give it to ``Registration/identifier(_:)``.
    ///   - isDefault: Call ``Registration/asDefault()``.
    ///   - dependencies: Give them to ``Registration/dependencies(_:)-([RouteDependency])``.
    ///   - injections: One `injecting` or `preparing` modifier each.
    ///   - prepare: Give it to ``Registration/preparing(declaring:_:)``.
    ///   - didFinishPrepare: Give it to ``Registration/didFinishPrepare(_:)``.
    ///   - hooks: Give them to ``Registration/hooks(_:)``.
    ///   - file: The registering file.
    ///   - line: The registering line.
    ///   - factory: Makes the destination.
    /// - Returns: Never returns: the call does not compile.
    /// - Throws: Always, should it ever be reached: the call does not compile.
    @available(
        *, unavailable,
        message:
            "the labels are modifiers now: register(.key, configuration: Config.init) { config, r in … } then .scope(.singleton), .identifier(\"…\"), .asDefault(), .dependencies(…), .injecting(\\.property, .key), .preparing { destination, r in … }, .didFinishPrepare { destination, r in … }, .hooks(…)"
    )
    @discardableResult
    public func register<Configuration, Destination, Config: ModuleConfiguration<Destination>>(
        _ key: RoutableServiceModule<Configuration, Destination>, configuration: @escaping @Sendable () -> Config,
        scope: Scope = .transient, identifier: String? = nil, isDefault: Bool = false,
        dependencies: [RouteDependency] = [], injections: [RemovedInjection<Destination>] = [],
        prepare: (@Sendable (Destination, inout Resolver) throws -> Void)? = nil,
        didFinishPrepare: (@Sendable (Destination, inout Resolver) throws -> Void)? = nil,
        hooks: RouteHooks<Destination> = RouteHooks(), file: StaticString = #fileID, line: UInt = #line,
        factory: @escaping @Sendable (Config, inout Resolver) throws -> Destination
    ) throws -> Registration<Destination, Destination> {
        throw RouteError.unavailable(#function)
    }

    /// Unavailable: 0.1.0's labelled options of a registration with one argument are modifiers now.
    ///
    /// Write `try registry.register(.key, arguments: …) { r, … in … }` and chain the modifiers, as for
    /// ``register(_:scope:identifier:isDefault:dependencies:injections:prepare:didFinishPrepare:hooks:exclusive:file:line:factory:)``.
    /// (One form per argument count, as the available ones, so that the factory's `r` stays `inout`.)
    /// - Parameters:
    ///   - key: The key the factory serves.
    ///   - first: The first argument's type; stays a parameter.
    ///   - scope: Give it to ``Registration/scope(_:)``.
    ///   - identifier: Give it to ``Registration/identifier(_:)``.
    ///   - isDefault: Call ``Registration/asDefault()``.
    ///   - dependencies: Give them to ``Registration/dependencies(_:)-([RouteDependency])``.
    ///   - injections: One `injecting` or `preparing` modifier each.
    ///   - prepare: Give it to ``Registration/preparing(declaring:_:)``.
    ///   - didFinishPrepare: Give it to ``Registration/didFinishPrepare(_:)``.
    ///   - file: The registering file.
    ///   - line: The registering line.
    ///   - factory: Makes the destination.
    /// - Returns: Never returns: the call does not compile.
    /// - Throws: Always, should it ever be reached: the call does not compile.
    @available(
        *, unavailable,
        message:
            "the labels are modifiers now: register(.key, arguments: Int.self) { r, id in … } then .scope(.singleton), .identifier(\"…\"), .asDefault(), .dependencies(…), .injecting(\\.property, .key), .preparing { destination, r in … }, .didFinishPrepare { destination, r in … }"
    )
    @discardableResult
    public func register<Destination, First>(
        _ key: RoutableService<Destination>, arguments first: First.Type,
        scope: Scope = .transient, identifier: String? = nil, isDefault: Bool = false,
        dependencies: [RouteDependency] = [], injections: [RemovedInjection<Destination>] = [],
        prepare: (@Sendable (Destination, inout Resolver) throws -> Void)? = nil,
        didFinishPrepare: (@Sendable (Destination, inout Resolver) throws -> Void)? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        factory: @escaping @Sendable (inout Resolver, First) throws -> Destination
    ) throws -> Registration<Destination, Destination> {
        throw RouteError.unavailable(#function)
    }

    /// Unavailable: 0.1.0's labelled options of a registration with two arguments are modifiers now.
    ///
    /// Write `try registry.register(.key, arguments: …) { r, … in … }` and chain the modifiers, as for
    /// ``register(_:scope:identifier:isDefault:dependencies:injections:prepare:didFinishPrepare:hooks:exclusive:file:line:factory:)``.
    /// (One form per argument count, as the available ones, so that the factory's `r` stays `inout`.)
    /// - Parameters:
    ///   - key: The key the factory serves.
    ///   - first: The first argument's type; stays a parameter.
    ///   - second: The second argument's type; stays a parameter.
    ///   - scope: Give it to ``Registration/scope(_:)``.
    ///   - identifier: Give it to ``Registration/identifier(_:)``.
    ///   - isDefault: Call ``Registration/asDefault()``.
    ///   - dependencies: Give them to ``Registration/dependencies(_:)-([RouteDependency])``.
    ///   - injections: One `injecting` or `preparing` modifier each.
    ///   - prepare: Give it to ``Registration/preparing(declaring:_:)``.
    ///   - didFinishPrepare: Give it to ``Registration/didFinishPrepare(_:)``.
    ///   - file: The registering file.
    ///   - line: The registering line.
    ///   - factory: Makes the destination.
    /// - Returns: Never returns: the call does not compile.
    /// - Throws: Always, should it ever be reached: the call does not compile.
    @available(
        *, unavailable,
        message:
            "the labels are modifiers now: register(.key, arguments: Int.self) { r, id in … } then .scope(.singleton), .identifier(\"…\"), .asDefault(), .dependencies(…), .injecting(\\.property, .key), .preparing { destination, r in … }, .didFinishPrepare { destination, r in … }"
    )
    @discardableResult
    public func register<Destination, First, Second>(
        _ key: RoutableService<Destination>, arguments first: First.Type, _ second: Second.Type,
        scope: Scope = .transient, identifier: String? = nil, isDefault: Bool = false,
        dependencies: [RouteDependency] = [], injections: [RemovedInjection<Destination>] = [],
        prepare: (@Sendable (Destination, inout Resolver) throws -> Void)? = nil,
        didFinishPrepare: (@Sendable (Destination, inout Resolver) throws -> Void)? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        factory: @escaping @Sendable (inout Resolver, First, Second) throws -> Destination
    ) throws -> Registration<Destination, Destination> {
        throw RouteError.unavailable(#function)
    }

    /// Unavailable: 0.1.0's labelled options of a registration with three arguments are modifiers now.
    ///
    /// Write `try registry.register(.key, arguments: …) { r, … in … }` and chain the modifiers, as for
    /// ``register(_:scope:identifier:isDefault:dependencies:injections:prepare:didFinishPrepare:hooks:exclusive:file:line:factory:)``.
    /// (One form per argument count, as the available ones, so that the factory's `r` stays `inout`.)
    /// - Parameters:
    ///   - key: The key the factory serves.
    ///   - first: The first argument's type; stays a parameter.
    ///   - second: The second argument's type; stays a parameter.
    ///   - third: The third argument's type; stays a parameter.
    ///   - scope: Give it to ``Registration/scope(_:)``.
    ///   - identifier: Give it to ``Registration/identifier(_:)``.
    ///   - isDefault: Call ``Registration/asDefault()``.
    ///   - dependencies: Give them to ``Registration/dependencies(_:)-([RouteDependency])``.
    ///   - injections: One `injecting` or `preparing` modifier each.
    ///   - prepare: Give it to ``Registration/preparing(declaring:_:)``.
    ///   - didFinishPrepare: Give it to ``Registration/didFinishPrepare(_:)``.
    ///   - file: The registering file.
    ///   - line: The registering line.
    ///   - factory: Makes the destination.
    /// - Returns: Never returns: the call does not compile.
    /// - Throws: Always, should it ever be reached: the call does not compile.
    @available(
        *, unavailable,
        message:
            "the labels are modifiers now: register(.key, arguments: Int.self) { r, id in … } then .scope(.singleton), .identifier(\"…\"), .asDefault(), .dependencies(…), .injecting(\\.property, .key), .preparing { destination, r in … }, .didFinishPrepare { destination, r in … }"
    )
    @discardableResult
    public func register<Destination, First, Second, Third>(
        _ key: RoutableService<Destination>, arguments first: First.Type, _ second: Second.Type, _ third: Third.Type,
        scope: Scope = .transient, identifier: String? = nil, isDefault: Bool = false,
        dependencies: [RouteDependency] = [], injections: [RemovedInjection<Destination>] = [],
        prepare: (@Sendable (Destination, inout Resolver) throws -> Void)? = nil,
        didFinishPrepare: (@Sendable (Destination, inout Resolver) throws -> Void)? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        factory: @escaping @Sendable (inout Resolver, First, Second, Third) throws -> Destination
    ) throws -> Registration<Destination, Destination> {
        throw RouteError.unavailable(#function)
    }

    /// Unavailable: 0.1.0's labelled options of an async registration are modifiers now.
    ///
    /// Write `try registry.registerAsync(.key) { r in … }` and chain the modifiers, as for
    /// ``register(_:scope:identifier:isDefault:dependencies:injections:prepare:didFinishPrepare:hooks:exclusive:file:line:factory:)``.
    /// - Parameters:
    ///   - key: The key the factory serves.
    ///   - scope: Give it to ``Registration/scope(_:)``.
    ///   - identifier: Give it to ``Registration/identifier(_:)``.
    ///   - isDefault: Call ``Registration/asDefault()``.
    ///   - dependencies: Give them to ``Registration/dependencies(_:)-([RouteDependency])``.
    ///   - injections: One `injecting` or `preparing` modifier each.
    ///   - prepare: Give it to ``Registration/preparing(declaring:_:)``.
    ///   - didFinishPrepare: Give it to ``Registration/didFinishPrepare(_:)``.
    ///   - file: The registering file.
    ///   - line: The registering line.
    ///   - factory: Makes the destination; may await.
    /// - Returns: Never returns: the call does not compile.
    /// - Throws: Always, should it ever be reached: the call does not compile.
    @available(
        *, unavailable,
        message:
            "the labels are modifiers now: registerAsync(.key) { r in … } then .scope(.singleton), .identifier(\"…\"), .asDefault(), .dependencies(…), .injecting(\\.property, .key), .preparing { destination, r in … }, .didFinishPrepare { destination, r in … }"
    )
    @discardableResult
    public func registerAsync<Destination>(
        _ key: RoutableService<Destination>, scope: Scope = .transient, identifier: String? = nil,
        isDefault: Bool = false, dependencies: [RouteDependency] = [], injections: [RemovedInjection<Destination>] = [],
        prepare: (@Sendable (Destination, inout Resolver) throws -> Void)? = nil,
        didFinishPrepare: (@Sendable (Destination, inout Resolver) throws -> Void)? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        factory: nonisolated(nonsending) @escaping @Sendable (inout Resolver) async throws -> Destination
    ) throws -> Registration<Destination, Destination> {
        throw RouteError.unavailable(#function)
    }

    /// Unavailable: 0.1.0's labelled options of a router class's registration are modifiers now.
    ///
    /// Write `try registry.register(router: R.self, for: .key)` and chain ``Registration/identifier(_:)``,
    /// ``Registration/asDefault()`` and ``Registration/dependencies(_:)-([RouteDependency])``.
    /// - Parameters:
    ///   - router: The router class.
    ///   - key: The key it serves.
    ///   - identifier: Give it to ``Registration/identifier(_:)``.
    ///   - isDefault: Call ``Registration/asDefault()``.
    ///   - dependencies: Give them to ``Registration/dependencies(_:)-([RouteDependency])``.
    ///   - file: The registering file.
    ///   - line: The registering line.
    /// - Returns: Never returns: the call does not compile.
    /// - Throws: Always, should it ever be reached: the call does not compile.
    @available(
        *, unavailable,
        message:
            "the labels are modifiers now: register(router: R.self, for: .key) then .identifier(\"…\"), .asDefault(), .dependencies(…)"
    )
    @discardableResult
    public func register<R: ServiceRouter<Destination, Configuration>, Destination, Configuration>(
        router: R.Type, for key: RoutableService<Destination>, identifier: String? = nil, isDefault: Bool = false,
        dependencies: [RouteDependency] = [], file: StaticString = #fileID, line: UInt = #line
    ) throws -> Registration<Destination, Destination> {
        throw RouteError.unavailable(#function)
    }

    /// Unavailable: an adapter's scope is a modifier now.
    ///
    /// Write `try registry.adapt(.required, to: .provided) { $0 }.scope(.singleton)`.
    /// - Parameters:
    ///   - required: The key asked for.
    ///   - provided: The key whose destination is adapted.
    ///   - scope: Give it to ``Registration/scope(_:)``.
    ///   - file: The registering file.
    ///   - line: The registering line.
    ///   - adapter: Turns the provided destination into the required one.
    /// - Returns: Never returns: the call does not compile.
    /// - Throws: Always, should it ever be reached: the call does not compile.
    @available(
        *, unavailable, message: "scope is a modifier now: adapt(.required, to: .provided) { $0 }.scope(.singleton)"
    )
    @discardableResult
    public func adapt<Required, Provided>(
        _ required: RoutableService<Required>, to provided: RoutableService<Provided>, scope: Scope,
        file: StaticString = #fileID, line: UInt = #line,
        adapter: @escaping @Sendable (Provided) throws -> Required?
    ) throws -> Registration<Required, Required> {
        throw RouteError.unavailable(#function)
    }
}

/// Unavailable: 0.1.0's injections (`.property(\.radio, .radio)`, `.run { destination, r in … }`) are
/// modifiers of the registration now: ``Registration/injecting(_:_:)-(any ReferenceWritableKeyPath<Root,Value>&Sendable,_)``
/// and ``Registration/preparing(declaring:_:)``.
@available(
    *, unavailable,
    message: "injections are modifiers now: .injecting(\\.property, .key) and .preparing { destination, r in … }"
)
public struct RemovedInjection<Destination>: Sendable {
    private init() {}

    /// Unavailable: write `.injecting(\.property, .key)` on the registration.
    /// - Parameters:
    ///   - property: The property.
    ///   - key: The key whose destination is assigned.
    /// - Returns: Never returns: the call does not compile.
    public static func property<Value>(
        _ property: any ReferenceWritableKeyPath<Destination, Value> & Sendable, _ key: RoutableService<Value>
    ) -> Self { Self() }

    /// Unavailable: write `.injecting(\.property, .key)` on the registration.
    /// - Parameters:
    ///   - property: The optional property.
    ///   - key: The key whose destination is assigned.
    /// - Returns: Never returns: the call does not compile.
    public static func property<Value>(
        _ property: any ReferenceWritableKeyPath<Destination, Value?> & Sendable, _ key: RoutableService<Value>
    ) -> Self { Self() }

    /// Unavailable: write `.preparing(declaring:) { destination, r in … }` on the registration.
    /// - Parameters:
    ///   - dependencies: The keys the closure resolves.
    ///   - apply: The injection.
    /// - Returns: Never returns: the call does not compile.
    public static func run(
        declaring dependencies: RouteDependency? = nil,
        _ apply: @escaping @Sendable (Destination, inout Resolver) throws -> Void
    ) -> Self { Self() }
}

extension Registration {
    /// Unavailable: property injection into a destination that is not a class.
    ///
    /// An injection sets a property of the object the factory made, after it is made; a value type's copy
    /// would be set instead. Make the destination's protocol class-bound (`: AnyObject`), or set the value in
    /// the factory.
    /// - Parameters:
    ///   - property: A writable key path of a destination that is not a class.
    ///   - key: The key whose destination would be assigned.
    /// - Returns: Never returns: the call does not compile.
    /// - Throws: Always, should it ever be reached: the call does not compile.
    @available(
        *, unavailable,
        message: "injecting sets a property of a class: make the protocol class-bound (: AnyObject)"
    )
    @discardableResult
    public func injecting<Value>(
        _ property: WritableKeyPath<Root, Value>, _ key: RoutableService<Value>
    ) throws -> Self {
        throw RouteError.unavailable(#function)
    }

    /// Unavailable: injection into an optional property of a destination that is not a class.
    ///
    /// An injection sets a property of the object the factory made, after it is made; a value type's copy
    /// would be set instead. Make the destination's protocol class-bound (`: AnyObject`), or set the value in
    /// the factory.
    /// - Parameters:
    ///   - property: A writable key path of a destination that is not a class.
    ///   - key: The key whose destination would be assigned.
    /// - Returns: Never returns: the call does not compile.
    /// - Throws: Always, should it ever be reached: the call does not compile.
    @available(
        *, unavailable,
        message: "injecting sets a property of a class: make the protocol class-bound (: AnyObject)"
    )
    @discardableResult
    public func injecting<Value>(
        _ property: WritableKeyPath<Root, Value?>, _ key: RoutableService<Value>
    ) throws -> Self {
        throw RouteError.unavailable(#function)
    }
}
