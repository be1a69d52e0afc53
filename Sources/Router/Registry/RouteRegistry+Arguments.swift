extension RouteRegistry {
    /// Registers a factory that takes runtime arguments, given at each lookup and checked by type.
    ///
    /// ```swift
    /// try registry.register(.greeting, arguments: String.self, Int.self) { r, name, times in
    ///     GreetingImpl(text: String(repeating: "Hi \(name)! ", count: times))
    /// }
    /// let greeting = try registry.makeDestination(to: .greeting, arguments: "Ann", 2)
    /// ```
    ///
    /// A lookup whose arguments differ in number or type fails with ``RouteError/Code/argumentMismatch``,
    /// naming the expected and the given types; it never gives nil.
    /// - Parameters:
    ///   - key: The key the factory serves.
    ///   - arguments: The argument types, in order.
    ///   - scope: How long instances live (default ``Scope/transient``); a shared instance keeps the
    ///     arguments of the lookup that built it.
    ///   - identifier: A string under which the destination can also be looked up.
    ///   - isDefault: Whether a single lookup picks this registration when the key has several.
    ///   - dependencies: Keys the factory resolves, declared for validation and graph export.
    ///   - injections: Property and method injections, run after creation in this order.
    ///   - prepare: The router's preparation hook, run after `injections`.
    ///   - didFinishPrepare: Runs once every preparation of the destination has run.
    ///   - factory: Makes the destination from the resolver and the arguments.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed.
    public func register<Destination, each Argument>(
        _ key: RoutableService<Destination>,
        arguments: repeat (each Argument).Type,
        scope: Scope = .transient,
        identifier: String? = nil,
        isDefault: Bool = false,
        dependencies: [RouteDependency] = [],
        injections: [Injection<Destination>] = [],
        prepare: (@Sendable (Destination, inout Resolver) throws -> Void)? = nil,
        didFinishPrepare: (@Sendable (Destination, inout Resolver) throws -> Void)? = nil,
        factory: @escaping @Sendable (inout Resolver, repeat each Argument) throws -> Destination
    ) throws {
        let steps = injections + (prepare.map { [Injection.run($0)] } ?? [])
        let expected = TypeName.arguments((repeat each Argument).self)
        let keyName = key.keyDescription.full
        try add { order, owner in
            Entry(
                id: key.id, key: key.keyDescription, scope: scope, order: order, dependencies: dependencies,
                identifier: identifier, isDefault: isDefault, owner: owner, injections: steps,
                didFinish: didFinishPrepare, argumentTypes: expected
            ) { resolver in
                let given = resolver.input
                resolver.input = nil
                guard let given else {
                    throw RouteError(
                        .argumentMismatch, key: keyName, path: resolver.pathHere(key.keyDescription.short),
                        reason: "\(keyName) takes the arguments \(expected), but none were given.",
                        hint: "Pass them with makeDestination(to:arguments:) or resolve(_:arguments:).")
                }
                guard let arguments = given as? (repeat each Argument) else {
                    throw RouteError(
                        .argumentMismatch, key: keyName, path: resolver.pathHere(key.keyDescription.short),
                        reason:
                            "\(keyName) takes the arguments \(expected), but was given \(TypeName.arguments(type(of: given))).",
                        hint: "Pass arguments of exactly these types, in this order.")
                }
                return try factory(&resolver, repeat each arguments)
            }
        }
    }

    /// Makes the destination of a key registered with arguments.
    ///
    /// - Parameters:
    ///   - key: The key.
    ///   - arguments: The arguments for the factory, in order.
    /// - Returns: The prepared destination.
    /// - Throws: ``RouteError``; ``RouteError/Code/argumentMismatch`` when the arguments differ from those
    ///   registered, in number or type.
    public func makeDestination<Destination, each Argument>(
        to key: RoutableService<Destination>, arguments: repeat each Argument
    ) throws -> Destination {
        do {
            var resolver = Resolver(table: try table())
            let entry = try resolver.entry(for: key)
            try resolver.checkTakesArguments(entry, given: (repeat each arguments))
            return try resolver.buildTopLevel(entry, configuration: nil, arguments: (repeat each arguments))
        } catch {
            throw report(error)
        }
    }
}

extension Resolver {
    /// Resolves a key registered with arguments.
    ///
    /// - Parameters:
    ///   - key: The key.
    ///   - arguments: The arguments for the factory, in order.
    /// - Returns: The destination.
    /// - Throws: ``RouteError``; ``RouteError/Code/argumentMismatch`` when the arguments differ from those
    ///   registered.
    public mutating func resolve<Destination, each Argument>(
        _ key: RoutableService<Destination>, arguments: repeat each Argument
    ) throws -> Destination {
        let entry = try entry(for: key)
        try checkTakesArguments(entry, given: (repeat each arguments))
        input = (repeat each arguments)
        defer { input = nil }
        return try build(entry)
    }

    func checkTakesArguments(_ entry: AnyEntry, given: Any) throws {
        guard entry.argumentTypes == nil else { return }
        throw RouteError(
            .argumentMismatch, key: entry.key.full, path: pathTo(entry.key.short),
            reason:
                "\(entry.key.full) takes no arguments, but was given \(TypeName.arguments(type(of: given))).",
            hint: "Look it up with makeDestination(to:) or resolve(_:), or register it with arguments:.")
    }
}

extension TypeName {
    /// An argument list as it reads in code: `(String, Int)`, `(String)`, `()`.
    static func arguments(_ type: Any.Type) -> String {
        let name = String(describing: type)
        return name.hasPrefix("(") ? name : "(\(name))"
    }
}
