import Router
import ShopInterfaces

/// Registers the shop's own badge counter (news for signed-out visitors: one welcome note, none once
/// signed in) and the header's badge, which adds up every module's counter.
public struct NotificationsModule: ShopFeatureModule {
    /// Makes the module.
    public init() {}

    /// Registers a ``RoutableService/badgeCounter`` labelled `news` and ``RoutableService/badge``.
    /// - Parameter registry: The registry being assembled.
    /// - Throws: ``RouteError`` when the registry is sealed.
    public func register(in registry: RouteRegistry) throws {
        try registry.register(.badgeCounter) { r in
            let signedIn = try r.resolveIfRegistered(.userSession)?.currentUser != nil
            return NewsBadge(count: signedIn ? 0 : 1)
        }.dependencies(.initializer(.userSession))
        try registry.register(.badge) { r in
            BadgeSummary(try r.resolveAll(.badgeCounter))
        }.dependencies(.many(.badgeCounter))
    }
}

// Discoverable: the app finds this module by its record, without naming it (see `ModuleDiscovery`); the
// order number keeps the load order, and with it the badge's parts and the graph's roots, as it was.
#if compiler(>=6.3)
    #if objectFormat(MachO)
        @used @section("__DATA_CONST,__router_modules")
    #else
        @used @section("router_modules")
    #endif
    let notificationsModuleRecord: RouteModuleRecord = (1, 60, { ModuleDiscovery.export(NotificationsModule()) })
#endif

private struct NewsBadge: BadgeCounter {
    let label = "news"
    let count: Int
}
