import Router

extension CustomScope {
    /// The per-user scope the features share: everything a signed-in user owns, reset on sign-out. A module
    /// that discovery makes (see `ModuleDiscovery`) uses it.
    public static let user = CustomScope("user")
}

/// A module that keeps instances in the per-user scope, and can be made again with another one (tests give
/// each registry a scope of its own).
public protocol UserScopedModule: RouteModule {
    /// Makes the module with `userScope` as its per-user scope.
    init(userScope: CustomScope)
}
