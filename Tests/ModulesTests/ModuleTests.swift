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
    @Test func paymentProcessingAdaptsTheGateway() throws {
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

    @Test func aShopWithoutPaymentsDoesNotSeal() throws {
        let modules = ShopModules.all(userScope: CustomScope("user")).filter { !($0 is PaymentsModule) }
        let error = #expect(throws: RouteError.self) { try RouteRegistry(modules: modules) }
        #expect(error?.code == .validationFailed)
        #expect(error?.description.contains("PaymentGateway") == true)
    }
}

struct SharedTests {
    @Test func moneyFormatsCents() {
        #expect(Money.format(3_900) == "$39.00")
        #expect(Money.format(5) == "$0.05")
        #expect(Money.format(-1_250) == "-$12.50")
    }
}
