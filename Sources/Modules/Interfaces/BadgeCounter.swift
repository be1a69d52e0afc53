import Router

/// One module's contribution to the badge in the app's header. Several modules register one each
/// under the same key; the notifications module adds them up.
public protocol BadgeCounter: Sendable {
    /// A short name, e.g. `cart`.
    var label: String { get }
    /// How many things are waiting for the user.
    var count: Int { get }
}

extension RoutableService where Destination == any BadgeCounter {
    /// The badge counters; look them all up with `makeDestinations(to:)`.
    public nonisolated static var badgeCounter: Self { Self(declaring: (any BadgeCounter).self) }
}
