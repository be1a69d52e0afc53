import Router
import ShopInterfaces
import Synchronization

/// Registers a simulated gateway: it approves charges up to the card limit and numbers transactions from `TX-1001`.
public struct PaymentsModule: ShopFeatureModule {
    /// The largest charge the simulated card accepts, in cents.
    public let cardLimitCents: Int

    /// Makes the module.
    /// - Parameter cardLimitCents: The largest charge approved (default $200.00).
    public init(cardLimitCents: Int = 20_000) {
        self.cardLimitCents = cardLimitCents
    }

    /// Registers ``RoutableService/paymentGateway``.
    /// - Parameter registry: The registry being assembled.
    /// - Throws: ``RouteError`` when the registry is sealed.
    public func register(in registry: RouteRegistry) throws {
        let limit = cardLimitCents
        try registry.register(.paymentGateway) { _ in SimulatedGateway(limit: limit) }.scope(.singleton)
    }
}

// Discoverable: the app finds this module by its record, without naming it (see `ModuleDiscovery`); the
// order number keeps the load order, and with it the badge's parts and the graph's roots, as it was.
#if compiler(>=6.3)
    #if objectFormat(MachO)
        @used @section("__DATA_CONST,__router_modules")
    #else
        @used @section("router_modules")
    #endif
    let paymentsModuleRecord: RouteModuleRecord = (1, 40, { ModuleDiscovery.export(PaymentsModule()) })
#endif

private final class SimulatedGateway: PaymentGateway {
    private let limit: Int
    private let lastTransaction = Mutex(1_000)

    init(limit: Int) {
        self.limit = limit
    }

    func charge(cents: Int, customer: String) -> GatewayCharge {
        guard cents > 0 else {
            return GatewayCharge(approved: false, transactionID: "", message: "nothing to charge")
        }
        guard cents <= limit else {
            return GatewayCharge(
                approved: false, transactionID: "",
                message: "\(Money.format(cents)) is over \(customer)'s card limit of \(Money.format(limit))")
        }
        let number = lastTransaction.withLock { last in
            last += 1
            return last
        }
        return GatewayCharge(approved: true, transactionID: "TX-\(number)", message: "")
    }
}
