import Router
import ShopInterfaces

/// A route interceptor that cancels routes to screens only a signed-in user may see (the cart, checkout,
/// the chat) while nobody is signed in. The cancelled route fails with `RouteError` code
/// `routeCancelled`, whose underlying error is ``SignInNeeded``.
///
/// An interceptor sees a route's key (or, for a path route, its path) as text, so the protected
/// screens are listed by key description and by path.
public struct SignInRequired: RouteInterceptor {
    private let keys: Set<String>
    private let paths: [String]
    private let session: @Sendable () throws -> (any UserSession)?

    /// Makes the interceptor.
    /// - Parameters:
    ///   - keys: The descriptions of the protected keys, e.g. `RoutableService.cartScreen.description`;
    ///     the app's wiring lists them, since this module does not know the other modules' keys.
    ///   - paths: The protected paths; each also protects the paths below it (`orders` protects `orders/2`).
    ///   - session: Looks up the session when a route is about to be performed.
    public init(
        keys: [String], paths: [String], session: @escaping @Sendable () throws -> (any UserSession)?
    ) {
        self.keys = Set(keys)
        self.paths = paths
        self.session = session
    }

    /// Throws ``SignInNeeded`` when the route leads to a protected screen and nobody is signed in.
    /// - Parameter context: The route about to be performed.
    /// - Throws: ``SignInNeeded``.
    public func beforePerform(_ context: RouteContext) throws {
        guard context.action == .perform, protects(context.key) else { return }
        guard try session()?.currentUser == nil else { return }
        throw SignInNeeded()
    }

    private func protects(_ key: String) -> Bool {
        if keys.contains(key) { return true }
        // A path route's key is the quoted path, e.g. "\"cart?tab=1\"".
        guard key.hasPrefix("\""), key.hasSuffix("\""), key.count >= 2 else { return false }
        let path = key.dropFirst().dropLast().split(separator: "?", maxSplits: 1).first ?? ""
        return paths.contains { path == $0 || path.hasPrefix($0 + "/") }
    }
}
