// Calls that do not compile, named so that the compiler says how to write them: the labels of the
// registration API before modifiers (scope:, isDefault:, identifier:, dependencies:, prepare:), a module
// key registered without its configuration, an initializer of another type, an arguments factory without
// the resolver, and property injection into a value type. Without these, each gives a list of partially
// matching candidates or no useful message at all. Each one kept here was measured to improve its case
// and to leave every other message unchanged (injections: and a factory missing one argument value were
// tried and did not help); scripts/check-compile-errors.sh pins what they print.

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

extension RouteError {
    /// What an unavailable overload throws, should it ever be reached (it cannot be called from source):
    /// a typed error rather than a trap.
    static func unavailable(_ function: String) -> RouteError {
        RouteError(
            .factoryFailed, key: function,
            reason: "\(function) is unavailable: its options are Registration modifiers now.",
            hint: "Register with register(_:factory:) and chain the modifiers.")
    }
}
