extension RouteRegistry {
    /// Joins a protocol one module *requires* to a protocol another module *provides*, in the app's
    /// wiring rather than in either module: lookups of `required` reach `provided`'s router, and `adapter`
    /// converts where the shapes differ.
    ///
    /// ```swift
    /// // Checkout requires PaymentProcessing; the Payments module provides PaymentGateway.
    /// try registry.adapt(.paymentProcessing, to: .paymentGateway) { gateway in
    ///     GatewayPaymentProcessor(gateway: gateway)
    /// }
    /// ```
    ///
    /// Sealing reports an adapter whose provided key has no router. The adapted instances are transient
    /// unless a modifier says otherwise (the provided destination keeps its own scope).
    ///
    /// The adapter closure is compiled like any function: `{ $0 }` compiles exactly when the provided
    /// protocol refines the required one (or the provided type otherwise converts to it implicitly). When
    /// the provided destination conforms only at run time, cast: `{ $0 as? RequiredLogin }`; a nil result
    /// fails the lookup with ``RouteError/Code/destinationTypeMismatch``, naming both protocols.
    /// - Parameters:
    ///   - required: The key the requiring module looks up.
    ///   - provided: The key the providing module registers.
    ///   - file: The registering file, for messages (leave the default).
    ///   - line: The registering line, for messages (leave the default).
    ///   - adapter: Turns the provided destination into the required one.
    /// - Returns: The registration, to modify.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed.
    @discardableResult
    public func adapt<Required, Provided>(
        _ required: RoutableService<Required>, to provided: RoutableService<Provided>,
        file: StaticString = #fileID, line: UInt = #line,
        adapter: @escaping @Sendable (Provided) throws -> Required?
    ) throws -> Registration<Required, Required> {
        let requiredKey = required.keyDescription
        let providedKey = provided.keyDescription
        var spec = RegistrationSpec<Required> { resolver in
            let made = try resolver.resolve(provided)
            if let adapted = try adapter(made) { return adapted }
            throw RouteError.adapterGaveNil(
                requiredKey, from: providedKey, made: type(of: made as Any), requiredType: Required.self,
                path: resolver.pathHere(requiredKey.short))
        }
        spec.dependencies = [.initializer(provided)]
        spec.adapterTarget = providedKey
        return try add(id: required.id, key: requiredKey, file: file, line: line, spec: spec)
    }
}
