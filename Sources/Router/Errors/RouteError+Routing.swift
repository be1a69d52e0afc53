/// The sentences a route says: when its interceptors stop it, when it is performed or removed at the wrong
/// time, when its presenter fails, and when its destination outlives it.
extension RouteError {
    /// An interceptor's ``RouteInterceptor/beforePerform(_:)`` threw `error`, which cancels the route. A
    /// route made from a path or an identifier also names the key it leads to.
    static func interceptorCancelled(_ context: RouteContext, _ error: any Error) -> RouteError {
        let target = context.target.description
        let leadsTo: String
        switch context.target {
        case .key: leadsTo = ""
        case .path, .identifier: leadsTo = ", which leads to \(context.destinationKey.description)"
        }
        return RouteError(
            .routeCancelled, key: target,
            reason: "An interceptor cancelled the route to \(target)\(leadsTo): \(error).",
            underlyingError: error)
    }
}

// MARK: Performing and removing

extension RouteError {
    /// What a route to `key` failed with: `error` itself when it is a ``RouteError``, otherwise it wrapped.
    static func routeFailed(_ error: any Error, key: String) -> RouteError {
        if let routeError = error as? RouteError { return routeError }
        return RouteError(
            .factoryFailed, key: key, reason: "The route to \(key) failed: \(error).", underlyingError: error)
    }

    /// A route to `key` performed while it is already routing.
    static func alreadyRouting(_ key: String) -> RouteError {
        RouteError(
            .overRoute, key: key, reason: "The route to \(key) is already routing.",
            hint: "Wait for it to complete (see stateDidChange) before performing again.")
    }

    /// A route to `key` performed again while it is `state` (routed or removing).
    static func performedAgain(_ key: String, state: RouteState) -> RouteError {
        RouteError(
            .actionFailed, key: key, reason: "The route to \(key) is \(state); it cannot be performed again.",
            hint: "Remove it first, or make a new route.")
    }

    /// The presenter could not show the destination of the route to `key`: it reported `error`.
    static func presenterCouldNotShow(_ key: String, _ error: any Error) -> RouteError {
        RouteError(
            .destinationUnavailable, key: key,
            reason: "The presenter could not show the destination of \(key): \(error).",
            underlyingError: error)
    }

    /// A route to `key` removed while it is `state`, not routed.
    static func removedWhileNotRouted(_ key: String, state: RouteState) -> RouteError {
        RouteError(
            .actionFailed, key: key,
            reason: "Cannot remove the route to \(key): it is \(state), not routed.",
            hint: "Perform the route first, and remove it once.")
    }

    /// A route to `key` removed after its destination, held weakly, was released.
    static func removedAfterDestinationWentAway(_ key: String) -> RouteError {
        RouteError(
            .actionFailed, key: key,
            reason: "Cannot remove the route to \(key): its destination is already gone.",
            hint: "A route holds its destination weakly; keep a reference while it is shown.")
    }

    /// The preparation given to the removal of the route to `key` threw `error`.
    static func removalPreparationFailed(_ key: String, _ error: any Error) -> RouteError {
        RouteError(
            .factoryFailed, key: key, reason: "The removal preparation of \(key) threw: \(error).",
            underlyingError: error)
    }

    /// The presenter could not remove the destination of the route to `key`: it reported `error`.
    static func presenterCouldNotRemove(_ key: String, _ error: any Error) -> RouteError {
        RouteError(
            .actionFailed, key: key,
            reason: "The presenter could not remove the destination of \(key): \(error).",
            underlyingError: error)
    }

    /// A destination of type `typeName`, removed by the route to `key`, still alive `delay` later: reported
    /// to the error handler.
    static func destinationLeaked(_ key: String, typeName: String, after delay: Duration) -> RouteError {
        RouteError(
            .destinationLeaked, key: key,
            reason:
                "The destination \(typeName) of \(key) was removed but is still alive after \(delay).",
            hint: "Look for a strong reference to it: a closure capturing it, a delegate, a cache.")
    }
}
