import Synchronization

// Shutting a registry down (issue 36, lifecycle): teardown declared at registration, run once for each
// singleton that was made, in reverse order of creation, by `shutdown()`; lookups after it fail with
// `shutDown`.
//
// Creation is recorded by the factory itself: `teardown` wraps the registration's factory, so a singleton
// (which the creation protocol builds once per cell) is recorded when its factory returns, after every
// singleton its factory looked up. Reverse order of creation therefore tears dependents down before what
// they depend on. The wrapper also refuses to make one once shutdown has begun, and tears down one whose
// factory returns after that, so no instance with a teardown escapes it. One made in the fresh copy of a
// `makeEachRegistration` run is recorded by that run instead (`RegistrationTrialRun`), which tears it down
// when it ends: the registry never holds it, so its shutdown neither sees nor orders it.
//
// Shutdown and `resetSingletons` release a singleton's cell (`SharedCell.release`, one exchange of the
// cell's state word), and a lookup publishes into it with another: whichever comes second knows it. A
// release that finds the instance published tears it down; a publication that finds the cell released (its
// build ran while the generation closed: the factory returned before shutdown began, and a preparation
// still ran, or a reset came during the build) does not publish, and its lookup tears the instance down at
// once (`LateTeardown`). So each instance made is torn down exactly once, whatever the order, with no lock
// shared by the two sides and none held while a teardown runs.

/// A registry's lifecycle: the teardowns declared, the singletons made in order, and whether it is shut
/// down.
final class Lifecycle: Sendable {
    enum Phase {
        case running, shuttingDown, shutDown
    }

    /// One registration's teardown, of an instance given as `Any` (the registration's destination).
    /// `sync` is nil for an async teardown.
    struct Teardown: Sendable {
        /// Releases the registration's current singleton cell (see ``SharedCell/release()``): the instance
        /// it held, if one was published, whose teardown the caller now owns.
        let release: @Sendable (AnyEntry) -> Any?
        let sync: (@Sendable (Any) throws -> Void)?
        let async: nonisolated(nonsending) @Sendable (Any) async throws -> Void
    }

    struct State {
        var phase = Phase.running
        /// The registrations (by registration order) whose factory made an instance, in the order made.
        var made: [Int] = []
        /// Each registration's teardown, and whether it is async.
        var teardowns: [Int: Teardown] = [:]
        /// The table lookups get once the registry is shut down: empty, so every lookup misses, and every
        /// miss path asks `SealedTable.shutDownError` first, so fails with `shutDown`. A `Lazy` or a
        /// `Provider` made before looks up in it too (`Lifecycle.tableAfterShutdown`).
        var closedTable: SealedTable?
        /// The async teardowns started on tasks of their own (see ``LateTeardown``), for `shutdownAsync()`
        /// to await.
        var late: [Task<Void, Never>] = []
    }

    let state = Locked(State())
    /// Set once shutdown has begun, after `closedTable`: what a ``Lazy`` or a ``Provider`` reads at each call,
    /// one load, to answer as the registry's other lookups do (``tableAfterShutdown``).
    private let closed = Atomic<Bool>(false)

    /// The closed table once shutdown has begun; nil while running (one acquiring load).
    var tableAfterShutdown: SealedTable? {
        guard closed.load(ordering: .acquiring) else { return nil }
        return state.withLock { $0.closedTable }
    }

    /// Marks shutdown as begun, for ``tableAfterShutdown``; `closedTable` is set already.
    func close() { closed.store(true, ordering: .releasing) }

    /// Whether shutdown has begun (one acquiring load).
    var isClosed: Bool { closed.load(ordering: .acquiring) }

    /// Runs an async teardown on a task of its own, from code that cannot await it; `shutdownAsync()`
    /// awaits the ones started once shutdown has begun and before it ends (one a reset caused while running
    /// is not kept, so that a long-lived registry keeps no list of them).
    func tearDownLater(_ body: @escaping @Sendable () async -> Void) {
        let task = Task { await body() }
        state.withLock { state in
            if state.phase != .running { state.late.append(task) }
        }
    }

    /// The async teardowns started on tasks so far, taken off the list.
    func takeLate() -> [Task<Void, Never>] {
        state.withLock { state in
            defer { state.late.removeAll() }
            return state.late
        }
    }

    /// Records that registration `order` made an instance; false once shutdown has begun (the caller then
    /// tears the instance down itself and fails).
    func noteMade(_ order: Int) -> Bool {
        state.withLock { state in
            guard state.phase == .running else { return false }
            state.made.append(order)
            return true
        }
    }
}

/// A registration's teardown, for an instance whose build finished after its generation was released (by
/// ``RouteRegistry/shutdown()`` or ``RouteRegistry/resetSingletons()``): its lookup runs it at once, and
/// nothing else ever will. A failure reaches the registry's error handler.
@usableFromInline
struct LateTeardown<Value>: @unchecked Sendable {
    // @unchecked: every field is immutable and `Sendable` but for the closures' `Value` parameter, which the
    // compiler cannot see is the registration's shared instance, handed to any thread as a singleton is.
    let lifecycle: Lifecycle
    let sync: (@Sendable (Value) throws -> Void)?
    let async: nonisolated(nonsending) @Sendable (Value) async throws -> Void
    let report: @Sendable (any Error) -> Void

    /// Tears `made` down now, on this thread; an async teardown on a task of its own.
    func run(_ made: Value) {
        guard let sync else { return start(made) }
        do { try sync(made) } catch { report(error) }
    }

    /// Tears `made` down on a task of its own.
    @usableFromInline
    func start(_ made: Value) {
        let made = UncheckedInstance(made)
        let async = async
        let report = report
        lifecycle.tearDownLater {
            do { try await async(made.value) } catch { report(error) }
        }
    }

    /// Tears `made` down now, awaiting an async teardown.
    @usableFromInline
    nonisolated(nonsending) func runAsync(_ made: Value) async {
        do { try await async(made) } catch { report(error) }
    }
}

/// A shared instance handed to the task that tears it down.
private struct UncheckedInstance<Value>: @unchecked Sendable {
    // @unchecked: the registration's shared instance, which the registry hands to every thread that looks
    // its key up, as it does any singleton; the task is the last one to use it.
    let value: Value
    init(_ value: Value) { self.value = value }
}

extension Registration {
    /// Declares how to tear this singleton down when the registry shuts down (``RouteRegistry/shutdown()``):
    /// close a connection pool, flush a log.
    ///
    /// ```swift
    /// try registry.register(.logger) { _ in FileLogger() }
    ///     .scope(.singleton)
    ///     .teardown { logger in try logger.flush() }
    /// ```
    ///
    /// It runs once per instance, for singletons and eager singletons (resettable or not) that were made;
    /// ``RouteRegistry/resetSingletons()`` runs a synchronous one on each instance it releases (an async
    /// one it cannot await: the error handler hears of it); an instance whose build finishes after a reset
    /// or a shutdown released its generation is torn down at once by its own lookup, and never served; one
    /// built anew by
    /// ``RouteRegistry/makeEachRegistration(supplying:)`` (`verifyByMaking()`) is torn down by that run
    /// when it ends, not by the registry's shutdown; one built in a `withOverrides` block (a fake, or a
    /// singleton the block built anew) is torn down when the block ends, not by the registry's shutdown.
    /// Declare it once per registration. On a registration of any other scope it would never run, so sealing reports it with
    /// ``RouteError/Code/teardownWithoutSingleton``.
    /// - Parameter body: Tears the instance down, given as the key's destination type (cast it to reach the
    ///   type the factory made); what it throws is collected and reported by `shutdown()`.
    /// - Returns: This registration, for the next modifier.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed.
    @discardableResult
    public func teardown(_ body: @escaping @Sendable (Destination) throws -> Void) throws -> Self {
        try declareTeardown(sync: body) { made in try body(made) }
    }

    /// Declares an async teardown, run by `try await registry.shutdownAsync()` (see `teardown(_:)`).
    ///
    /// ```swift
    /// try registry.registerAsync(.database) { _ async throws in try await Database.open() }
    ///     .scope(.singleton)
    ///     .teardown { database async throws in try await database.close() }
    /// ```
    /// - Parameter body: Tears the instance down, given as the key's destination type; what it throws is
    ///   collected and reported by `shutdownAsync()`.
    /// - Returns: This registration, for the next modifier.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed.
    @discardableResult
    public func teardown(_ body: nonisolated(nonsending) @escaping @Sendable (Destination) async throws -> Void) throws
        -> Self
    {
        try declareTeardown(sync: nil, body)
    }

    private func declareTeardown(
        sync: (@Sendable (Destination) throws -> Void)?,
        _ body: nonisolated(nonsending) @escaping @Sendable (Destination) async throws -> Void
    ) throws -> Self {
        let lifecycle = registry.lifecycle
        let order = index
        let key = registry.withAssembly { assembly in
            // Sealing checks that the registration is a singleton then (its scope may still change).
            assembly.teardowns.insert(order)
            return assembly.entries[order].key.full
        }
        var syncRun: (@Sendable (Any) throws -> Void)?
        if let sync {
            syncRun = { made in
                if let made = made as? Destination { try sync(made) }
            }
        }
        let asyncRun: nonisolated(nonsending) @Sendable (Any) async throws -> Void = { made in
            if let made = made as? Destination { try await body(made) }
        }
        let teardown = Lifecycle.Teardown(
            release: { entry in (entry as? Entry<Destination>)?.singletonCell?.release() }, sync: syncRun,
            async: asyncRun)
        let registry = registry
        let late = LateTeardown<Destination>(
            lifecycle: lifecycle, sync: sync, async: body,
            report: { [weak registry] error in
                registry?.errorHandler?(RouteError.lateTeardownFailure(key, error))
            })
        let declaredBefore = lifecycle.state.withLock { state in
            let before = state.teardowns[order] != nil
            state.teardowns[order] = teardown
            return before
        }
        return try change { spec in
            spec.lateTeardown = late
            guard !declaredBefore else { return }
            let original = spec.factory
            spec.factory = { resolver in
                let made = try original(&resolver)
                // Made in a copy of a `makeEachRegistration` run: the run tears it down, not the registry.
                if RegistrationTrialRun.adopts(resolver.top, lifecycle, order) { return made }
                // Made in an override layer's cell: the layer tears it down when its block ends.
                if let building = resolver.top?.entry.object, let layer = resolver.overrideLayer(holding: building) {
                    guard layer.noteMade(building, lifecycle, order) else {
                        late.run(made)
                        throw RouteError.overrideEndedWhileMaking(key)
                    }
                    return made
                }
                guard lifecycle.noteMade(order) else {
                    // Made after shutdown began: shutdown will not see it, so it is torn down here (an
                    // async teardown on a task of its own, which `shutdownAsync()` awaits).
                    late.run(made)
                    throw RouteError.shutDownWhileMaking(key)
                }
                return made
            }
            if let originalAsync = spec.asyncFactory {
                spec.asyncFactory = { resolver in
                    let made = try await originalAsync(&resolver)
                    if RegistrationTrialRun.adopts(resolver.top, lifecycle, order) { return made }
                    if let building = resolver.top?.entry.object,
                        let layer = resolver.overrideLayer(holding: building)
                    {
                        guard layer.noteMade(building, lifecycle, order) else {
                            await late.runAsync(made)
                            throw RouteError.overrideEndedWhileMaking(key)
                        }
                        return made
                    }
                    guard lifecycle.noteMade(order) else {
                        await late.runAsync(made)
                        throw RouteError.shutDownWhileMaking(key)
                    }
                    return made
                }
            }
        }
    }
}

extension RouteRegistry {
    /// Tears the registry's singletons down, once: each made singleton with a `teardown(_:)`
    /// runs it, in reverse order of creation (a singleton before the ones it was made from), and later
    /// lookups fail with ``RouteError/Code/shutDown`` naming the key.
    ///
    /// Every door answers `shutDown` then: by key, identifier or path, with arguments, async, through a
    /// request scope (its `supply(_:for:)` too), `makeDestinationIfRegistered(to:)` and an optional
    /// `@Injected` (not nil), `makeDestinations(to:)` (not `[]`), and a ``Lazy`` or ``Provider`` obtained
    /// before, which never hands out a torn-down singleton (pinned by
    /// `everyDoorOfAShutDownRegistryAnswersShutDown` and
    /// `aLazyAndAProviderTakenBeforeShutdownAnswerShutDownAndHandOutNoTornDownInstance`).
    ///
    /// Every teardown runs even when one fails; the failures are thrown together. A second call returns at
    /// once. A lookup running when shutdown begins may still return an instance; a singleton with a
    /// teardown whose factory returns after shutdown began, or whose preparation was still running then,
    /// is torn down at once by its lookup, which fails with `shutDown` (pinned by
    /// `anInstanceWhosePreparationRunsWhenShutdownBeginsIsTornDownOnceAndItsLookupFailsWithShutDown`); an
    /// async teardown met there by synchronous code runs on a task of its own, which ``shutdownAsync()``
    /// awaits. Only this registry's registrations are torn down: shut a child registry down before its
    /// parent.
    ///
    /// This form cannot await: an async teardown is reported as a failure, not run. Use
    /// ``shutdownAsync()`` when some are async. It is the only `shutdown()`: in async code too,
    /// `try registry.shutdown()` is this synchronous form, with no `await`.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/teardownFailed`` listing every teardown that
    ///   failed (each keeps what it threw, the first one as the error's `underlyingError`).
    public func shutdown() throws {
        guard let plan = beginShutdown() else { return }
        var failures: [(RouteError, any Error)] = []
        for (entry, teardown) in plan {
            // Released first: a build of it still running tears its instance down itself.
            guard let made = teardown.release(entry) else { continue }
            guard let sync = teardown.sync else {
                let failure = RouteError.shutdownCannotAwaitTeardown(entry)
                failures.append((failure, failure))
                continue
            }
            do {
                try sync(made)
            } catch {
                failures.append((RouteError.teardownFailure(entry, error), error))
            }
        }
        endShutdown()
        if let failure = Self.collected(failures) { throw failure }
    }

    /// Tears the registry's singletons down, once, awaiting async teardowns: see ``shutdown()``, which this
    /// form is but for async teardowns, which it runs in their place in the order.
    ///
    /// It has its own name, as `makeDestinationAsync(to:)` has, so that `shutdown()` means one thing: an async
    /// overload of it would win in async code and make every `try registry.shutdown()` there a compile error
    /// ("expression is 'async' but is not marked with 'await'").
    /// - Throws: ``RouteError`` with code ``RouteError/Code/teardownFailed`` listing every teardown that
    ///   failed.
    public nonisolated(nonsending) func shutdownAsync() async throws {
        guard let plan = beginShutdown() else { return }
        var failures: [(RouteError, any Error)] = []
        for (entry, teardown) in plan {
            guard let made = teardown.release(entry) else { continue }
            do {
                try await teardown.async(made)
            } catch {
                failures.append((RouteError.teardownFailure(entry, error), error))
            }
        }
        // The async teardowns of instances whose builds landed after shutdown began, started on tasks by
        // synchronous code: awaited too (a failure of one reaches the error handler).
        var late = lifecycle.takeLate()
        while !late.isEmpty {
            for task in late { await task.value }
            late = lifecycle.takeLate()
        }
        endShutdown()
        if let failure = Self.collected(failures) { throw failure }
    }

    /// Whether ``shutdown()`` has begun: lookups then fail with ``RouteError/Code/shutDown``.
    public var isShutDown: Bool { phase.load(ordering: .acquiring) == Phase.shutDown.rawValue }

    /// Moves to shutting down and returns what to tear down, last made first, each registration once;
    /// nil when shutdown already began.
    private func beginShutdown() -> [(AnyEntry, Lifecycle.Teardown)]? {
        // From a factory that `seal()` runs on this thread (an eager singleton's): the registry is not
        // made yet, and the seal lock is this thread's.
        if sealingThread.load(ordering: .acquiring) == CurrentThread.id { return nil }
        // No `seal()` in progress meanwhile: it would store the sealed phase after ours.
        sealLock.lock()
        defer { sealLock.unlock() }
        let table = isSealed ? sealedTable : nil
        let closed = SealedTable(entries: [], parent: nil, maxDepth: maxDepth, reporter: self)
        guard
            let (made, teardowns) = lifecycle.state.withLock({ state -> ([Int], [Int: Lifecycle.Teardown])? in
                guard state.phase == .running else { return nil }
                state.phase = .shuttingDown
                state.closedTable = closed
                return (state.made, state.teardowns)
            })
        else { return nil }
        lifecycle.close()
        // From now on no lookup of this registry takes the lock-free path (`tableRef()` needs the sealed
        // phase): each reads the table through `tableSlow()`, which gives the closed table, set above. A
        // registry shut down before it was sealed can no longer be sealed or take registrations.
        phase.store(Phase.shutDown.rawValue, ordering: .releasing)
        guard let table else { return [] }
        var byOrder: [Int: AnyEntry] = [:]
        for entry in table.entries where byOrder[entry.order] == nil { byOrder[entry.order] = entry }
        var seen = Set<Int>()
        var plan: [(AnyEntry, Lifecycle.Teardown)] = []
        for order in made.reversed() where seen.insert(order).inserted {
            guard let entry = byOrder[order], let teardown = teardowns[order] else { continue }
            plan.append((entry, teardown))
        }
        return plan
    }

    private func endShutdown() {
        lifecycle.state.withLock { $0.phase = .shutDown }
    }

    /// The closed table, once shutdown has begun (see `tableSlow()`).
    var closedTable: SealedTable? {
        lifecycle.state.withLock { $0.phase == .running ? nil : $0.closedTable }
    }

    /// Runs the teardowns of the instances `resetSingletons` released (`released`: each registration with
    /// the instance its old generation's cell held), dependents first; what fails reaches the error
    /// handler, since a reset does not throw. During a shutdown too: the reset released these cells before
    /// shutdown did, so shutdown will not tear their instances down.
    func tearDownReleased(_ released: [(entry: AnyEntry, instance: Any)]) {
        let teardowns = lifecycle.state.withLock { $0.teardowns }
        guard !teardowns.isEmpty else { return }
        for (entry, instance) in released.reversed() {
            guard let teardown = teardowns[entry.order] else { continue }
            guard let sync = teardown.sync else {
                errorHandler?(RouteError.resetCannotAwaitTeardown(entry))
                continue
            }
            do {
                try sync(instance)
            } catch {
                errorHandler?(RouteError.teardownFailure(entry, error))
            }
        }
    }

    private static func collected(_ failures: [(RouteError, any Error)]) -> RouteError? {
        guard let first = failures.first else { return nil }
        if failures.count == 1 { return first.0 }
        return RouteError.teardownsFailed(failures)
    }
}
