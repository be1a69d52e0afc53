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
///
/// A guard written with ``RouteContext/leads(to:)-(RoutableService<Destination>)`` holds however the
/// screen is reached, because it asks for the key the route makes, not how the route was written
/// (pinned by `aGuardOnAKeyRefusesEveryWayToItsScreenWhileSignedOut`). Interceptors run for:
///
/// - a ``Route``, performed or removed, made from a key (``RouteRegistry/route(to:)``), a module key
///   (``RouteRegistry/route(to:configuring:)``) or a path (``RouteRegistry/route(path:as:)``,
///   ``RouteRegistry/route(path:)``);
/// - the lookups by string, which are how outside input (a deep link, a typed command) reaches a
///   destination: ``RouteRegistry/makeDestination(path:as:isolation:)`` and
///   ``RouteRegistry/makeDestination(identifier:as:isolation:)``, each as a route performed without a
///   presenter (`beforePerform` first; a throw makes nothing, pinned by
///   `aCancelledLookupByPathOrIdentifierReachesTheErrorHandlerAndMakesNothing`). They are lookups, not
///   routes you can remove: a registration's ``RouteHooks`` do not fire for them.
///
/// They do not run for the lookups by key (``RouteRegistry/makeDestination(to:arguments:isolation:preparation:)`` and its
/// forms, ``RouteRegistry/makeDestinations(to:isolation:)``, the async lookups, a factory's
/// ``Resolver`` lookups): those are dependency lookups, made by code that names the key, not routes
/// (pinned by `aLookupByKeyIsNotARouteAndRunsNoInterceptor`). To guard a screen, show it through a route.
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

    /// What a route leads to, as it was made. Whichever it is, ``RouteContext/destinationKey`` is the key
    /// whose destination the route makes.
    public enum Target: Sendable, Hashable, CustomStringConvertible {
        /// A route made from a key (``RouteRegistry/route(to:)``).
        case key(RouteKey)
        /// A route made from a path (``RouteRegistry/route(path:as:)``,
        /// ``RouteRegistry/makeDestination(path:as:isolation:)``): the path as given, e.g. `books/3?tab=1`.
        case path(String)
        /// A lookup by a registration's string identifier
        /// (``RouteRegistry/makeDestination(identifier:as:isolation:)``).
        case identifier(String)

        /// The target as it reads in logs: the key's description, the path in quotes, or `identifier`
        /// and the identifier in quotes.
        public var description: String {
            switch self {
            case .key(let key): key.description
            case .path(let path): "\"\(RouteError.displayable(path))\""
            case .identifier(let identifier): "identifier \"\(RouteError.displayable(identifier))\""
            }
        }
    }

    /// The route action.
    public let action: Action
    /// What the route leads to, as it was made.
    public let target: Target
    /// The key whose destination the route makes, however it was made: the key itself, the key a path's
    /// pattern routes to, or the key of the registration an identifier names.
    public let destinationKey: RouteKey

    /// Whether the route makes the destination of `key`, however it was made: from `key`, from a path whose
    /// pattern routes to `key`, or from the identifier of `key`'s registration (pinned by
    /// `aRouteFromAPathLeadsToTheKeyItsPatternRoutesTo`).
    /// - Parameter key: A service key.
    /// - Returns: True when ``destinationKey`` is that key (same protocol, name and tag).
    public func leads<Destination>(to key: RoutableService<Destination>) -> Bool {
        destinationKey.id == key.id
    }

    /// Whether the route makes the destination of `key`, however it was made: from `key`, from a path whose
    /// pattern routes to `key`, or from the identifier of `key`'s registration.
    /// - Parameter key: A module key.
    /// - Returns: True when ``destinationKey`` is that key.
    public func leads<Configuration, Destination>(to key: RoutableServiceModule<Configuration, Destination>) -> Bool {
        destinationKey.id == key.id
    }

    /// The path of a route made from a path, without its query (`books/3` for `books/3?tab=1`); nil for a
    /// route made from a key or an identifier.
    public var path: String? {
        guard case .path(let path) = target else { return nil }
        return String(path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    }

    /// The context as it reads in logs: `perform RoutableService<ProfileScreen>`.
    public var description: String { "\(action.rawValue) \(target)" }
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

    /// The route key of a key known by its identity and description (a path's target, a registration's key).
    init(id: KeyID, key: KeyDescription) {
        self.id = id
        description = key.full
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

    /// Runs each interceptor's ``RouteInterceptor/beforePerform(_:)``, in order; the first that throws
    /// cancels the route with ``RouteError/Code/routeCancelled``, and those after it do not run.
    static func runBeforePerform(_ interceptors: [any RouteInterceptor], _ context: RouteContext) throws {
        for interceptor in interceptors {
            do {
                try interceptor.beforePerform(context)
            } catch {
                throw RouteError.interceptorCancelled(context, error)
            }
        }
    }

    /// Runs each interceptor's after-calls for a finished route action: ``RouteInterceptor/afterPerform(_:)``,
    /// then ``RouteInterceptor/afterSuccess(_:)`` or ``RouteInterceptor/afterError(_:error:)``.
    static func runAfter(_ interceptors: [any RouteInterceptor], _ context: RouteContext, failure: RouteError?) {
        for interceptor in interceptors { interceptor.afterPerform(context) }
        if let failure {
            for interceptor in interceptors { interceptor.afterError(context, error: failure) }
        } else {
            for interceptor in interceptors { interceptor.afterSuccess(context) }
        }
    }

    /// Makes a destination by path or identifier as a route performed without a presenter: the interceptors'
    /// `beforePerform` first (a throw cancels: `make` does not run), then their after-calls with the outcome.
    /// Without interceptors, just `make`, and the key (whose description names a type) is never built.
    /// Nothing is reported to the error handler here but a cancellation, and only when `reportingCancel` (a
    /// caller whose `make` reports its own failures).
    func intercepting<Made>(
        _ interceptors: [any RouteInterceptor], _ target: RouteContext.Target,
        leadingTo destinationKey: @autoclosure () -> RouteKey, reportingCancel: Bool, _ make: () throws -> Made
    ) throws -> Made {
        guard !interceptors.isEmpty else { return try make() }
        let context = RouteContext(action: .perform, target: target, destinationKey: destinationKey())
        do {
            try Self.runBeforePerform(interceptors, context)
        } catch let cancelled as RouteError {
            Self.runAfter(interceptors, context, failure: cancelled)
            throw reportingCancel ? report(cancelled) : cancelled
        }
        let made: Made
        do {
            made = try make()
        } catch {
            Self.runAfter(interceptors, context, failure: RouteError.routeFailed(error, key: target.description))
            throw error
        }
        Self.runAfter(interceptors, context, failure: nil)
        return made
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
