import Router
import ShopInterfaces
import Synchronization

/// Registers checkout, the per-user order history, a badge counter for placed orders and the checkout
/// screen, which places the order and shows the receipt.
///
/// Checkout looks up ``RoutableService/paymentProcessing`` lazily (only when there is something to pay),
/// and this module does not provide it: the app wiring adapts a payment provider to it.
public struct CheckoutModule: UserScopedModule {
    /// The scope that holds the signed-in user's order history.
    public let userScope: CustomScope

    /// Makes the module.
    /// - Parameter userScope: The per-user scope, reset on sign-out.
    public init(userScope: CustomScope = .user) {
        self.userScope = userScope
    }

    /// Registers ``RoutableService/checkout``, ``RoutableService/orderHistory``, a
    /// ``RoutableService/badgeCounter`` labelled `orders` and ``RoutableService/checkoutScreen``.
    /// - Parameter registry: The registry being assembled.
    /// - Throws: ``RouteError`` when the registry is sealed.
    public func register(in registry: RouteRegistry) throws {
        try registry.register(.orderHistory) { _ in OrderList() }.scope(.custom(userScope))
        try registry.register(.checkout) { r in
            guard let user = try r.resolve(.userSession).currentUser else { throw CheckoutFailure.signedOut }
            return CartCheckout(
                customer: user,
                cart: try r.resolve(.cart) { $0.constructCart(owner: user) },
                payment: try r.lazy(.paymentProcessing),
                history: try r.resolve(.orderHistory))
        }.dependencies(
            .initializer(.userSession), .initializer(.cart), .lazy(.paymentProcessing),
            .initializer(.orderHistory))
        try registry.register(.badgeCounter) { r in
            guard try r.resolveIfRegistered(.userSession)?.currentUser != nil else { return OrdersBadge(count: 0) }
            return OrdersBadge(count: try r.resolve(.orderHistory).receipts.count)
        }.dependencies(.initializer(.userSession), .initializer(.orderHistory))
        try registry.register(.checkoutScreen) { r in
            ReceiptPage(receipt: try r.resolve(.checkout).placeOrder())
        }.dependencies(.initializer(.checkout))
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
    let checkoutModuleRecord: RouteModuleRecord = (1, 50, { ModuleDiscovery.export(CheckoutModule()) })
#endif

private final class OrderList: OrderHistory {
    private let list = Mutex<[Receipt]>([])

    var receipts: [Receipt] { list.withLock { $0 } }

    func record(_ receipt: Receipt) { list.withLock { $0.append(receipt) } }
}

private final class CartCheckout: Checkout {
    let customer: String
    let cart: any Cart
    let payment: Lazy<any PaymentProcessing>
    let history: any OrderHistory

    init(customer: String, cart: any Cart, payment: Lazy<any PaymentProcessing>, history: any OrderHistory) {
        self.customer = customer
        self.cart = cart
        self.payment = payment
        self.history = history
    }

    func placeOrder() throws -> Receipt {
        let items = cart.items
        guard !items.isEmpty else { throw CheckoutFailure.emptyCart }
        let total = items.reduce(0) { $0 + $1.priceCents }
        switch try payment.value.pay(amountCents: total, customer: customer) {
        case .declined(let reason):
            throw CheckoutFailure("Payment declined: \(reason). Your cart is unchanged.")
        case .paid(let confirmation):
            let receipt = Receipt(
                orderNumber: history.receipts.count + 1, customer: customer, titles: items.map(\.title),
                totalCents: total, confirmation: confirmation)
            history.record(receipt)
            cart.removeAll()
            return receipt
        }
    }
}

private final class ReceiptPage: CheckoutScreen {
    let receipt: Receipt

    init(receipt: Receipt) {
        self.receipt = receipt
    }

    var title: String { "Order #\(receipt.orderNumber)" }
    var isModal: Bool { true }

    func render() -> String {
        let count = receipt.titles.count
        return "  Paid \(Money.format(receipt.totalCents)) for \(count) book\(count == 1 ? "" : "s") "
            + "(\(receipt.confirmation)). Thank you, \(receipt.customer)!"
    }
}

private struct OrdersBadge: BadgeCounter {
    let label = "orders"
    let count: Int
}
