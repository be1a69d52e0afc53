import Router

/// A signed-in user's shopping cart.
public protocol Cart: AnyObject, Sendable {
    /// The user the cart belongs to.
    var owner: String { get }
    /// The books in the cart, in the order they were added.
    var items: [Book] { get }

    /// Adds a book.
    /// - Parameter book: The book to add.
    func add(_ book: Book)

    /// Empties the cart.
    func removeAll()
}

extension Cart {
    /// The sum of the items' prices, in cents.
    public var totalCents: Int { items.reduce(0) { $0 + $1.priceCents } }
}

/// How a caller sets the cart module up: the owner is required before the cart exists.
public protocol CartModuleConfig: ModuleConfiguration<any Cart> {
    /// Names the signed-in user who owns the cart. Required.
    /// - Parameter owner: The user's name.
    func constructCart(owner: String)
}

extension RoutableServiceModule where Configuration == any CartModuleConfig, Destination == any Cart {
    /// The signed-in user's cart; call `constructCart(owner:)` when making it.
    public nonisolated static var cart: Self { Self(declaring: (any CartModuleConfig).self, making: (any Cart).self) }
}
