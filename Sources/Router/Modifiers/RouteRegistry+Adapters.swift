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
    /// Sealing reports an adapter whose provided key has no router.
    /// - Parameters:
    ///   - required: The key the requiring module looks up.
    ///   - provided: The key the providing module registers.
    ///   - scope: The scope of the adapted instances (default ``Scope/transient``; the provided destination
    ///     keeps its own scope).
    ///   - adapter: Turns the provided destination into the required one; `{ $0 }` when it already conforms.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed.
    public func adapt<Required, Provided>(
        _ required: RoutableService<Required>, to provided: RoutableService<Provided>, scope: Scope = .transient,
        adapter: @escaping @Sendable (Provided) throws -> Required
    ) throws {
        try add { order, owner in
            Entry(
                id: required.id, key: required.keyDescription, scope: scope, order: order,
                dependencies: [.initializer(provided)], identifier: nil, isDefault: false, owner: owner,
                injections: [], didFinish: nil, adapterTarget: provided.keyDescription
            ) { resolver in
                try adapter(try resolver.resolve(provided))
            }
        }
    }
}
