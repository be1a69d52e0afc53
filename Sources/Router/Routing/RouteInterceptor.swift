import Synchronization

/// Runs around every route a registry performs or removes: logging, analytics, permission checks.
///
/// Every method has a default that does nothing; implement the ones you need. Throwing from
/// ``beforePerform(_:)`` cancels the route with ``RouteError/Code/routeCancelled``.
///
/// ```swift
/// struct SignedInOnly: RouteInterceptor {
///     let session: any UserSession
///     func beforePerform(_ context: RouteContext) throws {
///         if context.key.contains("Checkout") && !session.isSignedIn { throw NotSignedIn() }
///     }
/// }
/// registry.addInterceptor(SignedInOnly(session: session))
/// ```
public protocol RouteInterceptor: Sendable {
    /// Runs before a route is performed; throw to cancel it.
    /// - Parameter context: What is about to be routed.
    /// - Throws: Any error, which cancels the route.
    func beforePerform(_ context: RouteContext) throws
    /// Runs after a route action finished, whatever its outcome.
    /// - Parameter context: What was routed.
    func afterPerform(_ context: RouteContext)
    /// Runs after a route action succeeded.
    /// - Parameter context: What was routed.
    func afterSuccess(_ context: RouteContext)
    /// Runs after a route action failed.
    /// - Parameters:
    ///   - context: What was routed.
    ///   - error: Why it failed.
    func afterError(_ context: RouteContext, error: RouteError)
}

extension RouteInterceptor {
    /// Does nothing, so the route goes ahead.
    /// - Parameter context: What is about to be routed.
    /// - Throws: Nothing; implementations throw to cancel the route.
    public func beforePerform(_ context: RouteContext) throws {}
    /// Does nothing.
    /// - Parameter context: What was routed.
    public func afterPerform(_ context: RouteContext) {}
    /// Does nothing.
    /// - Parameter context: What was routed.
    public func afterSuccess(_ context: RouteContext) {}
    /// Does nothing.
    /// - Parameters:
    ///   - context: What was routed.
    ///   - error: Why it failed.
    public func afterError(_ context: RouteContext, error: RouteError) {}
}

/// What a ``RouteInterceptor`` is told about a route.
public struct RouteContext: Sendable, CustomStringConvertible {
    /// The kind of route action.
    public enum Action: String, Sendable {
        /// Making and showing a destination.
        case perform
        /// Hiding a destination.
        case remove
    }

    /// The route action.
    public let action: Action
    /// The key routed to, e.g. `RoutableService<ProfileScreen>`, or the path, e.g. `"books/3"`.
    public let key: String

    /// The context as it reads in logs: `perform RoutableService<ProfileScreen>`.
    public var description: String { "\(action.rawValue) \(key)" }
}

extension RouteRegistry {
    /// Adds an interceptor that runs around every route this registry (and its child registries) performs
    /// or removes, after those added before it.
    /// - Parameter interceptor: The interceptor.
    public func addInterceptor(_ interceptor: any RouteInterceptor) {
        routing.withLock { $0.interceptors.append(interceptor) }
    }

    /// The interceptors that apply to this registry's routes: its parent's, then its own.
    var interceptors: [any RouteInterceptor] {
        (parent?.interceptors ?? []) + routing.withLock { $0.interceptors }
    }
}

/// The registry's routing state: interceptors and leak checks.
struct RoutingState: Sendable {
    var interceptors: [any RouteInterceptor] = []
    var leakCheckDelay: Duration?
    /// The leak checks scheduled and not finished yet, by number; each removes itself when it finishes.
    var leakChecks: [Int: Task<Void, Never>] = [:]
    /// The number of the next leak check.
    var nextLeakCheck = 0
}
