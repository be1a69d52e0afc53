import Synchronization

extension RouteRegistry {
    /// Replaces registrations in **every** registry the current task looks up in, for the duration of
    /// `operation`, as ``withOverrides(_:operation:)-3w9ib`` does for one registry: in this task and the
    /// tasks it starts only, so parallel tests never see each other's replacements.
    ///
    /// This is what `RouterTesting`'s `.overriding(…)` test trait runs each test in, for tests whose
    /// registry is made inside the test. `overrides` runs once for each registry the operation looks up
    /// in, the first time it does, so every test gets fresh fakes. A registry's own ``withOverrides(_:operation:)-3w9ib``
    /// inside the operation is layered over these replacements, and wins.
    ///
    /// ```swift
    /// try await RouteRegistry.withOverridesEverywhere { overrides in
    ///     try overrides.register(.engine) { _ in V8(horsepower: 1) }
    /// } operation: {
    ///     let registry = try RouteRegistry(modules: [CarModule()])
    ///     print(try registry.makeDestination(to: .engine).horsepower)
    /// }
    /// ```
    /// - Parameters:
    ///   - overrides: Registers the replacements into a registry layered over each registry looked up in.
    ///   - operation: The code that sees the replacements.
    /// - Returns: What `operation` returns.
    /// - Throws: Whatever `operation` throws. An invalid override fails the lookup that first needs it
    ///   with ``RouteError/Code/validationFailed``.
    public static nonisolated(nonsending) func withOverridesEverywhere<Result>(
        _ overrides: @escaping @Sendable (RouteRegistry) throws -> Void,
        operation: nonisolated(nonsending) () async throws -> Result
    ) async throws -> Result {
        let scope = OverridesEverywhere(overrides, outer: OverrideContext.everywhere)
        let outcome: Swift.Result<Result, any Error>
        do {
            outcome = .success(try await OverrideContext.$everywhere.withValue(scope) { try await operation() })
        } catch {
            outcome = .failure(error)
        }
        await scope.endAsync()
        return try outcome.get()
    }

    /// `withOverridesEverywhere(_:operation:)` for a synchronous operation.
    /// - Parameters:
    ///   - overrides: Registers the replacements into a registry layered over each registry looked up in.
    ///   - operation: The code that sees the replacements.
    /// - Returns: What `operation` returns.
    /// - Throws: Whatever `operation` throws; an invalid override fails the lookup that first needs it.
    public static func withOverridesEverywhere<Result>(
        _ overrides: @escaping @Sendable (RouteRegistry) throws -> Void, operation: () throws -> Result
    ) throws -> Result {
        let scope = OverridesEverywhere(overrides, outer: OverrideContext.everywhere)
        defer { scope.end() }
        return try OverrideContext.$everywhere.withValue(scope) { try operation() }
    }
}

/// One `RouteRegistry.withOverridesEverywhere(_:operation:)` call: its replacements, and the layer it made
/// over each registry the operation looked up in.
final class OverridesEverywhere: Sendable {
    /// How many such calls run in the process, and every registry family's override counter (weakly): a
    /// running call counts in each of them, so that their lookups take the path that reads the task's
    /// overrides while the fast path reads nothing more than its family's counter.
    private static let families = Locked<(running: Int, counters: [WeakCounter])>((0, []))

    private struct WeakCounter {
        weak var counter: OverrideCounter?
    }

    private let overrides: @Sendable (RouteRegistry) throws -> Void
    /// The call this one runs inside, whose layers are beneath this one's.
    private let outer: OverridesEverywhere?
    /// Each registry's layer, with the registry (kept, so that its identity is not reused meanwhile).
    private let layers = Locked<
        [ObjectIdentifier: (registry: RouteRegistry, table: SealedTable, layer: OverrideLayer)]
    >(
        [:])

    init(_ overrides: @escaping @Sendable (RouteRegistry) throws -> Void, outer: OverridesEverywhere?) {
        self.overrides = overrides
        self.outer = outer
        Self.count(by: 1)
    }

    /// Files a new family's counter, starting it at the number of calls running now.
    static func adopt(_ counter: OverrideCounter) {
        families.withLock { families in
            if families.running > 0 { counter.running.add(families.running, ordering: .relaxed) }
            families.counters.removeAll { $0.counter == nil }
            families.counters.append(WeakCounter(counter: counter))
        }
    }

    /// Adds `change` to the running calls and to every family's counter.
    private static func count(by change: Int) {
        families.withLock { families in
            families.running += change
            for family in families.counters {
                family.counter?.running.add(change, ordering: .relaxed)
            }
        }
    }

    /// Ends the call: its layers stop applying (a task started inside that outlives it skips them).
    func end() {
        Self.count(by: -1)
        let ended = layers.withLock { layers in
            defer { layers = [:] }
            return layers
        }
        for (_, made) in ended { made.layer.end() }
    }

    /// ``end()``, awaiting the async teardowns of what its layers built.
    nonisolated(nonsending) func endAsync() async {
        Self.count(by: -1)
        let ended = layers.withLock { layers in
            defer { layers = [:] }
            return layers
        }
        for (_, made) in ended { await made.layer.endAsync() }
    }

    /// The table `registry`'s lookups use under this call: its layer over `base` (the registry's own
    /// table), made the first time it is asked for.
    func table(for registry: RouteRegistry, over base: SealedTable) throws -> SealedTable {
        let beneath = try outer?.table(for: registry, over: base) ?? base
        let key = ObjectIdentifier(registry)
        if let made = layers.withLock({ $0[key] }), made.layer.isActive { return made.table }
        // Made outside the lock: the replacements are user code.
        let made = try registry.overrideLayer(over: beneath, overrides)
        return layers.withLock { layers in
            if let first = layers[key] {
                made.layer.end()
                return first.table
            }
            layers[key] = (registry, made.table, made.layer)
            return made.table
        }
    }
}
