import Synchronization

/// A named scope you create and end yourself: one per signed-in user, per request, per document.
///
/// Registrations made with ``Scope/custom(_:)`` share one instance per scope until ``reset()``
/// releases them; the next lookup builds fresh ones. ``close()`` ends the scope for good: later lookups
/// throw ``RouteError/Code/scopeClosed``.
///
/// ```swift
/// let session = CustomScope("session")
/// try registry.register(.cart, scope: .custom(session)) { _ in CartImpl() }
/// // … sign out:
/// session.reset()
/// ```
public final class CustomScope: Sendable, CustomStringConvertible {
    private struct State {
        var cells: [ObjectIdentifier: AnyObject] = [:]
        var closed = false
        var generation = 0
    }

    /// The scope's name, used in messages and graph exports.
    public let name: String
    private let state = Locked(State())

    /// Makes an empty scope.
    /// - Parameter name: A name for messages, e.g. `"session"`.
    public init(_ name: String) {
        self.name = name
    }

    /// Releases every instance the scope holds; later lookups build new ones.
    /// A build that is running while the scope is reset returns its instance to its caller, but the
    /// scope does not keep it.
    public func reset() {
        let released = state.withLock { state -> [ObjectIdentifier: AnyObject] in
            let cells = state.cells
            state.cells = [:]
            state.generation += 1
            return cells
        }
        _ = released  // instances are released here, outside the lock
    }

    /// Releases every instance and ends the scope: later lookups throw ``RouteError/Code/scopeClosed``.
    public func close() {
        let released = state.withLock { state -> [ObjectIdentifier: AnyObject] in
            let cells = state.cells
            state.cells = [:]
            state.closed = true
            return cells
        }
        _ = released
    }

    /// How many instances the scope holds now.
    public var count: Int {
        state.withLock { $0.cells.count }
    }

    /// Whether ``close()`` was called.
    public var isClosed: Bool {
        state.withLock { $0.closed }
    }

    /// The scope as it reads in messages: `CustomScope("session")`.
    public var description: String { "CustomScope(\"\(name)\")" }

    /// Drops one registration's instance (the registration is being freed).
    func forget(_ entry: ObjectIdentifier) {
        let released = state.withLock { $0.cells.removeValue(forKey: entry) }
        _ = released  // released here, outside the lock
    }

    /// Whether the scope holds a built instance for one registration.
    func hasInstance(for entry: ObjectIdentifier) -> Bool {
        state.withLock { state in
            guard let cell = state.cells[entry] else { return false }
            return (cell as? any PublishedCell)?.isPublished ?? false
        }
    }

    /// The cell for one registration, or nil when the scope is closed.
    func cell<Value>(for entry: ObjectIdentifier, of type: Value.Type) -> SharedCell<Value>? {
        state.withLock { state -> SharedCell<Value>? in
            if state.closed { return nil }
            if let existing = state.cells[entry] as? SharedCell<Value> { return existing }
            let made = SharedCell<Value>()
            state.cells[entry] = made
            return made
        }
    }
}
