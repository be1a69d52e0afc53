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
///         if context.leads(to: .checkoutScreen) && !session.isSignedIn { throw NotSignedIn() }
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

    /// What a route leads to, as it was made.
    public enum Target: Sendable, Hashable, CustomStringConvertible {
        /// A route made from a key (``RouteRegistry/route(to:)``).
        case key(RouteKey)
        /// A route made from a path (``RouteRegistry/route(path:as:)``): the path as given, e.g.
        /// `books/3?tab=1`.
        case path(String)

        /// The target as it reads in logs: the key's description, or the path in quotes.
        public var description: String {
            switch self {
            case .key(let key): key.description
            case .path(let path): "\"\(RouteError.displayable(path))\""
            }
        }
    }

    /// The route action.
    public let action: Action
    /// What the route leads to.
    public let target: Target

    /// Whether the route was made from `key`.
    /// - Parameter key: A service key.
    /// - Returns: True when the route's target is that key (same protocol, name and tag).
    public func leads<Destination>(to key: RoutableService<Destination>) -> Bool {
        target == .key(RouteKey(key))
    }

    /// Whether the route was made from `key`.
    /// - Parameter key: A module key.
    /// - Returns: True when the route's target is that key.
    public func leads<Configuration, Destination>(to key: RoutableServiceModule<Configuration, Destination>) -> Bool {
        target == .key(RouteKey(key))
    }

    /// The path of a route made from a path, without its query (`books/3` for `books/3?tab=1`); nil for a
    /// route made from a key.
    public var path: String? {
        guard case .path(let path) = target else { return nil }
        return String(path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    }

    /// The context as it reads in logs: `perform RoutableService<ProfileScreen>`.
    public var description: String { "\(action.rawValue) \(target)" }

    /// Replaced by ``target``: the key or path as text, a path in quotes.
    @available(
        *, unavailable,
        message: "RouteContext.key was text; use leads(to:) for a key, path for a path, or target (.key or .path)"
    )
    public var key: String { target.description }
}

/// A key as a ``RouteContext`` names it: equal to another when both name the same registration key
/// (protocol, kind, name and tag), printed as the key's description.
public struct RouteKey: Sendable, Hashable, CustomStringConvertible {
    let id: KeyID
    /// The key's description, e.g. `RoutableService<ProfileScreen>`.
    public let description: String

    /// The route key of a service key.
    /// - Parameter key: The key.
    public init<Destination>(_ key: RoutableService<Destination>) {
        id = key.id
        description = key.keyDescription.full
    }

    /// The route key of a module key.
    /// - Parameter key: The key.
    public init<Configuration, Destination>(_ key: RoutableServiceModule<Configuration, Destination>) {
        id = key.id
        description = key.keyDescription.full
    }

    /// Equal when both name the same key; the description does not take part.
    /// - Parameters:
    ///   - lhs: A key.
    ///   - rhs: Another key.
    /// - Returns: Whether they name the same key.
    public static func == (lhs: RouteKey, rhs: RouteKey) -> Bool { lhs.id == rhs.id }

    /// Hashes the key's identity.
    /// - Parameter hasher: The hasher.
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
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
