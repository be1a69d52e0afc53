import Router
import Synchronization

/// Registers the cart, one per signed-in user, and a badge counter for the items in it.
public struct CartModule: DescribedModule {
    /// The scope that holds the signed-in user's cart.
    public let userScope: CustomScope

    /// Makes the module.
    /// - Parameter userScope: The per-user scope, reset on sign-out.
    public init(userScope: CustomScope) {
        self.userScope = userScope
    }

    /// Registers ``RoutableServiceModule/cart`` and a ``RoutableService/badgeCounter`` labelled `cart`.
    /// - Parameter registry: The registry being assembled.
    /// - Throws: ``RouteError`` when the registry is sealed.
    public func register(in registry: RouteRegistry) throws {
        try registry.register(.cart, configuration: CartConfiguration.init, scope: .custom(userScope)) { config, _ in
            ShoppingCart(owner: try config.require(config.owner, setBy: "constructCart(owner:)"))
        }
        try registry.register(.badgeCounter, dependencies: [.initializer(.userSession), .initializer(.cart)]) { r in
            guard let user = try r.resolveIfRegistered(.userSession)?.currentUser else {
                return CartBadge(count: 0)
            }
            let cart = try r.makeDestination(to: .cart) { $0.constructCart(owner: user) }
            return CartBadge(count: cart.items.count)
        }
    }

    /// What the module provides and uses.
    public var summary: ModuleSummary {
        ModuleSummary(
            name: "CartModule",
            provides: [
                .init(key: RoutableServiceModule.cart.description, scope: Scope.custom(userScope).description),
                .init(key: RoutableService.badgeCounter.description, scope: Scope.transient.description),
            ],
            uses: [RoutableService.userSession.description])
    }
}

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

private struct CartBadge: BadgeCounter {
    let label = "cart"
    let count: Int
}
