import Router
import ShopInterfaces

/// A route interceptor that cancels routes to screens only a signed-in user may see (the cart, checkout,
/// the chat) while nobody is signed in. The cancelled route fails with `RouteError` code
/// `routeCancelled`, whose underlying error is ``SignInNeeded``.
///
/// An interceptor sees what a route leads to (``RouteContext/target``): a key, or the path it was made
/// from, so the protected screens are listed by key and by path.
public struct SignInRequired: RouteInterceptor {
    private let keys: Set<RouteKey>
    private let paths: [String]
    private let session: @Sendable () throws -> (any UserSession)?

    /// Makes the interceptor.
    /// - Parameters:
    ///   - keys: The protected keys, e.g. `RouteKey(.cartScreen)`; the app's wiring lists them, since this
    ///     module does not know the other modules' keys.
    ///   - paths: The protected paths; each also protects the paths below it (`orders` protects `orders/2`).
    ///   - session: Looks up the session when a route is about to be performed.
    public init(
        keys: [RouteKey], paths: [String], session: @escaping @Sendable () throws -> (any UserSession)?
    ) {
        self.keys = Set(keys)
        self.paths = paths
        self.session = session
    }

    /// Throws ``SignInNeeded`` when the route leads to a protected screen and nobody is signed in.
    /// - Parameter context: The route about to be performed.
    /// - Throws: ``SignInNeeded``.
    public func beforePerform(_ context: RouteContext) throws {
        guard context.action == .perform, protects(context.target) else { return }
        guard try session()?.currentUser == nil else { return }
        throw SignInNeeded()
    }

    private func protects(_ target: RouteContext.Target) -> Bool {
        switch target {
        case .key(let key):
            return keys.contains(key)
        case .path(let path):
            // Without its query: `cart?tab=1` is the cart.
            let bare = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            return paths.contains { bare == $0 || bare.hasPrefix($0 + "/") }
        }
    }
}
