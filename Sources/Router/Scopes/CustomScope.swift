import Synchronization

/// A named scope you create and end yourself: one per signed-in user, per request, per document.
///
/// Registrations made with ``Scope/custom(_:)`` share one instance per scope until ``reset()``
/// releases them; the next lookup builds fresh ones. ``close()`` ends the scope for good: later lookups
/// throw ``RouteError/Code/scopeClosed``.
///
/// ```swift
/// let session = CustomScope("session")
/// try registry.register(.cart) { _ in CartImpl() }.scope(.custom(session))
/// // … sign out:
/// session.reset()
/// ```
public final class CustomScope: Sendable, CustomStringConvertible {
    private struct State {
        var cells: [ObjectIdentifier: AnyObject] = [:]
        var closed = false
        var generation = 0
        /// How many running lookups use each generation (see ``enter()``).
        var users: [Int: Int] = [:]
        /// The cells of generations reset while lookups that use them still ran: those lookups finish
        /// with them; nobody else sees them, and they go when the last of those lookups ends.
        var retired: [Int: [ObjectIdentifier: AnyObject]] = [:]
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
    ///
    /// A lookup that is running while the scope is reset finishes in the generation it started with: it
    /// and every other lookup of that generation keep sharing its instances (and build any it lacks once,
    /// together), so each returns a consistent old set; lookups that start after the reset never see it.
    public func reset() {
        let released = state.withLock { state -> [ObjectIdentifier: AnyObject] in
            let cells = state.cells
            state.cells = [:]
            if state.users[state.generation, default: 0] > 0 { state.retired[state.generation] = cells }
            state.generation += 1
            return cells
        }
        _ = released  // instances nobody uses are released here, outside the lock
    }

    /// A lookup starts using the scope: the generation it will use to the end, counted until ``leave(_:)``.
    func enter() -> Int {
        state.withLock { state in
            state.users[state.generation, default: 0] += 1
            return state.generation
        }
    }

    /// A lookup that used `generation` ended.
    func leave(_ generation: Int) {
        let released = state.withLock { state -> [ObjectIdentifier: AnyObject]? in
            let left = state.users[generation, default: 1] - 1
            state.users[generation] = left > 0 ? left : nil
            guard left <= 0 else { return nil }
            return state.retired.removeValue(forKey: generation)
        }
        _ = released  // a retired generation's instances are released here, outside the lock
    }

    /// Releases every instance and ends the scope: later lookups throw ``RouteError/Code/scopeClosed``.
    public func close() {
        let released = state.withLock {
            state -> ([ObjectIdentifier: AnyObject], [Int: [ObjectIdentifier: AnyObject]]) in
            let cells = (state.cells, state.retired)
            state.cells = [:]
            state.retired = [:]
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

    /// Lets `copy` (an override layer's copy of a registration) read the instance `entry` has in the
    /// current generation; a reset afterwards gives each its own again. The layer forgets the copy's when
    /// it ends.
    func share(_ entry: ObjectIdentifier, with copy: ObjectIdentifier) {
        state.withLock { state in
            // Only a built instance: a cell still empty (or being built) would let the copy build into
            // the app's cell with the fakes.
            if let cell = state.cells[entry] as? CreationCell, cell.isPublished { state.cells[copy] = cell }
        }
    }

    /// How many times the scope was reset; a lookup keeps using the generation it saw first.
    var generation: Int {
        state.withLock { $0.generation }
    }

    /// Where one registration's instance lives for a lookup of scope generation `generation`.
    enum CellLookup<Value> {
        /// The scope's cell.
        case cell(SharedCell<Value>)
        /// The lookup's generation is gone (it did not ``enter()``): it keeps its instances apart.
        case stale
        /// The scope was closed.
        case closed
    }

    /// The cell for one registration, for a lookup that uses generation `generation`.
    func cell<Value>(for entry: ObjectIdentifier, of type: Value.Type, generation: Int) -> CellLookup<Value> {
        state.withLock { state -> CellLookup<Value> in
            if state.closed { return .closed }
            if state.generation == generation {
                if let existing = state.cells[entry] as? SharedCell<Value> { return .cell(existing) }
                let made = SharedCell<Value>()
                state.cells[entry] = made
                return .cell(made)
            }
            // Reset since the lookup began: the cells of its own generation, shared with the other
            // lookups still running in it.
            guard var cells = state.retired[generation] else { return .stale }
            if let existing = cells[entry] as? SharedCell<Value> { return .cell(existing) }
            let made = SharedCell<Value>()
            cells[entry] = made
            state.retired[generation] = cells
            return .cell(made)
        }
    }
}

extension Resolver {
    /// The cell of a custom-scoped `entry` in `scope` for the running lookup: its generation's, or, when
    /// that generation is gone, one kept apart for the lookup (the same cell each time the lookup asks).
    /// - Throws: ``RouteError/Code/scopeClosed`` once the scope is closed.
    @usableFromInline
    func customCell<Destination>(for entry: Entry<Destination>, in scope: CustomScope) throws
        -> SharedCell<Destination>
    {
        let generation = state.creation.generation(of: scope)
        switch scope.cell(for: ObjectIdentifier(entry), of: Destination.self, generation: generation) {
        case .cell(let found): return found
        case .stale: return state.creation.detachedCell(for: entry)
        case .closed: throw RouteError.scopeClosed(entry, path: pathTo(entry.key.short))
        }
    }
}
