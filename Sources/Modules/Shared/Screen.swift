import Router

/// A terminal screen: a destination that modules register like any other and the app shows on its
/// ``ScreenStack`` through a `Route`.
///
/// Screens are classes so that a route can hold them weakly and leak detection can watch them.
public protocol Screen: AnyObject {
    /// The title in the screen's header, e.g. `Cart`.
    var title: String { get }
    /// Whether the screen is presented modally (closed rather than left on `back`).
    var isModal: Bool { get }

    /// The screen's body, one or more lines, each indented by two spaces.
    /// - Returns: The text to print under the header.
    func render() -> String
}

extension Screen {
    /// Screens are pushed unless they say otherwise.
    public var isModal: Bool { false }
}

extension RoutableService where Destination == any Screen {
    /// Every screen shares this protocol; modules register theirs under a tagged form of this key,
    /// e.g. ``cartScreen``, so the app routes to one screen at a time.
    public static var screen: Self { Self(declaring: (any Screen).self) }
}

/// An error whose description is a sentence for the user, such as an empty cart at checkout.
/// The app prints it as it is, even when it reaches the app wrapped in a `RouteError`.
public protocol ShopMessage: Error, CustomStringConvertible {}

extension RouteError {
    /// The first ``ShopMessage`` in this error's chain of underlying errors, if any.
    public var shopMessage: (any ShopMessage)? {
        var current: (any Error)? = underlyingError
        while let error = current {
            if let message = error as? any ShopMessage { return message }
            current = (error as? RouteError)?.underlyingError
        }
        return nil
    }
}

/// The tags that tell screens apart under ``RoutableService/screen``; each module adds its own,
/// e.g. `ScreenTag.Cart`, so the key reads `Screen[tag: Cart]` in messages and graphs.
public enum ScreenTag {}
