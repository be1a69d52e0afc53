import Router

extension CustomScope {
    /// The per-user scope the features share: everything a signed-in user owns, reset on sign-out. A module
    /// that discovery makes (see `ModuleDiscovery`) uses it.
    public static let user = CustomScope("user")
}

/// A feature module of the shop: what the wiring takes from discovery (a test image may hold other
/// discoverable modules).
public protocol ShopFeatureModule: RouteModule {}

/// A module that keeps instances in the per-user scope, and can be made again with another one (tests give
/// each registry a scope of its own).
public protocol UserScopedModule: ShopFeatureModule {
    /// Makes the module with `userScope` as its per-user scope.
    init(userScope: CustomScope)
}
