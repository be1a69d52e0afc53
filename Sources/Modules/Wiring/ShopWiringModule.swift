import AccountFeature
import CartFeature
import ChatFeature
import CheckoutFeature
import PaymentsFeature
import Router
import ShopInterfaces

/// Joins modules that do not know each other: checkout's ``PaymentProcessing`` is served by the
/// payments module's ``PaymentGateway`` through a module adapter, and the screens that need a signed-in
/// user are guarded by a ``SignInRequired`` interceptor.
public struct ShopWiringModule: RouteModule {
    /// Makes the module.
    public init() {}

    /// Adapts ``RoutableService/paymentProcessing`` to ``RoutableService/paymentGateway`` and adds the
    /// sign-in interceptor for the cart, checkout and chat screens (and so for every path to them).
    /// - Parameter registry: The registry being assembled.
    /// - Throws: ``RouteError`` when the registry is sealed.
    public func register(in registry: RouteRegistry) throws {
        try registry.adapt(.paymentProcessing, to: .paymentGateway) { gateway in
            GatewayPaymentProcessor(gateway: gateway)
        }
        let protected = [RouteKey(.cartScreen), RouteKey(.checkoutScreen), RouteKey(.chatScreen)]
        registry.addInterceptor(
            SignInRequired(keys: protected) { [weak registry] in
                try registry?.makeDestinationIfRegistered(to: .userSession)
            })
    }
}

/// Presents a payment gateway as the payment processing checkout asks for.
private final class GatewayPaymentProcessor: PaymentProcessing {
    private let gateway: any PaymentGateway

    init(gateway: any PaymentGateway) {
        self.gateway = gateway
    }

    func pay(amountCents: Int, customer: String) -> PaymentOutcome {
        let charge = gateway.charge(cents: amountCents, customer: customer)
        return charge.approved ? .paid(confirmation: charge.transactionID) : .declined(reason: charge.message)
    }
}
