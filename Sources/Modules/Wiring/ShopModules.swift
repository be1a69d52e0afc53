import Router
import ShopInterfaces

/// The bookshop's modules. The features are not named here: each declares itself with a record (see
/// `ModuleDiscovery`), so linking a feature into the app adds it and unlinking it removes it. The wiring
/// module, which joins features that do not know each other, is the one module the app names.
public enum ShopModules {
    /// The modules the app names itself, loaded after the discovered ones.
    public static var wiring: [any RouteModule] { [ShopWiringModule()] }

    /// Every module of the shop: the discovered features, each given `userScope` when it keeps per-user
    /// instances, then the wiring.
    /// - Parameters:
    ///   - userScope: The scope reset when the user signs out.
    ///   - discovery: Where the features are found (default: the images loaded now).
    /// - Returns: The modules, to pass to `RouteRegistry(modules:)`.
    public static func all(
        userScope: CustomScope, discovery: ModuleDiscovery = .loadedImages()
    ) -> [any RouteModule] {
        discovery.modules.compactMap { found -> (any RouteModule)? in
            if let scoped = found.module as? any UserScopedModule { return type(of: scoped).init(userScope: userScope) }
            return found.module is any ShopFeatureModule ? found.module : nil
        } + wiring
    }
}
