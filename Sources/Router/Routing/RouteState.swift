/// Where a ``Route`` is in its life: `unrouted → routing → routed → removing → removed`.
public enum RouteState: String, Sendable, CustomStringConvertible {
    /// Not performed yet (or a perform failed).
    case unrouted
    /// Performing: the destination is made and being presented.
    case routing
    /// Performed: the destination is shown (or, for a service, made).
    case routed
    /// Removing: the destination is being hidden.
    case removing
    /// Removed: the route may be performed again.
    case removed

    /// The state's name.
    public var description: String { rawValue }
}
