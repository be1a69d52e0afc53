/// Auto-wiring: an initializer registered as the factory, each parameter resolved by its type's key and
/// recorded as a dependency, so that sealing checks it and the graph shows it.
extension RouteRegistry {
    /// Registers an initializer as the factory: each parameter is looked up by its type's key, and those
    /// keys are recorded as the registration's dependencies, so sealing checks them and the graph shows
    /// them without a `dependencies` list.
    ///
    /// ```swift
    /// final class CarImpl: Car { init(engine: any Engine, radio: any Radio) { … } }
    /// try registry.register(.car, initializer: CarImpl.init)   // resolves .engine and .radio
    /// ```
    ///
    /// A parameter of type `P` is resolved as `RoutableService<P>` without a tag or name; for tagged keys,
    /// arguments, ``Lazy`` or many-at-once, write the factory as a closure.
    ///
    /// This form takes any number of parameters. Initializers of one to six parameters pick an overload of
    /// their own, which does the same with fixed generic parameters: the compiler specialises their lookups
    /// (it does not specialise a lookup inside a parameter pack's expansion, which then pays a runtime
    /// metadata lookup per parameter, about four times the instructions of the closure form).
    /// - Parameters:
    ///   - key: The key the initializer serves.
    ///   - initializer: Any function from the dependencies to the destination, usually `SomeClass.init`.
    ///   - file: The registering file, for messages (leave the default).
    ///   - line: The registering line, for messages (leave the default).
    /// - Returns: The registration, to modify.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed.
    @inlinable @discardableResult
    public func register<Destination, each Parameter>(
        _ key: RoutableService<Destination>,
        initializer: @escaping @Sendable (repeat each Parameter) throws -> Destination,
        file: StaticString = #fileID, line: UInt = #line
    ) throws -> Registration<Destination, Destination> {
        var dependencies: [RouteDependency] = []
        repeat dependencies.append(.wired((each Parameter).self))
        let optionals = WiredOptionals(repeat (each Parameter).self)
        let registration = try register(key, file: file, line: line) { resolver in
            var position = 0
            return try initializer(
                repeat try resolver.resolveWired(
                    (each Parameter).self, optional: optionals.isOptional((each Parameter).self, at: &position)))
        }
        return try registration.wiredDependencies(dependencies)
    }

    /// `register(_:initializer:file:line:)` for an initializer of 1
    /// parameter, with its lookups specialised.
    /// - Parameters:
    ///   - key: The key the initializer serves.
    ///   - initializer: A function from the dependencies to the destination, usually `SomeClass.init`.
    ///   - file: The registering file, for messages (leave the default).
    ///   - line: The registering line, for messages (leave the default).
    /// - Returns: The registration, to modify.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed.
    @inlinable @discardableResult
    public func register<Destination, First>(
        _ key: RoutableService<Destination>, initializer: @escaping @Sendable (First) throws -> Destination,
        file: StaticString = #fileID, line: UInt = #line
    ) throws -> Registration<Destination, Destination> {
        let firstOptional = First.self is any WiredOptional.Type
        return try register(key, file: file, line: line) { r in
            try initializer(try r.resolveWired(First.self, optional: firstOptional))
        }.wiredDependencies([.wired(First.self)])
    }

    /// `register(_:initializer:file:line:)` for an initializer of 2
    /// parameters, with its lookups specialised.
    /// - Parameters:
    ///   - key: The key the initializer serves.
    ///   - initializer: A function from the dependencies to the destination, usually `SomeClass.init`.
    ///   - file: The registering file, for messages (leave the default).
    ///   - line: The registering line, for messages (leave the default).
    /// - Returns: The registration, to modify.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed.
    @inlinable @discardableResult
    public func register<Destination, First, Second>(
        _ key: RoutableService<Destination>, initializer: @escaping @Sendable (First, Second) throws -> Destination,
        file: StaticString = #fileID, line: UInt = #line
    ) throws -> Registration<Destination, Destination> {
        let firstOptional = First.self is any WiredOptional.Type
        let secondOptional = Second.self is any WiredOptional.Type
        return try register(key, file: file, line: line) { r in
            try initializer(
                try r.resolveWired(First.self, optional: firstOptional),
                try r.resolveWired(Second.self, optional: secondOptional))
        }.wiredDependencies([.wired(First.self), .wired(Second.self)])
    }

    /// `register(_:initializer:file:line:)` for an initializer of 3
    /// parameters, with its lookups specialised.
    /// - Parameters:
    ///   - key: The key the initializer serves.
    ///   - initializer: A function from the dependencies to the destination, usually `SomeClass.init`.
    ///   - file: The registering file, for messages (leave the default).
    ///   - line: The registering line, for messages (leave the default).
    /// - Returns: The registration, to modify.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed.
    @inlinable @discardableResult
    public func register<Destination, First, Second, Third>(
        _ key: RoutableService<Destination>,
        initializer: @escaping @Sendable (First, Second, Third) throws -> Destination,
        file: StaticString = #fileID, line: UInt = #line
    ) throws -> Registration<Destination, Destination> {
        let firstOptional = First.self is any WiredOptional.Type
        let secondOptional = Second.self is any WiredOptional.Type
        let thirdOptional = Third.self is any WiredOptional.Type
        return try register(key, file: file, line: line) { r in
            try initializer(
                try r.resolveWired(First.self, optional: firstOptional),
                try r.resolveWired(Second.self, optional: secondOptional),
                try r.resolveWired(Third.self, optional: thirdOptional))
        }.wiredDependencies([.wired(First.self), .wired(Second.self), .wired(Third.self)])
    }

    /// `register(_:initializer:file:line:)` for an initializer of 4
    /// parameters, with its lookups specialised.
    /// - Parameters:
    ///   - key: The key the initializer serves.
    ///   - initializer: A function from the dependencies to the destination, usually `SomeClass.init`.
    ///   - file: The registering file, for messages (leave the default).
    ///   - line: The registering line, for messages (leave the default).
    /// - Returns: The registration, to modify.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed.
    @inlinable @discardableResult
    public func register<Destination, First, Second, Third, Fourth>(
        _ key: RoutableService<Destination>,
        initializer: @escaping @Sendable (First, Second, Third, Fourth) throws -> Destination,
        file: StaticString = #fileID, line: UInt = #line
    ) throws -> Registration<Destination, Destination> {
        let firstOptional = First.self is any WiredOptional.Type
        let secondOptional = Second.self is any WiredOptional.Type
        let thirdOptional = Third.self is any WiredOptional.Type
        let fourthOptional = Fourth.self is any WiredOptional.Type
        return try register(key, file: file, line: line) { r in
            try initializer(
                try r.resolveWired(First.self, optional: firstOptional),
                try r.resolveWired(Second.self, optional: secondOptional),
                try r.resolveWired(Third.self, optional: thirdOptional),
                try r.resolveWired(Fourth.self, optional: fourthOptional))
        }.wiredDependencies([.wired(First.self), .wired(Second.self), .wired(Third.self), .wired(Fourth.self)])
    }

    /// `register(_:initializer:file:line:)` for an initializer of 5
    /// parameters, with its lookups specialised.
    /// - Parameters:
    ///   - key: The key the initializer serves.
    ///   - initializer: A function from the dependencies to the destination, usually `SomeClass.init`.
    ///   - file: The registering file, for messages (leave the default).
    ///   - line: The registering line, for messages (leave the default).
    /// - Returns: The registration, to modify.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed.
    @inlinable @discardableResult
    public func register<Destination, First, Second, Third, Fourth, Fifth>(
        _ key: RoutableService<Destination>,
        initializer: @escaping @Sendable (First, Second, Third, Fourth, Fifth) throws -> Destination,
        file: StaticString = #fileID, line: UInt = #line
    ) throws -> Registration<Destination, Destination> {
        let firstOptional = First.self is any WiredOptional.Type
        let secondOptional = Second.self is any WiredOptional.Type
        let thirdOptional = Third.self is any WiredOptional.Type
        let fourthOptional = Fourth.self is any WiredOptional.Type
        let fifthOptional = Fifth.self is any WiredOptional.Type
        return try register(key, file: file, line: line) { r in
            try initializer(
                try r.resolveWired(First.self, optional: firstOptional),
                try r.resolveWired(Second.self, optional: secondOptional),
                try r.resolveWired(Third.self, optional: thirdOptional),
                try r.resolveWired(Fourth.self, optional: fourthOptional),
                try r.resolveWired(Fifth.self, optional: fifthOptional))
        }.wiredDependencies([
            .wired(First.self), .wired(Second.self), .wired(Third.self), .wired(Fourth.self), .wired(Fifth.self),
        ])
    }

    /// `register(_:initializer:file:line:)` for an initializer of 6
    /// parameters, with its lookups specialised.
    /// - Parameters:
    ///   - key: The key the initializer serves.
    ///   - initializer: A function from the dependencies to the destination, usually `SomeClass.init`.
    ///   - file: The registering file, for messages (leave the default).
    ///   - line: The registering line, for messages (leave the default).
    /// - Returns: The registration, to modify.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed.
    @inlinable @discardableResult
    public func register<Destination, First, Second, Third, Fourth, Fifth, Sixth>(
        _ key: RoutableService<Destination>,
        initializer: @escaping @Sendable (First, Second, Third, Fourth, Fifth, Sixth) throws -> Destination,
        file: StaticString = #fileID, line: UInt = #line
    ) throws -> Registration<Destination, Destination> {
        let firstOptional = First.self is any WiredOptional.Type
        let secondOptional = Second.self is any WiredOptional.Type
        let thirdOptional = Third.self is any WiredOptional.Type
        let fourthOptional = Fourth.self is any WiredOptional.Type
        let fifthOptional = Fifth.self is any WiredOptional.Type
        let sixthOptional = Sixth.self is any WiredOptional.Type
        return try register(key, file: file, line: line) { r in
            try initializer(
                try r.resolveWired(First.self, optional: firstOptional),
                try r.resolveWired(Second.self, optional: secondOptional),
                try r.resolveWired(Third.self, optional: thirdOptional),
                try r.resolveWired(Fourth.self, optional: fourthOptional),
                try r.resolveWired(Fifth.self, optional: fifthOptional),
                try r.resolveWired(Sixth.self, optional: sixthOptional))
        }.wiredDependencies([
            .wired(First.self), .wired(Second.self), .wired(Third.self), .wired(Fourth.self), .wired(Fifth.self),
            .wired(Sixth.self),
        ])
    }
}

extension RoutableService {
    /// The key an auto-wired initializer parameter of type `Destination` is looked up by: the untagged,
    /// unnamed key of its type, the same identity as the declared key (see ``init(declaring:)``).
    @inlinable
    init(wiring: Destination.Type) {
        self.init(id: KeyID(type: ObjectIdentifier(Destination.self), kind: .service), tag: nil)
    }
}

extension RouteDependency {
    /// The dependency of an auto-wired initializer parameter of type `Destination`: an optional one on
    /// the wrapped type's key when `Destination` is an `Optional`.
    @inlinable
    static func wired<Destination>(_ type: Destination.Type) -> Self {
        if let optional = type as? any WiredOptional.Type { return optional.wiredDependency }
        return .initializer(RoutableService<Destination>(wiring: type)).lookedUpWithoutArguments
    }
}

/// An auto-wired initializer parameter the destination does without: `Optional`, resolved as its wrapped
/// type's key with ``Resolver/resolveIfRegistered(_:)`` (nil only when nothing is registered; every other
/// failure is thrown), and declared as an optional dependency.
@usableFromInline
protocol WiredOptional {
    /// The optional dependency on the wrapped type's key.
    static var wiredDependency: RouteDependency { get }
    /// The wrapped type's destination, or nil when nothing is registered for it, as an `Optional` in `Any`.
    static func wiredIfRegistered(_ resolver: inout Resolver) throws -> Any
}

extension Optional: WiredOptional {
    @usableFromInline
    static var wiredDependency: RouteDependency {
        RouteDependency.initializer(RoutableService<Wrapped>(wiring: Wrapped.self)).lookedUpWithoutArguments.optional
    }

    @usableFromInline
    static func wiredIfRegistered(_ resolver: inout Resolver) throws -> Any {
        let found: Wrapped? = try resolver.resolveIfRegistered(RoutableService<Wrapped>(wiring: Wrapped.self))
        return found as Any
    }
}

extension Resolver {
    /// An auto-wired parameter of type `Parameter`: its key's destination, or, when `optional` (the
    /// parameter is an `Optional`, decided once at registration), the wrapped key's destination or nil.
    @inlinable @inline(__always)
    mutating func resolveWired<Parameter>(_ type: Parameter.Type, optional: Bool) throws -> Parameter {
        if optional { return try resolveOptionalWired(type) }
        return try resolve(RoutableService<Parameter>(wiring: type))
    }

    @usableFromInline
    mutating func resolveOptionalWired<Parameter>(_ type: Parameter.Type) throws -> Parameter {
        guard let optional = type as? any WiredOptional.Type,
            let made = try optional.wiredIfRegistered(&self) as? Parameter
        else { return try resolve(RoutableService<Parameter>(wiring: type)) }
        return made
    }
}

/// Which parameters of an auto-wired initializer are optional (`(any Engine)?`, looked up only if
/// registered), worked out once at registration: asked at each lookup, the conformance check cost a
/// runtime request per parameter.
@usableFromInline
struct WiredOptionals: Sendable {
    /// Bit `i`: the parameter at `i` is optional (for the first 64; later ones are checked at the lookup).
    @usableFromInline var mask: UInt64 = 0

    @inlinable
    init<each Parameter>(_ types: repeat (each Parameter).Type) {
        var position = 0
        for type in repeat each types {
            if position < 64, type is any WiredOptional.Type { mask |= 1 << UInt64(position) }
            position += 1
        }
    }

    /// Whether the parameter at `position`, of type `type`, is optional; moves `position` to the next.
    @inlinable @inline(__always)
    func isOptional<Parameter>(_ type: Parameter.Type, at position: inout Int) -> Bool {
        defer { position += 1 }
        guard position < 64 else { return type is any WiredOptional.Type }
        return mask & (1 << UInt64(position)) != 0
    }
}
