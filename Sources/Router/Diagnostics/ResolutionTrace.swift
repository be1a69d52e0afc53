import Synchronization

/// One step of a lookup, as the opt-in trace reports it.
public struct ResolutionStep: Sendable, CustomStringConvertible {
    /// What happened at this step.
    public enum Outcome: String, Sendable {
        /// The factory ran and made a new instance.
        case built
        /// An existing instance was returned: a singleton, a graph- or custom-scoped instance, or the
        /// object a cycle points back to.
        case shared
        /// The step threw.
        case failed
    }

    /// The key, e.g. `RoutableService<Engine>`.
    public let key: String
    /// The registration's scope.
    public let scope: Scope
    /// What happened.
    public let outcome: Outcome
    /// How many lookups enclose this one (0 for the top level).
    public let depth: Int
    /// How long the step took, nested steps included.
    public let duration: Duration

    /// The step as one line, indented by depth: `  Engine singleton shared 0.2µs`.
    public var description: String {
        let micros = Double(duration.components.attoseconds) / 1e12 + Double(duration.components.seconds) * 1e6
        let name = key.hasPrefix("RoutableService<") ? String(key.dropFirst(16).dropLast()) : key
        return String(repeating: "  ", count: depth) + "\(name) \(scope) \(outcome.rawValue) \(micros)µs"
    }
}

/// Holds the trace handler. While one is installed (or a `makeEachRegistration` records the edges lookups
/// take, ``beginRecording()``), the registry family's slow-path counter is raised by one, so that every
/// lookup leaves the inline fast cases (which do not trace) for the door, where the lookup reads
/// ``enabled``; while neither is, tracing costs the fast cases nothing.
@usableFromInline
final class Tracer: Sendable {
    @usableFromInline let enabled = Atomic<Bool>(false)
    /// The handler, and how many recordings run: the tracer is on while either is there.
    private let installed = Locked<Installed>(Installed())
    /// The family's counter that sends lookups off the fast path (see ``RouteRegistry/tableRef()``).
    private let counter: OverrideCounter

    private struct Installed {
        var handler: (@Sendable (ResolutionStep) -> Void)?
        var recordings = 0
        var isOn: Bool { handler != nil || recordings > 0 }
    }

    init(counter: OverrideCounter) {
        self.counter = counter
    }

    deinit {
        // A registry released while its handler was installed gives its share of the counter back, or its
        // family's lookups would stay on the slow path.
        if installed.withLock({ $0.isOn }) { counter.running.subtract(1, ordering: .relaxed) }
    }

    var current: (@Sendable (ResolutionStep) -> Void)? {
        get { installed.withLock { $0.handler } }
        set { change { $0.handler = newValue } }
    }

    /// Turns tracing on for a recording of the edges lookups take, handler or not; end it with
    /// ``endRecording()``.
    func beginRecording() { change { $0.recordings += 1 } }

    /// Ends what ``beginRecording()`` began.
    func endRecording() { change { $0.recordings -= 1 } }

    /// Changes what is installed, raising or lowering the counter when the tracer turns on or off.
    private func change(_ body: (inout Installed) -> Void) {
        // Under the lock, so that racing changes raise and lower the counter in turn.
        installed.withLock { installed in
            let wasOn = installed.isOn
            body(&installed)
            let isOn = installed.isOn
            if isOn && !wasOn { counter.running.add(1, ordering: .relaxed) }
            if wasOn && !isOn { counter.running.subtract(1, ordering: .relaxed) }
            enabled.store(isOn, ordering: .releasing)
        }
    }

    /// Hands `step` to the handler; lookups the handler makes are not traced and do not call it again.
    func emit(_ step: ResolutionStep) {
        guard let handler = current else { return }
        ThreadContext.current.callHandler { handler(step) }
    }
}

extension RouteRegistry {
    /// Receives every step of every lookup: key, scope, whether an instance was built or shared, depth
    /// and duration. Set it to see why an object was or was not shared; set it to nil to stop.
    /// While it is nil, tracing costs nothing; while it is set, every lookup of the registry's family
    /// (its parent, its children) takes the general path, which traces.
    public var traceHandler: (@Sendable (ResolutionStep) -> Void)? {
        get { tracer.current }
        set { tracer.current = newValue }
    }
}
