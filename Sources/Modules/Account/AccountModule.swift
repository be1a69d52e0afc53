import Router
import ShopInterfaces
import Synchronization

/// Registers the session as a singleton. Signing out resets the per-user scope.
public struct AccountModule: UserScopedModule {
    /// The scope that holds everything a signed-in user owns.
    public let userScope: CustomScope

    /// Makes the module.
    /// - Parameter userScope: The per-user scope, reset on sign-out.
    public init(userScope: CustomScope = .user) {
        self.userScope = userScope
    }

    /// Registers ``RoutableService/userSession``.
    /// - Parameter registry: The registry being assembled.
    /// - Throws: ``RouteError`` when the registry is sealed.
    public func register(in registry: RouteRegistry) throws {
        let scope = userScope
        try registry.register(.userSession) { _ in SessionStore(userScope: scope) }.scope(.singleton)
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
    let accountModuleRecord: RouteModuleRecord = (1, 10, { ModuleDiscovery.export(AccountModule()) })
#endif

private final class SessionStore: UserSession {
    private let user = Mutex<String?>(nil)
    private let userScope: CustomScope

    init(userScope: CustomScope) {
        self.userScope = userScope
    }

    var currentUser: String? { user.withLock { $0 } }

    func signIn(_ name: String) -> Bool {
        user.withLock { user in
            guard user == nil else { return false }
            user = name
            return true
        }
    }

    func signOut() -> String? {
        let previous = user.withLock { user in
            let previous = user
            user = nil
            return previous
        }
        if previous != nil { userScope.reset() }
        return previous
    }
}
