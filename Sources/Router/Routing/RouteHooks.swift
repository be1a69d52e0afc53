/// Per-destination hooks a registration (or a ``ServiceRouter`` subclass) declares: they fire for every
/// ``Route`` to its destinations, whoever performs it: logging, analytics, focus handling.
///
/// ```swift
/// try registry.register(.profileScreen) { _ in ProfileScreen() }
///     .hooks(RouteHooks(didPerform: { screen in analytics.shown(screen) }))
/// ```
public struct RouteHooks<Destination>: Sendable {
    /// Runs after the destination is made and prepared, before it is presented.
    public var willPerform: (@Sendable (Destination) -> Void)?
    /// Runs once the route is performed (for a presented destination, once it is shown).
    public var didPerform: (@Sendable (Destination) -> Void)?
    /// Runs before the destination is removed.
    public var willRemove: (@Sendable (Destination) -> Void)?
    /// Runs once the destination is removed.
    public var didRemove: (@Sendable (Destination) -> Void)?

    /// Makes a set of hooks; any of them may be left out.
    /// - Parameters:
    ///   - willPerform: Runs after the destination is made and prepared, before it is presented.
    ///   - didPerform: Runs once the route is performed.
    ///   - willRemove: Runs before the destination is removed.
    ///   - didRemove: Runs once the destination is removed.
    public init(
        willPerform: (@Sendable (Destination) -> Void)? = nil, didPerform: (@Sendable (Destination) -> Void)? = nil,
        willRemove: (@Sendable (Destination) -> Void)? = nil, didRemove: (@Sendable (Destination) -> Void)? = nil
    ) {
        self.willPerform = willPerform
        self.didPerform = didPerform
        self.willRemove = willRemove
        self.didRemove = didRemove
    }

    func fire(_ moment: HookMoment, _ destination: Destination) {
        switch moment {
        case .willPerform: willPerform?(destination)
        case .didPerform: didPerform?(destination)
        case .willRemove: willRemove?(destination)
        case .didRemove: didRemove?(destination)
        }
    }
}

/// When a per-destination hook fires.
enum HookMoment: Sendable {
    case willPerform, didPerform, willRemove, didRemove
}
