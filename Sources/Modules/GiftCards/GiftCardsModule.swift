import Router
import ShopInterfaces

/// The gift card screen: the card balance of the shop's gift card offer.
public protocol GiftCardScreen: Screen {}

extension RoutableService where Destination == any GiftCardScreen {
    /// The gift card screen, also reachable by the path `giftcards`.
    public nonisolated static var giftCardScreen: Self { Self(declaring: (any GiftCardScreen).self) }
}

/// The optional feature built as a plugin: a gift card screen at the path `giftcards` and a badge
/// counter labelled `gift cards`. The demo links it not; built with `bash scripts/build-plugin.sh`, it is
/// loaded from the plugin directory at start. Not a `ShopFeatureModule`: the test image links it (its own
/// tests), and the shop's tests take only the linked features from discovery.
public struct GiftCardsModule: RouteModule {
    /// Makes the module.
    public init() {}

    /// Registers ``RoutableService/giftCardScreen``, the path `giftcards` and a
    /// ``RoutableService/badgeCounter`` labelled `gift cards`.
    /// - Parameter registry: The registry being assembled.
    /// - Throws: ``RouteError`` when the registry is sealed.
    public func register(in registry: RouteRegistry) throws {
        try registry.register(.giftCardScreen) { _ in GiftCardPage() }
        try registry.register(path: "giftcards", to: .giftCardScreen)
        try registry.register(.badgeCounter) { _ in GiftCardBadge() }
    }
}

// Discoverable: the demo finds this module in the plugin library it loads, after the linked features.
#if compiler(>=6.3)
    #if objectFormat(MachO)
        @used @section("__DATA_CONST,__router_modules")
    #else
        @used @section("router_modules")
    #endif
    let giftCardsModuleRecord: RouteModuleRecord = (1, 80, { ModuleDiscovery.export(GiftCardsModule()) })
#endif

private final class GiftCardPage: GiftCardScreen {
    var title: String { "Gift cards" }

    func render() -> String {
        "  Give a book: gift cards of $10.00, $25.00 and $50.00, sent by email."
    }
}

private struct GiftCardBadge: BadgeCounter {
    var label: String { "gift cards" }
    var count: Int { 0 }
}
