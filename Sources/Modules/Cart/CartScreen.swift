import Router
import ShopInterfaces

/// The screen that lists the signed-in user's cart. The cart protocol itself is shared (checkout needs
/// it) and lives with the interfaces; this screen is the cart module's own.
public protocol CartScreen: Screen {
    /// The cart shown.
    var cart: any Cart { get }
}

extension RoutableService where Destination == any CartScreen {
    /// The signed-in user's cart, as a screen; also reachable by the path `cart`.
    public nonisolated static var cartScreen: Self { Self(declaring: (any CartScreen).self) }
}
