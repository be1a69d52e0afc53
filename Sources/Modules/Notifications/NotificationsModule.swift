import Router

/// Registers the shop's own badge counter: news for signed-out visitors (one welcome note) and none
/// once signed in.
public struct NotificationsModule: DescribedModule {
    /// Makes the module.
    public init() {}

    /// Registers a ``RoutableService/badgeCounter`` labelled `news`.
    /// - Parameter registry: The registry being assembled.
    /// - Throws: ``RouteError`` when the registry is sealed.
    public func register(in registry: RouteRegistry) throws {
        try registry.register(.badgeCounter, dependencies: [.initializer(.userSession)]) { r in
            let signedIn = try r.resolveIfRegistered(.userSession)?.currentUser != nil
            return NewsBadge(count: signedIn ? 0 : 1)
        }
    }

    /// What the module provides and uses.
    public var summary: ModuleSummary {
        ModuleSummary(
            name: "NotificationsModule",
            provides: [.init(key: RoutableService.badgeCounter.description, scope: Scope.transient.description)],
            uses: [RoutableService.userSession.description])
    }
}

private struct NewsBadge: BadgeCounter {
    let label = "news"
    let count: Int
}
