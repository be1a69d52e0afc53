import ChatFeature
import NotificationsFeature
import Router
import ShopApp
import ShopInterfaces
import ShopTestSupport
import Synchronization
import Testing

// An eighth feature, written the way CONTRIBUTING.md's walkthrough adds one: it sees only `Router` and
// `ShopInterfaces`, and no other feature changes to make room for it.

/// The books a signed-in user keeps for later.
protocol Wishlist: AnyObject, Sendable {
    /// The books kept, oldest first.
    var books: [Book] { get }
    /// Keeps a book.
    func keep(_ book: Book)
}

/// The wishlist as a screen.
protocol WishlistScreen: Screen {}

extension RoutableService where Destination == any Wishlist {
    static var wishlist: Self { Self(declaring: (any Wishlist).self) }
}

extension RoutableService where Destination == any WishlistScreen {
    static var wishlistScreen: Self { Self(declaring: (any WishlistScreen).self) }
}

struct WishlistModule: RouteModule {
    let userScope: CustomScope

    func register(in registry: RouteRegistry) throws {
        try registry.register(.wishlist) { _ in KeptBooks() }.scope(.custom(userScope))
        try registry.register(.badgeCounter) { r in
            WishlistBadge(count: try r.resolve(.wishlist).books.count)
        }.dependencies(.initializer(.wishlist))
        try registry.register(.wishlistScreen) {
            r in
            guard try r.resolve(.userSession).currentUser != nil else { throw SignInNeeded() }
            return WishlistPage(books: try r.resolve(.wishlist).books)
        }.dependencies(.initializer(.userSession), .initializer(.wishlist))
        try registry.register(path: "wishlist", to: .wishlistScreen)
    }
}

private final class KeptBooks: Wishlist {
    private let kept = Mutex<[Book]>([])
    var books: [Book] { kept.withLock { $0 } }
    func keep(_ book: Book) { kept.withLock { $0.append(book) } }
}

private struct WishlistBadge: BadgeCounter {
    let label = "wishlist"
    let count: Int
}

private final class WishlistPage: WishlistScreen {
    let books: [Book]
    init(books: [Book]) { self.books = books }
    let title = "Wishlist"
    func render() -> String {
        books.isEmpty ? "  Nothing kept yet." : books.map { "  \($0.title)" }.joined(separator: "\n")
    }
}

/// A feature can be added to the shop, or left out of it, without touching any other feature.
struct ModularityTests {
    @Test func anEighthFeatureIsAddedWithoutTouchingTheOthers() throws {
        let scope = CustomScope("user")
        let shop = try RouteRegistry(modules: ShopModules.all(userScope: scope) + [WishlistModule(userScope: scope)])
        #expect(try shop.validate().isValid)
        _ = try shop.makeDestination(to: .userSession).signIn("ann")
        try shop.makeDestination(to: .wishlist).keep(sampleBook)
        // The notifications feature adds up the new counter without knowing it exists.
        #expect(try shop.makeDestination(to: .badge).description == "2 (cart 0, orders 0, news 0, chat 1, wishlist 1)")
        let navigator = Navigator(stack: ScreenStack())
        #expect(try navigator.show(shop.route(path: "wishlist", as: (any Screen).self), name: "wishlist") == "Wishlist")
        #expect(navigator.stack.screens.last?.render() == "  Test Driven Swift")
        #expect(try shop.dependencyGraph().paths.map(\.pattern) == ["books/:id(Int)", "cart", "chat", "wishlist"])
        // Signing out releases the new feature's per-user state with everyone else's.
        _ = try shop.makeDestination(to: .userSession).signOut()
        #expect(try shop.makeDestination(to: .wishlist).books.isEmpty)
    }

    @Test func aFeatureNobodyRequiresCanBeLeftOut() throws {
        let withoutChat = ShopModules.all(userScope: CustomScope("user")).filter { !($0 is ChatModule) }
        let shop = try RouteRegistry(modules: withoutChat)
        #expect(try shop.validate().isValid)
        #expect(try shop.makeDestination(to: .badge).description == "1 (cart 0, orders 0, news 1)")
        #expect(try shop.makeDestinationIfRegistered(to: .chatSession) == nil)
        let error = #expect(throws: RouteError.self) { try shop.route(path: "chat", as: (any Screen).self) }
        #expect(error?.code == .unknownPath)
        #expect(try shop.dependencyGraph().paths.map(\.pattern) == ["books/:id(Int)", "cart"])
    }
}

@Suite struct FeatureDiscoveryTests {
    @Test func theShopsFeaturesAreFoundInTheOrderTheirRecordsGive() {
        // Nothing lists the features: each is found by its record, linked into this test image as into the demo.
        let names = ShopModules.all(userScope: CustomScope("user")).map { String(describing: type(of: $0)) }
        #expect(
            names == [
                "AccountModule", "CatalogModule", "CartModule", "PaymentsModule", "CheckoutModule",
                "NotificationsModule", "ChatModule", "ShopWiringModule",
            ])
    }
}
