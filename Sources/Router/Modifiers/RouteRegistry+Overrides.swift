import Synchronization

/// The override tables installed for the current task, by registry.
@usableFromInline
enum OverrideContext {
    // Lookups read this task-local only while the registry family's override counter is non-zero, so an
    // app that never overrides pays one relaxed load per lookup.
    @TaskLocal static var tables: [ObjectIdentifier: SealedTable] = [:]
    /// The innermost running `withOverridesEverywhere` call of the task, if any.
    @TaskLocal static var everywhere: OverridesEverywhere?
}

extension RouteRegistry {
    /// Replaces registrations for the duration of `operation`, in this task and the tasks it starts only;
    /// then the originals return. Parallel tests do not see each other's overrides.
    ///
    /// ```swift
    /// let receipt = try registry.withOverrides { overrides in
    ///     try overrides.register(.paymentGateway) { _ in FakeGateway(alwaysDeclines: true) }
    /// } operation: {
    ///     try registry.makeDestination(to: .checkout).pay()
    /// }
    /// ```
    ///
    /// Overrides apply at any depth: a destination built during `operation` gets the override wherever
    /// it looks the key up. Overrides nest; the innermost wins. Shared instances (singletons, weak
    /// singletons, custom-scope instances) that already exist are shared with `operation`; those first
    /// built during it (also after a weak instance was released or a custom scope reset during it, and by
    /// a route made before it and performed during it) are built under the overrides and forgotten with
    /// them, so the app never gets an instance made with a fake afterwards. Those with a `teardown(_:)` are
    /// torn down once when `operation` returns or throws, the last made first; an async teardown, which
    /// this form cannot await, and a teardown that throws reach the ``errorHandler`` as
    /// ``RouteError/Code/teardownFailed``. One whose build finishes after that is torn down at once, and its
    /// lookup fails with ``RouteError/Code/scopeClosed``.
    /// - Parameters:
    ///   - overrides: Registers the replacements into a registry that is layered over this one.
    ///   - operation: The code that sees the replacements.
    /// - Returns: What `operation` returns.
    /// - Throws: ``RouteError`` when this registry is not sealed or an override is invalid; whatever
    ///   `operation` throws.
    public func withOverrides<Result>(
        _ overrides: (RouteRegistry) throws -> Void, operation: () throws -> Result
    ) throws -> Result {
        let (tables, layer) = try overrideTables(overrides)
        overrideCounter.running.add(1, ordering: .relaxed)
        defer {
            layer.end()
            overrideCounter.running.subtract(1, ordering: .relaxed)
        }
        return try OverrideContext.$tables.withValue(tables) { try operation() }
    }

    /// Replaces registrations for the duration of an async `operation`, in this task and its child tasks.
    ///
    /// Runs on the caller's executor (`nonisolated(nonsending)`): from main-actor code, both closures run
    /// on the main actor and may use its state; from elsewhere, they run where the caller runs. The shared
    /// instances first built during `operation` that have a `teardown(_:)` are torn down, async teardowns
    /// awaited, before this returns (see ``withOverrides(_:operation:)-3w9ib``).
    /// - Parameters:
    ///   - overrides: Registers the replacements into a registry that is layered over this one.
    ///   - operation: The code that sees the replacements.
    /// - Returns: What `operation` returns.
    /// - Throws: ``RouteError`` when this registry is not sealed or an override is invalid; whatever
    ///   `operation` throws.
    public nonisolated(nonsending) func withOverrides<Result>(
        _ overrides: (RouteRegistry) throws -> Void, operation: nonisolated(nonsending) () async throws -> Result
    ) async throws -> Result {
        let (tables, layer) = try overrideTables(overrides)
        overrideCounter.running.add(1, ordering: .relaxed)
        let outcome: Swift.Result<Result, any Error>
        do {
            outcome = .success(try await OverrideContext.$tables.withValue(tables) { try await operation() })
        } catch {
            outcome = .failure(error)
        }
        // What the block built is torn down, async teardowns awaited, before it returns.
        await layer.endAsync()
        overrideCounter.running.subtract(1, ordering: .relaxed)
        return try outcome.get()
    }

    private func overrideTables(
        _ overrides: (RouteRegistry) throws -> Void
    ) throws -> (tables: [ObjectIdentifier: SealedTable], layer: OverrideLayer) {
        let (table, inForce) = try overrideLayer(over: try self.table(), overrides)
        var tables = OverrideContext.tables
        tables[ObjectIdentifier(self)] = table
        return (tables, inForce)
    }

    /// The table of an override layer over `base`, made of what `overrides` registers, and the layer that
    /// says whether it is still in force.
    /// With `freshCells`, every shared registration gets a copy with empty cells, built or not (for
    /// ``makeEachRegistration(supplying:)``, which builds each anew).
    func overrideLayer(
        over base: SealedTable, _ overrides: (RouteRegistry) throws -> Void, freshCells: Bool = false
    ) throws -> (table: SealedTable, layer: OverrideLayer) {
        let layer = RouteRegistry(maxDepth: maxDepth)
        try overrides(layer)
        // Shared instances first built under the overrides must not outlive them: the layer gets its own
        // copies, with empty cells, of the shared registrations beneath it that have no instance yet.
        // Those that have one are shared with the layer, as the app already sees them.
        // Weak and custom-scoped ones get a copy too, seeded with the instance that exists now: one released
        // or reset during the operation is rebuilt in the copy, never in the app's own cell.
        let inForce = OverrideLayer(reporter: base.reporter)
        var redirect: [ObjectIdentifier: AnyEntry] = [:]
        for entry in base.allEntriesInChain where entry.scope.isShared {
            let current = base.redirect[ObjectIdentifier(entry)] ?? entry
            guard let copy = freshCells ? current.freshCopy() : current.overrideCopy() else { continue }
            inForce.adopt(copy)
            redirect[ObjectIdentifier(current)] = copy
            redirect[ObjectIdentifier(entry)] = copy
        }
        let table = SealedTable(
            entries: AnyEntry.filed(layer.registeredEntries), parent: base, maxDepth: maxDepth, tracer: base.tracer,
            paths: [], redirect: redirect, layer: inForce, reporter: base.reporter.registry)
        let report = Validator(table: table, assembly: nil).report()
        if !report.isValid {
            throw RouteError.overridesInvalid(report)
        }
        return (table, inForce)
    }
}

/// One override family's count of what makes its lookups take the slow path (see
/// ``RouteRegistry/overrideCounter``): running `withOverrides` calls, installed trace handlers (which only
/// the door calls), and running async lookups (in the upper half of the word), whose factories' registry
/// calls must find the lookup they are part of.
@usableFromInline
final class OverrideCounter: Sendable {
    /// Running `withOverrides` calls and `withOverridesEverywhere` calls (anywhere in the process) and
    /// installed trace handlers, plus ``asyncLookup`` for each running async lookup: zero when the fast path
    /// may run, read with one load.
    @usableFromInline let running = Atomic<Int>(0)
    /// What one running async lookup adds to ``running``.
    static let asyncLookup = 1 << (Int.bitWidth / 2)

    init() {
        // Counts the `withOverridesEverywhere` calls already running, and is counted by those to come.
        OverridesEverywhere.adopt(self)
    }
}

/// Whether one `withOverrides` call is still running, and the views of child registries made over it.
///
/// A task started inside `withOverrides` inherits its task-local tables and may outlive it; once the call
/// has returned, lookups skip its layer (see ``SealedTable/inForce``).
final class OverrideLayer: Sendable {
    private let active = Atomic<Bool>(true)
    private let views = Locked<[ObjectIdentifier: SealedTable]>([:])
    /// The copies of shared registrations the layer made (kept alive with it, so that their identities are
    /// not reused while a custom scope files instances under them).
    private let copies = Locked<[AnyEntry]>([])

    /// Keeps `copy` for the layer's life; its custom-scope instance is forgotten when the layer ends.
    func adopt(_ copy: AnyEntry) {
        copies.withLock { $0.append(copy) }
    }

    /// The registry whose error handler hears of the teardowns that fail at the layer's end.
    private let reporter: WeakRegistry
    /// The instances with a teardown that the layer's cells made (its registrations' and its copies'), in
    /// the order their factories returned; nil once the layer ended.
    private let made = Locked<[Made]?>([])

    /// One instance a cell of the layer made: the registration whose cell holds it, and the lifecycle and
    /// order under which its teardown is declared.
    private struct Made: Sendable {
        let entry: AnyEntry
        let lifecycle: Lifecycle
        let order: Int
    }

    /// One instance the layer's end released, with its teardown, for the end to run.
    private struct Released: @unchecked Sendable {
        // @unchecked: `instance` is the registration's shared instance, handed to any thread as a singleton
        // is; the end that released its cell is the only one to tear it down.
        let entry: AnyEntry
        let teardown: Lifecycle.Teardown
        let instance: Any
    }

    init(reporter: WeakRegistry) { self.reporter = reporter }

    /// Whether the `withOverrides` call is still running.
    var isActive: Bool { active.load(ordering: .acquiring) }

    /// Records that `entry`, a cell of this layer, made an instance whose teardown is `lifecycle`'s for
    /// registration `order`; false once the layer ended (the caller then tears the instance down itself).
    func noteMade(_ entry: AnyEntry, _ lifecycle: Lifecycle, _ order: Int) -> Bool {
        made.withLock { made in
            guard made != nil else { return false }
            made?.append(Made(entry: entry, lifecycle: lifecycle, order: order))
            return true
        }
    }

    /// Ends the layer (see ``close()``) and tears down what its cells made, the last made first, each once;
    /// a teardown that throws, or an async one, which this cannot await, reaches the error handler as
    /// ``RouteError/Code/teardownFailed``, and the others still run.
    func end() {
        for released in close() {
            guard let sync = released.teardown.sync else {
                reporter.registry?.errorHandler?(RouteError.overrideEndCannotAwait(released.entry))
                continue
            }
            do {
                try sync(released.instance)
            } catch {
                reporter.registry?.errorHandler?(RouteError.teardownFailure(released.entry, error))
            }
        }
    }

    /// ``end()``, awaiting async teardowns.
    nonisolated(nonsending) func endAsync() async {
        for released in close() {
            do {
                try await released.teardown.async(released.instance)
            } catch {
                reporter.registry?.errorHandler?(RouteError.teardownFailure(released.entry, error))
            }
        }
    }

    /// Ends the layer: later lookups skip it, the child views (which refer back to it) are dropped, and
    /// the cells that made an instance with a teardown are released (``SharedCell/release()``), as a reset
    /// or a shutdown releases them: returns the instances they held, the last made first, for the caller
    /// to tear down. An instance whose build finishes after this is torn down by its own lookup, at once.
    private func close() -> [Released] {
        active.store(false, ordering: .releasing)
        let dropped = views.withLock { views -> [ObjectIdentifier: SealedTable] in
            defer { views = [:] }
            return views
        }
        _ = dropped  // released here, outside the lock
        let copied = copies.withLock { copies -> [AnyEntry] in
            defer { copies = [] }
            return copies
        }
        for copy in copied {
            copy.scope.customScope?.forget(ObjectIdentifier(copy))
        }
        let noted = made.withLock { made -> [Made] in
            defer { made = nil }
            return made ?? []
        }
        var seen = Set<ObjectIdentifier>()
        var released: [Released] = []
        for item in noted.reversed() where seen.insert(ObjectIdentifier(item.entry)).inserted {
            guard let teardown = item.lifecycle.state.withLock({ $0.teardowns[item.order] }),
                let instance = teardown.release(item.entry)
            else { continue }
            released.append(Released(entry: item.entry, teardown: teardown, instance: instance))
        }
        return released
    }

    /// The table a child registry's lookups use while this layer is in force: the child's registrations
    /// over the layer. Its shared registrations that have no instance yet get fresh cells, so what is first
    /// built under the overrides is forgotten with them.
    func view(of child: RouteRegistry, table: SealedTable, over layer: SealedTable) -> SealedTable {
        views.withLock { views in
            // Filed by address: a view counts only for the child it was made for (its reporter, held
            // weakly, is nil once that child is freed), never for a child made later at its address.
            if let made = views[ObjectIdentifier(child)], made.reporter.registry === child { return made }
            // The registrations serving another key (`also`) build the original registration; `redirect` sends
            // them to its copy, so that both keys reach the one instance made under the overrides.
            var redirect: [ObjectIdentifier: AnyEntry] = [:]
            let entries = table.entries.map { entry -> AnyEntry in
                guard let copy = entry.overrideCopy() else { return entry }
                adopt(copy)
                redirect[ObjectIdentifier(entry)] = copy
                return copy
            }
            let made = SealedTable(
                entries: entries, parent: layer, maxDepth: table.maxDepth, tracer: table.tracer, paths: table.paths,
                redirect: redirect, layer: self, reporter: child)
            if isActive { views[ObjectIdentifier(child)] = made }
            return made
        }
    }
}
