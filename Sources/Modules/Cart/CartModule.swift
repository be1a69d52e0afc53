import Router
import ShopInterfaces
import Synchronization

/// Registers the cart, one per signed-in user, a badge counter for the items in it, and the cart screen,
/// also reachable by the path `cart`.
public struct CartModule: UserScopedModule {
    /// The scope that holds the signed-in user's cart.
    public let userScope: CustomScope

    /// Makes the module.
    /// - Parameter userScope: The per-user scope, reset on sign-out.
    public init(userScope: CustomScope = .user) {
        self.userScope = userScope
    }

    /// Registers ``RoutableServiceModule/cart``, a ``RoutableService/badgeCounter`` labelled `cart`,
    /// ``RoutableService/cartScreen`` and the path `cart`.
    /// - Parameter registry: The registry being assembled.
    /// - Throws: ``RouteError`` when the registry is sealed.
    public func register(in registry: RouteRegistry) throws {
        try registry.register(.cart, configuration: CartConfiguration.init) { config, _ in
            ShoppingCart(owner: try config.require(config.owner, setBy: "constructCart(owner:)"))
        }.scope(.custom(userScope))
        try registry.register(.badgeCounter) { r in
            guard let user = try r.resolveIfRegistered(.userSession)?.currentUser else {
                return CartBadge(count: 0)
            }
            let cart = try r.resolve(.cart) { $0.constructCart(owner: user) }
            return CartBadge(count: cart.items.count)
        }.dependencies(.initializer(.userSession), .initializer(.cart))
        try registry.register(.cartScreen) { r in
            guard let user = try r.resolve(.userSession).currentUser else { throw SignInNeeded() }
            return CartPage(cart: try r.resolve(.cart) { $0.constructCart(owner: user) })
        }.dependencies(.initializer(.userSession), .initializer(.cart))
        try registry.register(path: "cart", to: .cartScreen)
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
    let cartModuleRecord: RouteModuleRecord = (1, 30, { ModuleDiscovery.export(CartModule()) })
#endif

private final class CartConfiguration: ModuleConfiguration<any Cart>, CartModuleConfig {
    var owner: String?

    func constructCart(owner: String) { self.owner = owner }
}

private final class ShoppingCart: Cart {
    let owner: String
    private let books = Mutex<[Book]>([])

    init(owner: String) {
        self.owner = owner
    }

    var items: [Book] { books.withLock { $0 } }

    func add(_ book: Book) { books.withLock { $0.append(book) } }

    func removeAll() { books.withLock { $0.removeAll() } }
}

private final class CartPage: CartScreen {
    let cart: any Cart

    init(cart: any Cart) {
        self.cart = cart
    }

    let title = "Cart"

    func render() -> String {
        let items = cart.items
        guard !items.isEmpty else { return "  Your cart is empty." }
        let lines = items.enumerated().map { index, book in
            "  \(index + 1). \(book.title), \(Money.format(book.priceCents))"
        }
        return (lines + ["  Total: \(Money.format(cart.totalCents))"]).joined(separator: "\n")
    }
}

private struct CartBadge: BadgeCounter {
    let label = "cart"
    let count: Int
}
