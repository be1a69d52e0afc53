import Router

/// Joins modules that do not know each other: checkout's ``PaymentProcessing`` is served by the
/// payments module's ``PaymentGateway``.
///
/// Router has no adapter API yet, so the adapter is an ordinary registration whose factory looks the
/// gateway up and wraps it.
public struct ShopWiringModule: DescribedModule {
    /// Makes the module.
    public init() {}

    /// Registers ``RoutableService/paymentProcessing`` as an adapter over ``RoutableService/paymentGateway``.
    /// - Parameter registry: The registry being assembled.
    /// - Throws: ``RouteError`` when the registry is sealed.
    public func register(in registry: RouteRegistry) throws {
        try registry.register(.paymentProcessing, dependencies: [.initializer(.paymentGateway)]) { r in
            GatewayPaymentAdapter(gateway: try r.resolve(.paymentGateway))
        }
    }

    /// What the module provides and uses.
    public var summary: ModuleSummary {
        ModuleSummary(
            name: "ShopWiringModule",
            provides: [
                .init(key: RoutableService.paymentProcessing.description, scope: Scope.transient.description)
            ],
            uses: [RoutableService.paymentGateway.description])
    }
}

/// Presents a payment gateway as the payment processing checkout asks for.
private final class GatewayPaymentAdapter: PaymentProcessing {
    private let gateway: any PaymentGateway

    init(gateway: any PaymentGateway) {
        self.gateway = gateway
    }

    func pay(amountCents: Int, customer: String) -> PaymentOutcome {
        let charge = gateway.charge(cents: amountCents, customer: customer)
        return charge.approved ? .paid(confirmation: charge.transactionID) : .declined(reason: charge.message)
    }
}
