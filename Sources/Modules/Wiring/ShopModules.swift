import AccountFeature
import CartFeature
import CatalogFeature
import ChatFeature
import CheckoutFeature
import NotificationsFeature
import PaymentsFeature
import Router
import ShopInterfaces

/// The bookshop's modules in the order the app loads them. This target is the only one that sees every
/// feature module: the features see only `Router` and `ShopInterfaces`.
public enum ShopModules {
    /// Every module of the app, sharing one per-user scope.
    /// - Parameter userScope: The scope reset when the user signs out.
    /// - Returns: The modules, to pass to `RouteRegistry(modules:)`.
    public static func all(userScope: CustomScope) -> [any RouteModule] {
        [
            AccountModule(userScope: userScope),
            CatalogModule(),
            CartModule(userScope: userScope),
            PaymentsModule(),
            CheckoutModule(userScope: userScope),
            NotificationsModule(),
            ChatModule(userScope: userScope),
            ShopWiringModule(),
        ]
    }
}
