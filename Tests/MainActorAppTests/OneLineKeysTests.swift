import Router
import Testing

// A main-actor app of 20 keys, declared as the README shows: one line a key, in one `nonisolated extension`
// of the key type (this target is built with `.defaultIsolation(MainActor.self)`). Compiling this file is
// half of the test: the keys are found by their implicit members (`.shopCatalog`) in every lookup and
// registration form below, with no `nonisolated` on any key and no constrained extension per protocol.
// Services and their protocols are `nonisolated` and the screen is registered on the main actor, as the
// article on apps isolated to the main actor says.

nonisolated protocol ShopCatalog: AnyObject { var titles: [String] { get } }
nonisolated protocol ShopSearch: AnyObject { func find(_ text: String) -> [String] }
nonisolated protocol ShopCart: AnyObject {
    var count: Int { get }
    func add(_ title: String)
}
nonisolated protocol ShopPricing: AnyObject { func price(of title: String) -> Int }
nonisolated protocol ShopTax: AnyObject { func tax(on amount: Int) -> Int }
nonisolated protocol ShopCheckout: AnyObject { func total() -> Int }
nonisolated protocol ShopSession: AnyObject { var user: String { get } }
nonisolated protocol ShopAuth: AnyObject { func signIn(_ user: String) -> any ShopSession }
nonisolated protocol ShopClock: AnyObject { func now() -> Int }
nonisolated protocol ShopLog: AnyObject { func write(_ line: String) }
nonisolated protocol ShopAnalytics: AnyObject { func track(_ event: String) }
nonisolated protocol ShopBadge: AnyObject { var value: Int { get } }
nonisolated protocol ShopChat: AnyObject { var lines: [String] { get } }
nonisolated protocol ShopOrders: AnyObject { var placed: Int { get } }
nonisolated protocol ShopNews: AnyObject { var headline: String { get } }
nonisolated protocol ShopPayments: AnyObject { func charge(_ amount: Int) -> Bool }
nonisolated protocol ShopReviews: AnyObject { func stars(for title: String) -> Int }
nonisolated protocol ShopWishlist: AnyObject { var titles: [String] { get } }
nonisolated protocol ShopSettings: AnyObject { var currency: String { get } }
protocol ShopScreen: AnyObject { var title: String { get set } }

nonisolated extension RoutableService {
    static var shopCatalog: RoutableService<any ShopCatalog> { .init(declaring: (any ShopCatalog).self) }
    static var shopSearch: RoutableService<any ShopSearch> { .init(declaring: (any ShopSearch).self) }
    static var shopCart: RoutableService<any ShopCart> { .init(declaring: (any ShopCart).self) }
    static var shopPricing: RoutableService<any ShopPricing> { .init(declaring: (any ShopPricing).self) }
    static var shopTax: RoutableService<any ShopTax> { .init(declaring: (any ShopTax).self) }
    static var shopCheckout: RoutableService<any ShopCheckout> { .init(declaring: (any ShopCheckout).self) }
    static var shopSession: RoutableService<any ShopSession> { .init(declaring: (any ShopSession).self) }
    static var shopAuth: RoutableService<any ShopAuth> { .init(declaring: (any ShopAuth).self) }
    static var shopClock: RoutableService<any ShopClock> { .init(declaring: (any ShopClock).self) }
    static var shopLog: RoutableService<any ShopLog> { .init(declaring: (any ShopLog).self) }
    static var shopAnalytics: RoutableService<any ShopAnalytics> { .init(declaring: (any ShopAnalytics).self) }
    static var shopBadge: RoutableService<any ShopBadge> { .init(declaring: (any ShopBadge).self) }
    static var shopChat: RoutableService<any ShopChat> { .init(declaring: (any ShopChat).self) }
    static var shopOrders: RoutableService<any ShopOrders> { .init(declaring: (any ShopOrders).self) }
    static var shopNews: RoutableService<any ShopNews> { .init(declaring: (any ShopNews).self) }
    static var shopPayments: RoutableService<any ShopPayments> { .init(declaring: (any ShopPayments).self) }
    static var shopReviews: RoutableService<any ShopReviews> { .init(declaring: (any ShopReviews).self) }
    static var shopWishlist: RoutableService<any ShopWishlist> { .init(declaring: (any ShopWishlist).self) }
    static var shopSettings: RoutableService<any ShopSettings> { .init(declaring: (any ShopSettings).self) }
    static var shopScreen: RoutableService<any ShopScreen> { .init(declaring: (any ShopScreen).self) }
}

nonisolated final class CatalogImpl: ShopCatalog { let titles = ["Swift", "Rust", "Go"] }
nonisolated final class SearchImpl: ShopSearch {
    let catalog: any ShopCatalog
    init(catalog: any ShopCatalog) { self.catalog = catalog }
    func find(_ text: String) -> [String] { catalog.titles.filter { $0.contains(text) } }
}
nonisolated final class CartImpl: ShopCart {
    private(set) var items: [String] = []
    var count: Int { items.count }
    func add(_ title: String) { items.append(title) }
}
nonisolated final class PricingImpl: ShopPricing { func price(of title: String) -> Int { title.count * 10 } }
nonisolated final class TaxImpl: ShopTax { func tax(on amount: Int) -> Int { amount / 10 } }
nonisolated final class CheckoutImpl: ShopCheckout {
    let cart: any ShopCart
    let pricing: any ShopPricing
    let tax: any ShopTax
    init(cart: any ShopCart, pricing: any ShopPricing, tax: any ShopTax) {
        self.cart = cart
        self.pricing = pricing
        self.tax = tax
    }
    func total() -> Int {
        let amount = cart.count * pricing.price(of: "Swift")
        return amount + tax.tax(on: amount)
    }
}
nonisolated final class SessionImpl: ShopSession {
    let user: String
    init(user: String) { self.user = user }
}
nonisolated final class AuthImpl: ShopAuth {
    func signIn(_ user: String) -> any ShopSession { SessionImpl(user: user) }
}
nonisolated final class ClockImpl: ShopClock { func now() -> Int { 1_000 } }
nonisolated final class LogImpl: ShopLog {
    private(set) var lines: [String] = []
    func write(_ line: String) { lines.append(line) }
}
nonisolated final class AnalyticsImpl: ShopAnalytics {
    let log: any ShopLog
    init(log: any ShopLog) { self.log = log }
    func track(_ event: String) { log.write("event: \(event)") }
}
nonisolated final class BadgeImpl: ShopBadge {
    let cart: any ShopCart
    init(cart: any ShopCart) { self.cart = cart }
    var value: Int { cart.count }
}
nonisolated final class ChatImpl: ShopChat { let lines = ["hello"] }
nonisolated final class OrdersImpl: ShopOrders { let placed = 2 }
nonisolated final class NewsImpl: ShopNews { let headline = "Swift 6.3" }
nonisolated final class PaymentsImpl: ShopPayments { func charge(_ amount: Int) -> Bool { amount > 0 } }
nonisolated final class ReviewsImpl: ShopReviews { func stars(for title: String) -> Int { title == "Swift" ? 5 : 3 } }
nonisolated final class WishlistImpl: ShopWishlist { let titles = ["Go"] }
nonisolated final class SettingsImpl: ShopSettings { let currency = "EUR" }
final class ScreenImpl: ShopScreen {
    var title = ""
}

struct ShopOfTwentyKeysModule: RouteModule {
    func register(in registry: RouteRegistry) throws {
        try registry.register(.shopCatalog) { _ in CatalogImpl() }.scope(.singleton)
        try registry.register(.shopSearch) { r in SearchImpl(catalog: try r.resolve(.shopCatalog)) }
        try registry.register(.shopCart) { _ in CartImpl() }.scope(.singleton)
        try registry.register(.shopPricing) { _ in PricingImpl() }
        try registry.register(.shopTax) { _ in TaxImpl() }
        try registry.register(.shopCheckout, initializer: CheckoutImpl.init)
        try registry.register(.shopSession, arguments: String.self) { _, user in SessionImpl(user: user) }
        try registry.register(.shopAuth) { _ in AuthImpl() }
        try registry.register(.shopClock) { _ in ClockImpl() }
        try registry.register(.shopLog) { _ in LogImpl() }.scope(.singleton)
        try registry.register(.shopAnalytics) { r in AnalyticsImpl(log: try r.resolve(.shopLog)) }
        try registry.register(.shopBadge) { r in BadgeImpl(cart: try r.resolve(.shopCart)) }
        try registry.register(.shopChat) { _ in ChatImpl() }
        try registry.register(.shopOrders) { _ in OrdersImpl() }
        try registry.register(.shopNews) { _ in NewsImpl() }
        try registry.register(.shopPayments) { _ in PaymentsImpl() }
        try registry.register(.shopReviews) { _ in ReviewsImpl() }
        try registry.register(.shopWishlist) { _ in WishlistImpl() }
        try registry.register(.shopSettings) { _ in SettingsImpl() }
        try registry.registerOnMainActor(.shopScreen) { _ in ScreenImpl() }
    }
}

struct OneLineKeysTests {
    @Test func aMainActorAppDeclaresTwentyKeysOneLineEachAndLooksEachUp() throws {
        let registry = try RouteRegistry(modules: [ShopOfTwentyKeysModule()])

        #expect(try registry.makeDestination(to: .shopSearch).find("us") == ["Rust"])
        let cart = try registry.makeDestination(to: .shopCart)
        cart.add("Swift")
        cart.add("Go")
        #expect(try registry.makeDestination(to: .shopBadge).value == 2)
        #expect(try registry.makeDestination(to: .shopCheckout).total() == 110)
        #expect(try registry.makeDestination(to: .shopSession, arguments: "ann").user == "ann")
        #expect(try registry.makeDestination(to: .shopAuth).signIn("bob").user == "bob")
        #expect(try registry.makeDestination(to: .shopClock).now() == 1_000)
        try registry.makeDestination(to: .shopAnalytics).track("open")
        #expect((try registry.makeDestination(to: .shopLog) as? LogImpl)?.lines == ["event: open"])
        #expect(try registry.makeDestination(to: .shopChat).lines == ["hello"])
        #expect(try registry.makeDestination(to: .shopOrders).placed == 2)
        #expect(try registry.makeDestination(to: .shopNews).headline == "Swift 6.3")
        #expect(try registry.makeDestination(to: .shopPayments).charge(5))
        #expect(try registry.makeDestination(to: .shopReviews).stars(for: "Swift") == 5)
        #expect(try registry.makeDestination(to: .shopWishlist).titles == ["Go"])
        #expect(try registry.makeDestination(to: .shopSettings).currency == "EUR")
        let screen = try registry.makeDestination(to: .shopScreen) { $0.title = "Cart" }
        #expect(screen.title == "Cart")
        #expect(try registry.makeDestination(to: .shopCatalog) === registry.makeDestination(to: .shopCatalog))
    }

    @Test func aOneLineKeyIsTheSameKeyAsTheConstrainedExtensionsFormOfItsProtocol() throws {
        let registry = RouteRegistry()
        try registry.register(.shopNews) { _ in NewsImpl() }
        try registry.seal()
        // Both forms declare the key of the protocol, so either finds the other's registration.
        #expect(try registry.makeDestination(to: .shopNewsDeclaredPerProtocol).headline == "Swift 6.3")
        #expect(RoutableService<any ShopNews>.shopNews == .shopNewsDeclaredPerProtocol)
    }
}

extension RoutableService<any ShopNews> {
    nonisolated static var shopNewsDeclaredPerProtocol: Self { .init(declaring: Destination.self) }
}
