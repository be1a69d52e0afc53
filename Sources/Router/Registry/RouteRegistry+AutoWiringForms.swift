/// How one parameter of an auto-wired initializer is looked up: by its type's key (``type``), or by a key
/// you name, tagged or named (``key(_:)``). The key is recorded as the registration's dependency, so
/// sealing checks it and the graph shows it.
///
/// ```swift
/// enum Diesel {}
/// try registry.register(.car, initializer: CarImpl.init, wiring: .key(.engine.tagged(Diesel.self)), .type)
/// ```
public struct Wiring<Dependency>: Sendable {
    /// The key the parameter is resolved by.
    public let key: RoutableService<Dependency>

    /// The parameter is resolved by its type's key, untagged and unnamed (what plain auto-wiring does).
    public static var type: Self { Self(key: RoutableService<Dependency>(wiring: Dependency.self)) }

    /// The parameter is resolved by `key`, typically a tagged or named key.
    /// - Parameter key: The key.
    /// - Returns: The wiring.
    public static func key(_ key: RoutableService<Dependency>) -> Self { Self(key: key) }
}

extension RouteRegistry {
    /// Registers an initializer as the factory, each parameter looked up by the key its ``Wiring`` says:
    /// for initializers whose parameters come from tagged or named keys.
    ///
    /// ```swift
    /// try registry.register(.car, initializer: CarImpl.init, wiring: .key(.engine.tagged(Diesel.self)), .type)
    /// ```
    /// - Parameters:
    ///   - key: The key the initializer serves.
    ///   - initializer: A function from the dependencies to the destination, usually `SomeClass.init`.
    ///   - wiring: One ``Wiring`` per parameter, in order.
    ///   - file: The registering file, for messages (leave the default).
    ///   - line: The registering line, for messages (leave the default).
    /// - Returns: The registration, to modify.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed.
    @inlinable @discardableResult
    public func register<Destination, each Parameter>(
        _ key: RoutableService<Destination>,
        initializer: @escaping @Sendable (repeat each Parameter) throws -> Destination,
        wiring: repeat Wiring<each Parameter>,
        file: StaticString = #fileID, line: UInt = #line
    ) throws -> Registration<Destination, Destination> {
        let keys = (repeat (each wiring).key)
        var dependencies: [RouteDependency] = []
        repeat dependencies.append(RouteDependency.initializer(each keys).lookedUpWithoutArguments)
        return try register(key, file: file, line: line) { resolver in
            try initializer(repeat try resolver.resolve(each keys))
        }.wiredDependencies(dependencies)
    }

    /// Registers an initializer as the factory, each parameter looked up by its type's key, with the
    /// modifiers working on `implementation`'s members: `.injecting(\.radio, .radio)` for a property the
    /// protocol does not have.
    ///
    /// ```swift
    /// try registry.register(.car, as: CarImpl.self, initializer: CarImpl.init).injecting(\.radio, .radio)
    /// ```
    /// - Parameters:
    ///   - key: The key the initializer serves.
    ///   - implementation: The class the destination is, for the modifiers.
    ///   - initializer: A function from the dependencies to the destination, usually `SomeClass.init`.
    ///   - file: The registering file, for messages (leave the default).
    ///   - line: The registering line, for messages (leave the default).
    /// - Returns: The registration, to modify.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed.
    @inlinable @discardableResult
    public func register<Destination, Implementation: AnyObject, each Parameter>(
        _ key: RoutableService<Destination>, as implementation: Implementation.Type,
        initializer: @escaping @Sendable (repeat each Parameter) throws -> Destination,
        file: StaticString = #fileID, line: UInt = #line
    ) throws -> Registration<Destination, Implementation> {
        var dependencies: [RouteDependency] = []
        repeat dependencies.append(.wired((each Parameter).self))
        return try register(key, as: implementation, file: file, line: line) { resolver in
            try initializer(repeat try resolver.resolve(RoutableService<each Parameter>(wiring: (each Parameter).self)))
        }.wiredDependencies(dependencies)
    }

    /// Registers a main-actor initializer as the factory (a view model's, a screen's), each parameter
    /// looked up by its type's key. Like ``registerOnMainActor(_:file:line:factory:)``, a lookup that is
    /// not made from main-actor code fails with ``RouteError/Code/mainActorRequired``.
    ///
    /// ```swift
    /// @MainActor final class ProfileModel { init(session: any UserSession) { … } }
    /// try registry.registerOnMainActor(.profileModel, initializer: ProfileModel.init)
    /// ```
    /// - Parameters:
    ///   - key: The key the initializer serves.
    ///   - initializer: A main-actor function from the dependencies to the destination.
    ///   - file: The registering file, for messages (leave the default).
    ///   - line: The registering line, for messages (leave the default).
    /// - Returns: The registration, to modify.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed.
    @inlinable @discardableResult
    public func registerOnMainActor<Destination, each Parameter>(
        _ key: RoutableService<Destination>,
        initializer: @escaping @MainActor @Sendable (repeat each Parameter) throws -> Destination,
        file: StaticString = #fileID, line: UInt = #line
    ) throws -> Registration<Destination, Destination> {
        var dependencies: [RouteDependency] = []
        repeat dependencies.append(.wired((each Parameter).self))
        return try registerOnMainActor(key, file: file, line: line) { resolver in
            try initializer(repeat try resolver.resolve(RoutableService<each Parameter>(wiring: (each Parameter).self)))
        }.wiredDependencies(dependencies)
    }

    /// ``registerOnMainActor(_:initializer:file:line:)`` with the modifiers working on `implementation`'s
    /// members.
    /// - Parameters:
    ///   - key: The key the initializer serves.
    ///   - implementation: The class the destination is, for the modifiers.
    ///   - initializer: A main-actor function from the dependencies to the destination.
    ///   - file: The registering file, for messages (leave the default).
    ///   - line: The registering line, for messages (leave the default).
    /// - Returns: The registration, to modify.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed.
    @inlinable @discardableResult
    public func registerOnMainActor<Destination, Implementation: AnyObject, each Parameter>(
        _ key: RoutableService<Destination>, as implementation: Implementation.Type,
        initializer: @escaping @MainActor @Sendable (repeat each Parameter) throws -> Destination,
        file: StaticString = #fileID, line: UInt = #line
    ) throws -> Registration<Destination, Implementation> {
        var dependencies: [RouteDependency] = []
        repeat dependencies.append(.wired((each Parameter).self))
        return try registerOnMainActor(key, as: implementation, file: file, line: line) { resolver in
            try initializer(repeat try resolver.resolve(RoutableService<each Parameter>(wiring: (each Parameter).self)))
        }.wiredDependencies(dependencies)
    }
}
