import AccountFeature
import CartFeature
import CatalogFeature
import ChatFeature
import CheckoutFeature
import NotificationsFeature
import PaymentsFeature
import Router
import ShopApp
import ShopInterfaces
import ShopTestSupport
import Testing

/// The features together, as the app wires them: what only the whole shop can show. Each feature's
/// behaviour on its own is tested in its own test target, against fakes.
struct WholeShopTests {
    /// The whole shop with ann signed in and `books` in her cart.
    func shop(with books: [Book]) throws -> RouteRegistry {
        let shop = try shopRegistry()
        _ = try shop.makeDestination(to: .userSession).signIn("ann")
        let cart = try shop.makeDestination(to: .cart) { $0.constructCart(owner: "ann") }
        for book in books { cart.add(book) }
        return shop
    }

    @Test func aDecliningGatewayOverrideReachesCheckoutThroughTheAdapter() throws {
        let shop = try shop(with: [sampleBook])
        let failure = try shop.withOverrides { overrides in
            try overrides.register(.paymentGateway) { _ in DecliningGateway() }
        } operation: {
            #expect(throws: CheckoutFailure.self) { try shop.makeDestination(to: .checkout).placeOrder() }
        }
        #expect(failure == CheckoutFailure("Payment declined: no funds. Your cart is unchanged."))
        let cart = try shop.makeDestination(to: .cart) { $0.constructCart(owner: "ann") }
        #expect(cart.items == [sampleBook])
        // Outside the override the simulated gateway is back.
        #expect(try shop.makeDestination(to: .checkout).placeOrder().confirmation == "TX-1001")
    }

    @Test func theHeaderBadgeAddsUpEveryFeaturesCounter() throws {
        let shop = try shopRegistry()
        #expect(try shop.makeDestination(to: .badge).description == "1 (cart 0, orders 0, news 1, chat 0)")
        let signedIn = try shop.withOverrides { overrides in
            try overrides.register(.userSession) { _ in FakeSession(user: "ann") }
        } operation: {
            try shop.makeDestination(to: .badge)
        }
        #expect(signedIn.description == "1 (cart 0, orders 0, news 0, chat 1)")
    }

    @Test func theChatShownOnTheStackIsMarkedRead() throws {
        let shop = try shopRegistry()
        try shop.withOverrides { overrides in
            try overrides.register(.userSession) { _ in FakeSession(user: "bob") }.scope(.singleton)
        } operation: {
            let navigator = Navigator(stack: ScreenStack())
            #expect(try shop.makeDestination(to: .chatSession).unreadCount == 1)
            try navigator.show(shop.route(to: .chatScreen), name: "chat", as: { $0 })
            #expect(navigator.stack.screens.first?.isModal == true)
            #expect(try shop.makeDestination(to: .chatSession).unreadCount == 0)
            #expect(try shop.makeDestination(to: .badge).description == "0 (cart 0, orders 0, news 0, chat 0)")
        }
    }
}

struct ShopWiringModuleTests {
    @Test func paymentProcessingAdaptsTheGatewayOverride() throws {
        let shop = try shopRegistry()
        let approved = try shop.withOverrides { overrides in
            try overrides.register(.paymentGateway) { _ in
                FakeGateway(answer: GatewayCharge(approved: true, transactionID: "TX-9", message: ""))
            }
        } operation: {
            try shop.makeDestination(to: .paymentProcessing).pay(amountCents: 100, customer: "ann")
        }
        #expect(approved == .paid(confirmation: "TX-9"))
        let declined = try shop.withOverrides { overrides in
            try overrides.register(.paymentGateway) { _ in DecliningGateway() }
        } operation: {
            try shop.makeDestination(to: .paymentProcessing).pay(amountCents: 100, customer: "ann")
        }
        #expect(declined == .declined(reason: "no funds"))
    }

    @Test func paymentProcessingAdaptsTheGatewayInIsolation() throws {
        let approved = try testRegistry([ShopWiringModule()]) { registry in
            try registry.register(.paymentGateway) { _ in
                FakeGateway(answer: GatewayCharge(approved: true, transactionID: "TX-9", message: ""))
            }
        }
        #expect(
            try approved.makeDestination(to: .paymentProcessing).pay(amountCents: 100, customer: "ann")
                == .paid(confirmation: "TX-9"))
        let declined = try testRegistry([ShopWiringModule()]) { registry in
            try registry.register(.paymentGateway) { _ in
                FakeGateway(answer: GatewayCharge(approved: false, transactionID: "", message: "no funds"))
            }
        }
        #expect(
            try declined.makeDestination(to: .paymentProcessing).pay(amountCents: 100, customer: "ann")
                == .declined(reason: "no funds"))
    }

    @Test func theWholeShopValidates() throws {
        let registry = try RouteRegistry(modules: ShopModules.all(userScope: CustomScope("user")))
        #expect(try registry.validate().isValid)
    }

    @Test func aShopWithoutPaymentsReportsTheAdapterWithoutTarget() throws {
        let modules = ShopModules.all(userScope: CustomScope("user")).filter { !($0 is PaymentsModule) }
        let problem =
            "The adapter from RoutableService<PaymentProcessing> to RoutableService<PaymentGateway> has no target: "
            + "RoutableService<PaymentGateway> has no router (resolving PaymentProcessing → PaymentGateway). "
            + "Hint: Load the module that provides RoutableService<PaymentGateway>, or remove the adapter."
        let registry = RouteRegistry()
        for module in modules { try registry.load(module) }
        #expect(try registry.validate().problems.map(\.description) == [problem])
        let error = #expect(throws: RouteError.self) { try registry.seal() }
        #expect(error?.code == .validationFailed)
        #expect(error?.description == "Sealing found 1 problem:\n- \(problem)")
    }

    @Test func signingInIsRequiredForTheCartCheckoutAndChatScreens() throws {
        let shop = try shopRegistry()
        func expectCancelled<Destination>(_ route: Route<Destination>) {
            let error = #expect(throws: RouteError.self) { try route.perform() }
            #expect(error?.code == .routeCancelled)
            #expect(error?.shopMessage as? SignInNeeded == SignInNeeded())
            #expect(route.state == .unrouted)
        }
        expectCancelled(try shop.route(to: .cartScreen))
        expectCancelled(try shop.route(to: .checkoutScreen))
        expectCancelled(try shop.route(to: .chatScreen))
        expectCancelled(try shop.route(path: "cart", as: (any Screen).self))
        expectCancelled(try shop.route(path: "chat?from=menu", as: (any Screen).self))
        expectCancelled(try shop.route(path: "cart"))
        // A lookup by path is guarded as a route is.
        // (The cart's factory also refuses a signed-out user, but as a failed factory: the code tells them apart.)
        let error = #expect(throws: RouteError.self) { try shop.makeDestination(path: "cart", as: (any Screen).self) }
        #expect(error?.code == .routeCancelled)
        #expect(error?.shopMessage as? SignInNeeded == SignInNeeded())
        // Screens anyone may see are not intercepted.
        #expect(
            try shop.route(path: "books/1", as: (any Screen).self).perform().title == "Swift Concurrency by Example")
        _ = try shop.makeDestination(to: .userSession).signIn("ann")
        #expect(try shop.route(to: .cartScreen).perform().title == "Cart")
    }
}

struct InterfacesTests {
    @Test func moneyFormatsCents() {
        #expect(Money.format(3_900) == "$39.00")
        #expect(Money.format(5) == "$0.05")
        #expect(Money.format(-1_250) == "-$12.50")
    }
}
