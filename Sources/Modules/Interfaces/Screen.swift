import Router

/// A terminal screen: a destination that modules register like any other and the app shows on its
/// screen stack through a `Route`.
///
/// Each module declares its screens' own protocols, refining this one, with their own keys (e.g.
/// `CartScreen` and `.cartScreen`); the app's stack presents any `Screen`, so a route to a narrower
/// screen protocol is performed on it with `perform(on:as:)`.
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

/// Why a route was cancelled or a screen could not be made: it needs a signed-in user.
public struct SignInNeeded: ShopMessage, Equatable {
    /// Makes the error.
    public init() {}

    /// The message for the user.
    public var description: String { "Sign in first: login NAME." }
}
