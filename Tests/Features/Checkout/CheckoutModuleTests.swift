import CheckoutFeature
import Router
import ShopInterfaces
import ShopTestSupport
import Testing

/// Payment processing as checkout requires it, recording the charges: checkout is tested without the
/// payments module, which it cannot see anyway.
final class FakePayment: PaymentProcessing {
    private let calls = TestLocked<[(cents: Int, customer: String)]>([])
    private let outcome: PaymentOutcome

    init(outcome: PaymentOutcome) {
        self.outcome = outcome
    }

    var charges: [Int] { calls.withLock { $0.map(\.cents) } }

    func pay(amountCents: Int, customer: String) -> PaymentOutcome {
        calls.withLock { $0.append((amountCents, customer)) }
        return outcome
    }
}

struct CheckoutModuleTests {
    struct Setup {
        let registry: RouteRegistry
        let cart: FakeCart
        let payment: FakePayment
    }

    /// The checkout module alone, with fakes of everything it requires: session, cart and payment.
    func setup(user: String? = "ann", items: [Book], outcome: PaymentOutcome) throws -> Setup {
        let cart = FakeCart(owner: user ?? "", items: items)
        let payment = FakePayment(outcome: outcome)
        let registry = try testRegistry([CheckoutModule(userScope: CustomScope("user"))]) { registry in
            try registry.registerFakeSession(user: user)
            try registry.registerFakeCart(cart)
            try registry.register(.paymentProcessing) { _ in payment }
        }
        return Setup(registry: registry, cart: cart, payment: payment)
    }

    @Test func placingAnOrderPaysRecordsAndEmptiesTheCart() throws {
        let setup = try setup(items: [sampleBook, otherBook], outcome: .paid(confirmation: "OK-1"))
        let receipt = try setup.registry.makeDestination(to: .checkout).placeOrder()
        #expect(
            receipt
                == Receipt(
                    orderNumber: 1, customer: "ann", titles: ["Test Driven Swift", "Fakes and Stubs"],
                    totalCents: 3_500, confirmation: "OK-1"))
        #expect(setup.payment.charges == [3_500])
        #expect(setup.cart.items.isEmpty)
        #expect(try setup.registry.makeDestination(to: .orderHistory).receipts == [receipt])
        #expect(try badgeCounts(in: setup.registry) == ["orders 1"])
    }

    @Test func anEmptyCartIsRefusedWithoutCharging() throws {
        let setup = try setup(items: [], outcome: .paid(confirmation: "OK-1"))
        #expect(throws: CheckoutFailure.emptyCart) { try setup.registry.makeDestination(to: .checkout).placeOrder() }
        let error = #expect(throws: RouteError.self) { try setup.registry.makeDestination(to: .checkoutScreen) }
        #expect(error?.shopMessage as? CheckoutFailure == .emptyCart)
        #expect(setup.payment.charges.isEmpty)
    }

    @Test func aDeclinedPaymentKeepsTheCart() throws {
        let setup = try setup(items: [sampleBook], outcome: .declined(reason: "card expired"))
        #expect(throws: CheckoutFailure("Payment declined: card expired. Your cart is unchanged.")) {
            try setup.registry.makeDestination(to: .checkout).placeOrder()
        }
        #expect(setup.cart.items == [sampleBook])
    }

    @Test func checkoutNeedsASignedInUser() throws {
        let setup = try setup(user: nil, items: [sampleBook], outcome: .paid(confirmation: "OK-1"))
        let error = #expect(throws: RouteError.self) { try setup.registry.makeDestination(to: .checkout) }
        #expect(error?.code == .factoryFailed)
        #expect(error?.underlyingError as? CheckoutFailure == .signedOut)
    }

    @Test func theCheckoutScreenPlacesTheOrderAndShowsTheReceiptModally() throws {
        let setup = try setup(items: [sampleBook, otherBook], outcome: .paid(confirmation: "OK-7"))
        let screen = try setup.registry.makeDestination(to: .checkoutScreen)
        #expect(screen.title == "Order #1")
        #expect(screen.isModal)
        #expect(screen.receipt.confirmation == "OK-7")
        #expect(screen.render() == "  Paid $35.00 for 2 books (OK-7). Thank you, ann!")
        #expect(setup.payment.charges == [3_500])
    }

    @Test func checkoutRequiresPaymentProcessingThatItDoesNotProvide() throws {
        let registry = RouteRegistry()
        try registry.load(CheckoutModule(userScope: CustomScope("user")))
        try registry.registerFakeSession(user: "ann")
        try registry.registerFakeCart(FakeCart(owner: "ann"))
        let problems = try registry.validate().problems.map(\.description)
        #expect(problems.count == 1)
        #expect(problems.first?.contains("RoutableService<PaymentProcessing>") == true)
    }
}
