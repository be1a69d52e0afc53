import Router
import ShopInterfaces

/// A session that starts signed in as `user` (or signed out) and resets nothing on sign-out.
public final class FakeSession: UserSession {
    private let user: TestLocked<String?>

    /// Makes the session.
    /// - Parameter user: Who is signed in, nil for nobody.
    public init(user: String?) {
        self.user = TestLocked(user)
    }

    /// The signed-in user's name.
    public var currentUser: String? { user.withLock { $0 } }

    /// Signs `name` in unless someone is.
    /// - Parameter name: The user's name.
    /// - Returns: False when someone is already signed in.
    public func signIn(_ name: String) -> Bool {
        user.withLock { user in
            guard user == nil else { return false }
            user = name
            return true
        }
    }

    /// Signs the user out.
    /// - Returns: Who was signed in.
    public func signOut() -> String? {
        user.withLock { user in
            defer { user = nil }
            return user
        }
    }
}

/// A cart holding whatever the test puts in it.
public final class FakeCart: Cart {
    /// The owner given at creation.
    public let owner: String
    private let books: TestLocked<[Book]>

    /// Makes the cart.
    /// - Parameters:
    ///   - owner: The owner.
    ///   - items: The books already in it.
    public init(owner: String, items: [Book] = []) {
        self.owner = owner
        self.books = TestLocked(items)
    }

    /// The books in the cart.
    public var items: [Book] { books.withLock { $0 } }

    /// Adds a book.
    /// - Parameter book: The book.
    public func add(_ book: Book) { books.withLock { $0.append(book) } }

    /// Empties the cart.
    public func removeAll() { books.withLock { $0.removeAll() } }
}

/// The configuration a fake cart registration uses; records the owner.
public final class FakeCartConfiguration: ModuleConfiguration<any Cart>, CartModuleConfig {
    /// The owner named by `constructCart(owner:)`.
    public var owner: String?

    /// Records the owner.
    /// - Parameter owner: The user's name.
    public func constructCart(owner: String) { self.owner = owner }
}

/// A badge counter with a fixed label and count.
public struct FixedBadge: BadgeCounter {
    /// The label.
    public let label: String
    /// The count.
    public let count: Int

    /// Makes the counter.
    /// - Parameters:
    ///   - label: The label.
    ///   - count: The count.
    public init(label: String, count: Int) {
        self.label = label
        self.count = count
    }
}

extension RouteRegistry {
    /// Registers a ``FakeSession`` for `user` as the app's session, a singleton.
    /// - Parameter user: Who is signed in, nil for nobody.
    /// - Throws: `RouteError` when the registry is sealed.
    public func registerFakeSession(user: String?) throws {
        try register(.userSession) { _ in FakeSession(user: user) }.scope(.singleton)
    }

    /// Registers `cart` as the cart, checking that the caller names an owner as the real module requires.
    /// - Parameter cart: The cart every lookup returns.
    /// - Throws: `RouteError` when the registry is sealed.
    public func registerFakeCart(_ cart: FakeCart) throws {
        try register(.cart, configuration: FakeCartConfiguration.init) { config, _ in
            _ = try config.require(config.owner, setBy: "constructCart(owner:)")
            return cart
        }
    }
}

/// The badge counters a registry makes, as `label count` pairs, e.g. `["cart 1"]`.
/// - Parameter registry: A sealed registry.
/// - Returns: One entry per registered counter, in registration order.
/// - Throws: `RouteError` when a counter cannot be made.
public func badgeCounts(in registry: RouteRegistry) throws -> [String] {
    try registry.makeDestinations(to: .badgeCounter).map { "\($0.label) \($0.count)" }
}
