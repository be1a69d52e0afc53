/// How long a registration's instances live and who shares them.
///
/// | scope | one instance per |
/// |---|---|
/// | ``transient`` | lookup (the default) |
/// | ``graph`` | top-level `makeDestination` call, shared by everything built in it |
/// | ``singleton`` | registry, built on first use, exactly once even under contention |
/// | ``weakSingleton`` | registry while someone holds it; rebuilt after release |
/// | ``eagerSingleton`` | registry, built when the registry is sealed |
/// | ``request`` | open ``RequestScope`` (one request), released when it ends |
/// | ``custom(_:)`` | ``CustomScope`` (one shared bucket), until the scope is reset |
public struct Scope: Sendable, Hashable, CustomStringConvertible {
    @usableFromInline
    enum Kind: UInt8, Sendable {
        case transient, graph, singleton, weakSingleton, eagerSingleton, custom, request
        /// A key whose value each request scope supplies (``RouteRegistry/registerSupplied(_:file:line:)``):
        /// never built, so not offered as a public scope.
        case supplied
    }

    @usableFromInline let kind: Kind
    @usableFromInline
    let customScope: CustomScope?

    private init(_ kind: Kind, custom: CustomScope? = nil) {
        self.kind = kind
        self.customScope = custom
    }

    /// A new instance for every lookup.
    public static let transient = Scope(.transient)
    /// One instance per top-level lookup, shared by every object built during it.
    public static let graph = Scope(.graph)
    /// One instance per registry, built lazily on first use, exactly once.
    public static let singleton = Scope(.singleton)
    /// One instance shared while anyone holds a strong reference to it; built again after release.
    /// Only class instances can be held weakly: a value destination behaves as ``transient``.
    public static let weakSingleton = Scope(.weakSingleton)
    /// One instance per registry, built when the registry is sealed.
    public static let eagerSingleton = Scope(.eagerSingleton)

    /// One instance per open ``RequestScope``, shared by every lookup made in it (concurrent ones too: built
    /// exactly once), never shared with another scope, released when the scope ends.
    ///
    /// Look such a key up through the scope (``RequestScope/makeDestination(to:arguments:isolation:preparation:)``,
    /// ``RequestScope/makeDestinationAsync(to:arguments:preparation:)``), or from any factory running in one of its lookups;
    /// anywhere else the lookup fails with ``RouteError/Code/outsideRequestScope``.
    public static let request = Scope(.request)
    /// How a key registered with ``RouteRegistry/registerSupplied(_:file:line:)`` lives: supplied by each
    /// request scope.
    static let supplied = Scope(.supplied)

    /// One instance per user-created scope (a signed-in session, a document), released by
    /// ``CustomScope/reset()``. It is one bucket shared by every lookup until reset: for one instance per
    /// request, use ``request``.
    /// - Parameter scope: The scope that holds the instances.
    /// - Returns: A scope value for a registration.
    public static func custom(_ scope: CustomScope) -> Scope { Scope(.custom, custom: scope) }

    /// Whether the instance lives in an open request scope (request-scoped or supplied).
    var isPerRequest: Bool { kind == .request || kind == .supplied }

    /// Whether instances outlive a single top-level lookup.
    @usableFromInline var isShared: Bool { kind != .transient && kind != .graph }

    /// How long-lived the scope is, for the captive-dependency check: a longer-lived instance must not
    /// capture a shorter-lived one.
    var lifetimeRank: Int {
        switch kind {
        case .transient: return 0
        case .graph: return 1
        case .request, .supplied: return 2
        case .custom: return 3
        case .weakSingleton: return 4
        case .singleton, .eagerSingleton: return 5
        }
    }

    /// The scope in a sentence: "X is \(phrase)".
    var phrase: String {
        switch kind {
        case .transient: return "transient"
        case .graph: return "graph-scoped"
        case .singleton: return "a singleton"
        case .weakSingleton: return "a weak singleton"
        case .eagerSingleton: return "an eager singleton"
        case .custom: return "scoped to \(customScope?.description ?? "a custom scope")"
        case .request: return "request-scoped"
        case .supplied: return "supplied by each request scope"
        }
    }

    /// The scope's name, e.g. `singleton` or `custom(session)`.
    public var description: String {
        switch kind {
        case .transient: return "transient"
        case .graph: return "graph"
        case .singleton: return "singleton"
        case .weakSingleton: return "weakSingleton"
        case .eagerSingleton: return "eagerSingleton"
        case .custom: return "custom(\(customScope?.name ?? "?"))"
        case .request: return "request"
        case .supplied: return "supplied"
        }
    }

    /// Scopes are equal when they are of the same kind and, for custom scopes, the same scope object.
    /// - Parameters:
    ///   - lhs: A scope.
    ///   - rhs: Another scope.
    /// - Returns: Whether both describe the same lifetime.
    public static func == (lhs: Scope, rhs: Scope) -> Bool {
        lhs.kind == rhs.kind && lhs.customScope === rhs.customScope
    }

    /// Hashes the scope's kind and custom scope identity.
    /// - Parameter hasher: The hasher to feed.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        if let customScope { hasher.combine(ObjectIdentifier(customScope)) }
    }
}
