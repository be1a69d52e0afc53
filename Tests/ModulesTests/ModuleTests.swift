import Modules
import Router
import Testing

struct AccountModuleTests {
    @Test func theSessionIsASingletonThatSignsInOnce() throws {
        let registry = try testRegistry([AccountModule(userScope: CustomScope("user"))])
        let session = try registry.makeDestination(to: .userSession)
        #expect(try registry.makeDestination(to: .userSession) === session)
        #expect(session.currentUser == nil)
        #expect(session.signIn("ann"))
        #expect(!session.signIn("bob"))
        #expect(session.currentUser == "ann")
        #expect(session.signOut() == "ann")
        #expect(session.signOut() == nil)
    }

    @Test func signingOutResetsTheUserScope() throws {
        let scope = CustomScope("user")
        let registry = try testRegistry([AccountModule(userScope: scope)]) { registry in
            try registry.register(.orderHistory, scope: .custom(scope)) { _ in FakeHistory() }
        }
        let session = try registry.makeDestination(to: .userSession)
        _ = session.signIn("ann")
        let first = try registry.makeDestination(to: .orderHistory)
        #expect(scope.count == 1)
        _ = session.signOut()
        #expect(scope.count == 0)
        #expect(try registry.makeDestination(to: .orderHistory) !== first)
    }
}

final class FakeHistory: OrderHistory {
    var receipts: [Receipt] { [] }
    func record(_ receipt: Receipt) {}
}

struct CatalogModuleTests {
    @Test func searchFindsTitlesIgnoringCase() throws {
        let catalog = try testRegistry([CatalogModule()]).makeDestination(to: .catalog)
        #expect(catalog.books.count == 12)
        let titles = catalog.search("SWIFT").map(\.title)
        #expect(
            titles == [
                "Swift Concurrency by Example", "The Swift Programming Primer", "Server-Side Swift",
                "Swiftly Through the Alps",
            ])
        #expect(catalog.search("  tale ").map(\.id) == [9, 12])
        #expect(catalog.search("   ").isEmpty)
        #expect(catalog.search("cobol").isEmpty)
    }

    @Test func theCatalogIsAlsoReachableByIdentifier() throws {
        let registry = try testRegistry([CatalogModule()])
        let byIdentifier = try registry.makeDestination(identifier: "books/search", as: (any Catalog).self)
        #expect(byIdentifier === (try registry.makeDestination(to: .catalog)))
    }

    @Test func theSearchScreenNumbersTheResults() throws {
        let registry = try testRegistry([CatalogModule()])
        let screen = try registry.makeDestination(to: .searchScreen) { $0.constructSearchResults(query: "tale") }
        #expect(screen.title == "Search \"tale\"")
        #expect(
            screen.render() == "  1. Terminal Tales, Sam Ortiz, $15.00\n  2. A Tale of Two Modules, Eva Lind, $12.00")
        let none = try registry.makeDestination(to: .searchScreen) { $0.constructSearchResults(query: "cobol") }
        #expect(none.render() == "  No titles contain \"cobol\".")
    }

    @Test func aBookScreenIsReachableByItsPath() throws {
        let registry = try testRegistry([CatalogModule()])
        let screen = try registry.makeDestination(path: "books/3", as: (any Screen).self)
        #expect(screen.title == "Server-Side Swift")
        #expect(screen.render() == "  by Lena Voss, $35.00, catalog number 3")
        let missing = #expect(throws: RouteError.self) {
            try registry.makeDestination(path: "books/99", as: (any Screen).self)
        }
        #expect(missing?.shopMessage?.description == "There is no book 99 in the catalog.")
        let malformed = #expect(throws: RouteError.self) {
            try registry.makeDestination(path: "books/abc", as: (any Screen).self)
        }
        #expect(malformed?.code == .invalidPath)
        #expect(
            malformed?.description
                == "The path \"books/abc\" fits the pattern \"books/:id(Int)\", but the parameter id is \"abc\", which is not an Int."
        )
    }
}

struct CartModuleTests {
    func registry(user: String?, scope: CustomScope = CustomScope("user")) throws -> RouteRegistry {
        try testRegistry([CartModule(userScope: scope)]) { registry in
            try registry.register(.userSession, scope: .singleton) { _ in FakeSession(user: user) }
        }
    }

    @Test func theCartNeedsItsOwnerBeforeItExists() throws {
        let error = #expect(throws: RouteError.self) {
            try registry(user: "ann").makeDestination(to: .cart) { _ in }
        }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.description.contains("constructCart(owner:)") == true)
    }

    @Test func oneCartPerUserScope() throws {
        let scope = CustomScope("user")
        let registry = try registry(user: "ann", scope: scope)
        let cart = try registry.makeDestination(to: .cart) { $0.constructCart(owner: "ann") }
        cart.add(sampleBook)
        cart.add(otherBook)
        #expect(cart.owner == "ann")
        #expect(cart.totalCents == 3_500)
        #expect(try registry.makeDestination(to: .cart) { $0.constructCart(owner: "ann") } === cart)
        scope.reset()
        let fresh = try registry.makeDestination(to: .cart) { $0.constructCart(owner: "bob") }
        #expect(fresh !== cart)
        #expect(fresh.owner == "bob")
        #expect(fresh.items.isEmpty)
    }

    @Test func theBadgeCountsItemsOnlyWhenSignedIn() throws {
        let registry = try registry(user: "ann")
        try registry.makeDestination(to: .cart) { $0.constructCart(owner: "ann") }.add(sampleBook)
        #expect(BadgeSummary(try registry.makeDestinations(to: .badgeCounter)).description == "1 (cart 1)")
        let signedOut = try self.registry(user: nil)
        #expect(BadgeSummary(try signedOut.makeDestinations(to: .badgeCounter)).description == "0 (cart 0)")
    }

    @Test func theCartScreenShowsTheSignedInUsersCart() throws {
        let shop = try shopRegistry()
        try shop.withOverrides { overrides in
            try overrides.register(.userSession, scope: .singleton) { _ in FakeSession(user: "ann") }
        } operation: {
            let empty = try shop.makeDestination(to: .cartScreen)
            #expect(empty.title == "Cart")
            #expect(empty.render() == "  Your cart is empty.")
            try shop.makeDestination(to: .cart) { $0.constructCart(owner: "ann") }.add(sampleBook)
            #expect(
                try shop.makeDestination(path: "cart", as: (any Screen).self).render()
                    == "  1. Test Driven Swift, $20.00\n  Total: $20.00")
            #expect(try shop.makeDestination(to: .badge).description == "2 (cart 1, orders 0, news 0, chat 1)")
        }
    }
}

struct PaymentsModuleTests {
    @Test func theGatewayNumbersApprovedCharges() throws {
        let gateway = try testRegistry([PaymentsModule()]).makeDestination(to: .paymentGateway)
        #expect(gateway.charge(cents: 3_900, customer: "ann").transactionID == "TX-1001")
        #expect(
            gateway.charge(cents: 100, customer: "ann") == .init(approved: true, transactionID: "TX-1002", message: ""))
    }

    @Test func theGatewayDeclinesOverTheLimitAndNothing() throws {
        let gateway = try testRegistry([PaymentsModule(cardLimitCents: 5_000)]).makeDestination(to: .paymentGateway)
        let over = gateway.charge(cents: 5_001, customer: "ann")
        #expect(!over.approved)
        #expect(over.message == "$50.01 is over ann's card limit of $50.00")
        #expect(!gateway.charge(cents: 0, customer: "ann").approved)
        #expect(gateway.charge(cents: 5_000, customer: "ann").transactionID == "TX-1001")
    }
}

struct CheckoutModuleTests {
    /// The whole shop with ann signed in through a fake session and `books` in her cart.
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

    @Test func theCheckoutScreenPlacesTheOrderAndShowsTheReceiptModally() throws {
        let shop = try shop(with: [sampleBook, otherBook])
        let payment = FakePayment(outcome: .paid(confirmation: "OK-7"))
        try shop.withOverrides { overrides in
            try overrides.register(.paymentProcessing) { _ in payment }
        } operation: {
            let screen = try shop.makeDestination(to: .checkoutScreen)
            #expect(screen.title == "Order #1")
            #expect(screen.isModal)
            #expect(screen.render() == "  Paid $35.00 for 2 books (OK-7). Thank you, ann!")
        }
        #expect(payment.charges == [3_500])
    }

    @Test func anEmptyCartNeverReachesThePayment() async throws {
        let shop = try shop(with: [])
        let payment = FakePayment(outcome: .paid(confirmation: "OK-1"))
        try await shop.withOverrides { overrides in
            try overrides.register(.paymentProcessing) { _ in payment }
        } operation: {
            await Task.yield()
            let error = #expect(throws: RouteError.self) { try shop.makeDestination(to: .checkoutScreen) }
            #expect(error?.shopMessage as? CheckoutFailure == .emptyCart)
        }
        #expect(payment.charges.isEmpty)
    }

    struct Setup {
        let registry: RouteRegistry
        let cart: FakeCart
        let payment: FakePayment
    }

    func setup(user: String? = "ann", items: [Book], outcome: PaymentOutcome) throws -> Setup {
        let cart = FakeCart(owner: user ?? "", items: items)
        let payment = FakePayment(outcome: outcome)
        let registry = try testRegistry([CheckoutModule(userScope: CustomScope("user"))]) { registry in
            try registry.register(.userSession, scope: .singleton) { _ in FakeSession(user: user) }
            try registry.register(.cart, configuration: FakeCartConfiguration.init) { config, _ in
                _ = try config.require(config.owner, setBy: "constructCart(owner:)")
                return cart
            }
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
        #expect(BadgeSummary(try setup.registry.makeDestinations(to: .badgeCounter)).description == "1 (orders 1)")
    }

    @Test func anEmptyCartIsRefusedWithoutCharging() throws {
        let setup = try setup(items: [], outcome: .paid(confirmation: "OK-1"))
        #expect(throws: CheckoutFailure.emptyCart) { try setup.registry.makeDestination(to: .checkout).placeOrder() }
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
}

struct NotificationsModuleTests {
    @Test func newsShowsOnlyWhileSignedOut() throws {
        let signedOut = try testRegistry([NotificationsModule()]) { registry in
            try registry.register(.userSession) { _ in FakeSession(user: nil) }
        }
        #expect(BadgeSummary(try signedOut.makeDestinations(to: .badgeCounter)).total == 1)
        let signedIn = try testRegistry([NotificationsModule()]) { registry in
            try registry.register(.userSession) { _ in FakeSession(user: "ann") }
        }
        #expect(BadgeSummary(try signedIn.makeDestinations(to: .badgeCounter)).total == 0)
    }

    @Test func theBadgeAddsUpEveryCounterRegisteredUnderTheKey() throws {
        let registry = try testRegistry([NotificationsModule()]) { registry in
            try registry.register(.userSession) { _ in FakeSession(user: nil) }
            try registry.register(.badgeCounter) { _ in FixedBadge(label: "a", count: 2) }
            try registry.register(.badgeCounter) { _ in FixedBadge(label: "b", count: 4) }
        }
        let summary = BadgeSummary(try registry.makeDestinations(to: .badgeCounter))
        #expect(summary.total == 7)
        #expect(summary.description == "7 (news 1, a 2, b 4)")
        #expect(try registry.makeDestination(to: .badge) == summary)
    }

    @Test func theHeaderBadgeFollowsTheSessionOverride() throws {
        let shop = try shopRegistry()
        #expect(try shop.makeDestination(to: .badge).description == "1 (cart 0, orders 0, news 1, chat 0)")
        let signedIn = try shop.withOverrides { overrides in
            try overrides.register(.userSession) { _ in FakeSession(user: "ann") }
        } operation: {
            try shop.makeDestination(to: .badge)
        }
        #expect(signedIn.description == "1 (cart 0, orders 0, news 0, chat 1)")
    }
}

struct ChatModuleTests {
    func registry(scope: CustomScope) throws -> RouteRegistry {
        try testRegistry([ChatModule(userScope: scope)]) { registry in
            try registry.register(.userSession, scope: .singleton) { _ in FakeSession(user: "ann") }
        }
    }

    @Test func theRouterBuildsOneSessionAndOneListThatReferToEachOther() throws {
        let registry = try registry(scope: CustomScope("user"))
        let session = try registry.makeDestination(to: .chatSession)
        let list = try registry.makeDestination(to: .messageList)
        #expect(session.messageList === list)
        #expect(list.session === session)
        #expect(list.messages == [ChatMessage(sender: "support", text: "Hi ann, how can we help?")])
        #expect(session.unreadCount == 1)
        session.markAllRead()
        #expect(session.unreadCount == 0)
        #expect(BadgeSummary(try registry.makeDestinations(to: .badgeCounter)).description == "0 (chat 0)")
    }

    @Test func startingFromTheListGivesTheSamePair() throws {
        let registry = try registry(scope: CustomScope("user"))
        let list = try registry.makeDestination(to: .messageList)
        let session = try registry.makeDestination(to: .chatSession)
        #expect(list.session === session)
        #expect(session.messageList === list)
        #expect(list.messages.count == 1)
    }

    @Test func showingTheChatScreenMarksTheMessagesReadThroughItsHook() throws {
        let shop = try shopRegistry()
        try shop.withOverrides { overrides in
            try overrides.register(.userSession, scope: .singleton) { _ in FakeSession(user: "bob") }
        } operation: {
            let navigator = Navigator(stack: ScreenStack())
            #expect(try shop.makeDestination(to: .chatSession).unreadCount == 1)
            // Making the screen is not showing it: the hook fires only for a performed route.
            _ = try shop.makeDestination(to: .chatScreen)
            #expect(try shop.makeDestination(to: .chatSession).unreadCount == 1)
            try navigator.show(shop.route(path: "chat", as: (any Screen).self), name: "chat")
            #expect(navigator.stack.screens.first?.isModal == true)
            #expect(
                navigator.stack.screens.first?.render()
                    == "  support: Hi bob, how can we help?\n"
                    + "  (one chat session and one message list, linked both ways: yes)")
            #expect(try shop.makeDestination(to: .chatSession).unreadCount == 0)
        }
    }

    @Test func theListHoldsItsSessionWeakly() throws {
        let scope = CustomScope("user")
        let registry = try registry(scope: scope)
        let list = try registry.makeDestination(to: .messageList)
        #expect(list.session != nil)
        scope.reset()
        #expect(list.session == nil)
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
        let routes: [() throws -> Route<any Screen>] = [
            { try shop.route(to: .cartScreen) }, { try shop.route(to: .checkoutScreen) },
            { try shop.route(to: .chatScreen) }, { try shop.route(path: "cart", as: (any Screen).self) },
            { try shop.route(path: "chat?from=menu", as: (any Screen).self) },
        ]
        for makeRoute in routes {
            let route = try makeRoute()
            let error = #expect(throws: RouteError.self) { try route.perform() }
            #expect(error?.code == .routeCancelled)
            #expect(error?.shopMessage as? SignInNeeded == SignInNeeded())
            #expect(route.state == .unrouted)
        }
        // Screens anyone may see are not intercepted.
        #expect(
            try shop.route(path: "books/1", as: (any Screen).self).perform().title == "Swift Concurrency by Example")
        _ = try shop.makeDestination(to: .userSession).signIn("ann")
        #expect(try shop.route(to: .cartScreen).perform().title == "Cart")
    }
}

struct SharedTests {
    @Test func moneyFormatsCents() {
        #expect(Money.format(3_900) == "$39.00")
        #expect(Money.format(5) == "$0.05")
        #expect(Money.format(-1_250) == "-$12.50")
    }
}
