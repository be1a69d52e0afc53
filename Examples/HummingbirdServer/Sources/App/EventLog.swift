import Synchronization

/// What the service did that a test (or an operator) wants to see afterwards: the pool opening, the
/// teardowns. An app-wide singleton; thread-safe.
public final class EventLog: Sendable {
    private let lines = Mutex<[String]>([])

    /// An empty log.
    public init() {}

    /// Appends a line.
    public func record(_ line: String) {
        lines.withLock { $0.append(line) }
    }

    /// Every line, in order.
    public var events: [String] { lines.withLock { $0 } }
}
