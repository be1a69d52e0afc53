import Router
import ShopInterfaces

/// A route interceptor that cancels routes to screens only a signed-in user may see (the cart, checkout,
/// the chat) while nobody is signed in. The cancelled route fails with `RouteError` code
/// `routeCancelled`, whose underlying error is ``SignInNeeded``.
///
/// It guards keys, not paths: an interceptor is told the key a route makes however the route was made
/// (``RouteContext/destinationKey``), so a route to the key, a route to any path whose pattern routes to
/// it and a lookup by path (`makeDestination(path:as:)`) are all refused.
public struct SignInRequired: RouteInterceptor {
    private let keys: Set<RouteKey>
    private let session: @Sendable () throws -> (any UserSession)?

    /// Makes the interceptor.
    /// - Parameters:
    ///   - keys: The protected keys, e.g. `RouteKey(.cartScreen)`; the app's wiring lists them, since this
    ///     module does not know the other modules' keys. Every path to a protected key is protected too.
    ///   - session: Looks up the session when a route is about to be performed.
    public init(keys: [RouteKey], session: @escaping @Sendable () throws -> (any UserSession)?) {
        self.keys = Set(keys)
        self.session = session
    }

    /// Throws ``SignInNeeded`` when the route leads to a protected screen and nobody is signed in.
    /// - Parameter context: The route about to be performed.
    /// - Throws: ``SignInNeeded``.
    public func beforePerform(_ context: RouteContext) throws {
        guard context.action == .perform, keys.contains(context.destinationKey) else { return }
        guard try session()?.currentUser == nil else { return }
        throw SignInNeeded()
    }
}
