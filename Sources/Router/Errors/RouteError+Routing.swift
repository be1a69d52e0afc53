/// The sentences a route says when its interceptors stop it.
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
