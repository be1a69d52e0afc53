import Router
import ShopInterfaces

extension RoutableService where Destination == BadgeSummary {
    /// The header's badge: every ``RoutableService/badgeCounter`` added up, made fresh on each lookup.
    public nonisolated static var badge: Self { Self(declaring: BadgeSummary.self) }
}

/// The sum of several badge counters, with each part for display.
public struct BadgeSummary: Sendable, Equatable, CustomStringConvertible {
    /// The labels and counts, in registration order.
    public let parts: [(label: String, count: Int)]

    /// Adds up counters.
    /// - Parameter counters: The counters, typically `registry.makeDestinations(to: .badgeCounter)`.
    public init(_ counters: [any BadgeCounter]) {
        parts = counters.map { (label: $0.label, count: $0.count) }
    }

    /// The sum of every count.
    public var total: Int { parts.reduce(0) { $0 + $1.count } }

    /// The badge as it reads in the terminal, e.g. `3 (cart 1, orders 0, news 1, chat 1)`.
    public var description: String {
        "\(total) (\(parts.map { "\($0.label) \($0.count)" }.joined(separator: ", ")))"
    }

    /// Summaries are equal when their parts are.
    /// - Parameters:
    ///   - lhs: A summary.
    ///   - rhs: Another summary.
    /// - Returns: Whether both list the same labels and counts in the same order.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.parts.map(\.label) == rhs.parts.map(\.label) && lhs.parts.map(\.count) == rhs.parts.map(\.count)
    }
}
