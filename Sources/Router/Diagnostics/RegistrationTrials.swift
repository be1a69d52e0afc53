import Synchronization

/// What the caller supplies to make the registrations that cannot be made from nothing, for
/// ``RouteRegistry/makeEachRegistration(supplying:)``: the runtime arguments of a registration that takes
/// some, the configuration of a module, the value of a key each request scope supplies.
///
/// ```swift
/// var inputs = RegistrationInputs()
/// inputs.arguments(for: .bookDetail, 3)
/// inputs.configuring(.cart) { config in config.constructCart(owner: "ann") }
/// inputs.supply(RequestContext(user: "ann"), for: .requestContext)
/// ```
public struct RegistrationInputs: Sendable {
    /// One supplied input: the registrations it serves, and how it makes one through the registry's door.
    struct Maker: Sendable {
        let id: KeyID
        let name: String?
        /// The argument types, for a registration with arguments; nil for a module's configuration.
        let argumentTypes: ArgumentList?
        /// Makes it in the request scope given, on the caller's executor (the main actor's, for a main-actor
        /// registration).
        let make:
            nonisolated(nonsending) @Sendable (RouteRegistry, _ onMainActor: Bool, RequestScope) async throws -> Void
    }

    private(set) var makers: [Maker] = []
    /// A value given for a key declared with ``RouteRegistry/registerSupplied(_:file:line:)``.
    struct Supplier: Sendable {
        let id: KeyID
        let name: String?
        /// Supplies it to a request scope.
        let supply: @Sendable (RequestScope) throws -> Void
    }

    /// The values given for supplied keys, one per key.
    private(set) var suppliers: [Supplier] = []

    /// No inputs: every registration is made as it is, a module with a fresh, unconfigured configuration,
    /// and no supplied key has a value.
    public init() {}

    /// Supplies the runtime arguments of `key`'s registration that takes arguments of these types.
    /// - Parameters:
    ///   - key: The key.
    ///   - first: The factory's first argument.
    ///   - rest: Its other arguments, in order.
    public mutating func arguments<Destination, First: Sendable, each Argument: Sendable>(
        for key: RoutableService<Destination>, _ first: First, _ rest: repeat each Argument
    ) {
        let supplied = SuppliedArguments(first, repeat each rest)
        makers.append(
            Maker(id: key.id, name: key.name, argumentTypes: ArgumentList(First.self, repeat (each Argument).self)) {
                registry, onMainActor, scope in
                try await registry.makeForTrial(
                    key, arguments: supplied.first, repeat each supplied.rest, onMainActor: onMainActor, in: scope)
            })
    }

    /// Supplies how to configure the module of `key` (its `construct…` calls) before it is made.
    /// - Parameters:
    ///   - key: The module key.
    ///   - configuring: Sets the module up.
    public mutating func configuring<Configuration, Destination>(
        _ key: RoutableServiceModule<Configuration, Destination>,
        with configuring: @escaping @Sendable (Configuration) throws -> Void
    ) {
        makers.append(
            Maker(id: key.id, name: nil, argumentTypes: nil) { registry, onMainActor, scope in
                try await registry.makeForTrial(key, configuring: configuring, onMainActor: onMainActor, in: scope)
            })
    }

    /// Supplies the value of a key declared with ``RouteRegistry/registerSupplied(_:file:line:)``, as a
    /// request's ``RequestScope/supply(_:for:)`` does: each registration is made in a request scope of its
    /// own, given this value.
    ///
    /// ```swift
    /// var inputs = RegistrationInputs()
    /// inputs.supply(RequestInfo(path: "/orders"), for: .requestInfo)
    /// ```
    ///
    /// Without one, the key and every registration made from it are reported as
    /// ``RouteError/Code/notSupplied``. A value for a key that is not declared as supplied makes
    /// ``RouteRegistry/makeEachRegistration(supplying:)`` throw ``RouteError/Code/notSupplied`` before it
    /// makes anything; the last value given for a key is the one used.
    /// - Parameters:
    ///   - value: The value, e.g. a request's context.
    ///   - key: The supplied key.
    public mutating func supply<Destination: Sendable>(_ value: Destination, for key: RoutableService<Destination>) {
        let id = key.id
        let name = key.name
        suppliers.removeAll { $0.id == id && $0.name == name }
        suppliers.append(Supplier(id: id, name: name) { scope in try scope.supply(value, for: key) })
    }

    /// A request scope for one registration's trial, given every supplied value.
    func openScope(on registry: RouteRegistry) throws -> RequestScope {
        let scope = RequestScope(registry: registry, suppliedByInputs: true)
        do {
            for supplier in suppliers { try supplier.supply(scope) }
        } catch {
            scope.end()
            throw error
        }
        return scope
    }

    /// The input supplied for `entry`, if any.
    func maker(for entry: AnyEntry) -> Maker? {
        let types = entry.argumentList
        return makers.last { maker in
            guard maker.id == entry.id, maker.name == entry.key.name else { return false }
            switch (maker.argumentTypes, types) {
            case (nil, nil): return true
            case (let supplied?, let taken?): return supplied.matches(taken)
            default: return false
            }
        }
    }
}

/// Supplied arguments, kept until their registration is made.
private final class SuppliedArguments<First: Sendable, each Rest: Sendable>: Sendable {
    let first: First
    let rest: (repeat each Rest)

    init(_ first: First, _ rest: repeat each Rest) {
        self.first = first
        self.rest = (repeat each rest)
    }
}

/// What making one registration did, in ``RouteRegistry/makeEachRegistration(supplying:)``: the edges its
/// factory and preparations really took, which of them it declared, and the failure, if it could not be
/// made.
public struct RegistrationTrial: Sendable {
    /// One lookup the registration's factory or preparation made.
    public struct Edge: Sendable, Hashable, CustomStringConvertible {
        /// The key it looked up, e.g. `RoutableService<Logger>`.
        public let key: String
        /// Whether a preparation (an injection, a `preparing` closure) made it, rather than the factory.
        public let inPreparation: Bool
        /// Whether the registration declared the key (`.dependencies(…)`, auto-wiring, an injection, a
        /// `preparing(declaring:)`), so that sealing checks it and the graph shows it.
        public let isDeclared: Bool

        /// `initializer → RoutableService<Logger>`, `property → …` for a preparation's, marked when undeclared.
        public var description: String {
            "\(inPreparation ? "property" : "initializer") → \(key)\(isDeclared ? "" : " (undeclared)")"
        }
    }

    /// The key, e.g. `RoutableService<HomeViewModel>`.
    public let key: String
    /// The short name, e.g. `HomeViewModel`.
    public let name: String
    /// The module that registered it, if a ``RouteModule`` did.
    public let module: String?
    /// The file of the registering call, as `#fileID` gave it.
    public let file: String
    /// The line of the registering call.
    public let line: Int
    /// Where it was registered, as messages name it: `HomeModule (App/Home.swift:12)`.
    public let site: String
    /// The dependencies it declared.
    public let declared: [RouteDependency]
    /// The lookups its factory and preparations made, each key once, in the order first made.
    public let taken: [Edge]
    /// Why it could not be made; nil when it was.
    public let failure: RouteError?
    /// Why the teardown of the singleton made for it failed (``RouteError/Code/teardownFailed``, what the
    /// teardown threw as its `underlyingError`); nil when it has no teardown, or its teardown ran.
    public let teardownFailure: RouteError?
    /// What is wrong with it: the failure, if any, then one ``RouteError/Code/undeclaredDependency`` error
    /// per edge it took without declaring it, each saying what to declare, then its teardown's failure, if
    /// any.
    public let problems: [RouteError]

    /// The edges it took without declaring them.
    public var undeclared: [Edge] { taken.filter { !$0.isDeclared } }
}

extension RouteRegistry {
    /// Makes every registration once, this registry's and its parents', in a throwaway layer over the
    /// registry, and reports what each one's lookups really took: the ground truth that a registration's
    /// declarations (and so ``validate()`` and ``dependencyGraph()``) may miss, such as the `@Injected`
    /// properties of an object or the `r.resolve` calls of a closure factory.
    ///
    /// Each registration is made through the registry's own door, as an app's lookup would be:
    ///
    /// - **Where it runs.** A main-actor one on the main actor, whatever the caller's isolation (a test runs
    ///   off it); an async one awaited; every other one on the caller's executor.
    /// - **In a request scope.** Each registration is made in a request scope of its own, opened for it and
    ///   ended after it, as a server's request would make it: a request-scoped registration is made in it,
    ///   and a supplied key (``registerSupplied(_:file:line:)``) reads the value `inputs` gives with
    ///   ``RegistrationInputs/supply(_:for:)``. A supplied key given no value, and each registration made
    ///   from it, fail with ``RouteError/Code/notSupplied``, saying to supply one through the inputs. A
    ///   singleton that reaches a request-scoped or supplied key still fails, as it would in a request
    ///   (``RouteError/Code/captiveDependency``).
    /// - **With what it takes.** One that takes arguments with those `inputs` supplies, a module configured
    ///   by `inputs` (or with a fresh configuration).
    /// - **In a throwaway layer.** The lookups are traced, as under a ``traceHandler``, and run in a layer
    ///   like ``withOverrides(_:operation:)-3w9ib``'s in which every shared registration has a fresh cell:
    ///   singletons (eager ones too) are built anew, so the app never gets an instance made here, and the
    ///   registry's own singletons are neither used nor touched. When every registration has been made, the
    ///   singletons built anew that have a `teardown(_:)` are torn down, as ``shutdown()-32uys``
    ///   would (each once, the last made first, an async teardown awaited); one whose teardown throws has a
    ///   ``RouteError/Code/teardownFailed`` problem in its trial. The registry does not record them: its own
    ///   ``shutdown()-32uys`` tears down only the instances it made, in the order it made them.
    ///
    /// No error is reported to the ``errorHandler``: each failure is in its trial.
    ///
    /// `RouterTesting`'s `verifyByMaking()` turns the trials into one list of problems for a test.
    /// - Parameter inputs: The arguments, configurations and supplied values the registrations need.
    /// - Returns: One trial per registration, in registration order (a parent's first).
    /// - Throws: ``RouteError`` before making anything: ``RouteError/Code/notSealed`` when the registry is not
    ///   sealed, ``RouteError/Code/shutDown`` when it or a parent was shut down, ``RouteError/Code/notSupplied``
    ///   when `inputs` supplies a value for a key not declared as supplied.
    public nonisolated(nonsending) func makeEachRegistration(
        supplying inputs: RegistrationInputs = RegistrationInputs()
    ) async throws -> [RegistrationTrial] {
        var ancestor: RouteRegistry? = self
        while let registry = ancestor {
            if registry.isShutDown { throw RouteError.madeAfterShutdown(registry, of: self) }
            ancestor = registry.parent
        }
        let base = try table()
        // The supplied values are checked before anything is made: a key that is not supplied fails the run.
        try inputs.openScope(on: self).end()
        let (overlay, layer) = try overrideLayer(over: base, { _ in }, freshCells: true)
        var original: [ObjectIdentifier: AnyEntry] = [:]
        for entry in base.allEntriesInChain {
            original[ObjectIdentifier(entry)] = entry
            if let copy = overlay.redirect[ObjectIdentifier(entry)] { original[ObjectIdentifier(copy)] = entry }
        }
        var tables = OverrideContext.tables
        tables[ObjectIdentifier(self)] = overlay
        let recorder = EdgeRecorder()
        let run = RegistrationTrialRun(copies: overlay.redirect.values)
        overrideCounter.running.add(1, ordering: .relaxed)
        tracer.beginRecording()
        defer {
            tracer.endRecording()
            layer.end()
            overrideCounter.running.subtract(1, ordering: .relaxed)
        }
        var failures: [ObjectIdentifier: RouteError] = [:]
        await OverrideContext.$tables.withValue(tables) {
            await EdgeRecorder.$current.withValue(recorder) {
                await RegistrationTrialRun.$current.withValue(run) {
                    for entry in base.allEntriesInChain {
                        let target = overlay.redirect[ObjectIdentifier(entry)] ?? entry
                        if let failure = await makeForTrial(entry, target, inputs) {
                            failures[ObjectIdentifier(entry)] = failure
                        }
                    }
                }
            }
        }
        // Torn down once every registration was made (a later one's trial may use a singleton made earlier).
        var teardownFailures: [ObjectIdentifier: RouteError] = [:]
        for (copy, failure) in await run.tearDown() {
            teardownFailures[ObjectIdentifier(original[ObjectIdentifier(copy)] ?? copy)] = failure
        }
        return Self.trials(
            of: base.allEntriesInChain, edges: recorder.all, original: original, failures: failures,
            teardownFailures: teardownFailures)
    }

    /// Makes one registration for ``makeEachRegistration(supplying:)``, in a request scope of its own;
    /// returns its failure, if any.
    private nonisolated(nonsending) func makeForTrial(
        _ entry: AnyEntry, _ target: AnyEntry, _ inputs: RegistrationInputs
    ) async -> RouteError? {
        let scope: RequestScope
        do {
            scope = try inputs.openScope(on: self)
        } catch {
            // Not expected: the same values were supplied to a scope before the run began.
            return error as? RouteError ?? RouteError.trialInterrupted(entry, by: error)
        }
        defer { scope.end() }
        do {
            if let maker = inputs.maker(for: entry) {
                if entry.isMainActor {
                    try await Self.onMainActor { @MainActor in try await maker.make(self, true, scope) }
                } else {
                    try await maker.make(self, false, scope)
                }
            } else if let types = entry.argumentTypes {
                return RouteError.argumentsNotSupplied(entry, types: types)
            } else if entry.isMainActor {
                try await Self.onMainActor { @MainActor in
                    try await self.makeErased(target, onMainActor: true, in: scope)
                }
            } else {
                try await makeErased(target, onMainActor: false, in: scope)
            }
            return nil
        } catch let error as RouteError {
            return error
        } catch {
            return RouteError.trialInterrupted(entry, by: error)
        }
    }

    /// Runs `body` on the main actor, in the calling task (so that its task-local values apply): `body` is
    /// isolated to it, so what it calls on the caller's executor (`nonisolated(nonsending)`) runs there too.
    @MainActor
    private static func onMainActor(_ body: @MainActor () async throws -> Void) async throws {
        try await body()
    }

    /// Makes `entry` with nothing supplied, in `scope`: through the synchronous door for a synchronous
    /// factory, the async door for an async one; a module with a fresh configuration.
    private nonisolated(nonsending) func makeErased(
        _ entry: AnyEntry, onMainActor: Bool, in scope: RequestScope
    ) async throws {
        let configuration = entry.makeConfigurationObject()
        if entry.isAsync {
            _ = try await lookupAsync(reporting: false, onMainActor: onMainActor) { resolver in
                let replaced = resolver.state.creation.enterRequestScope(scope)
                defer { resolver.state.creation.leaveRequestScope(replaced) }
                return try await entry.buildAsyncErased(&resolver, input: configuration)
            }
        } else {
            _ = try lookup(reporting: false, onMainActor: onMainActor) { resolver in
                let replaced = resolver.state.creation.enterRequestScope(scope)
                defer { resolver.state.creation.leaveRequestScope(replaced) }
                return try entry.buildErased(&resolver, input: configuration)
            }
        }
    }

    /// Makes `key` with supplied arguments in `scope`, through the async door (which runs a synchronous
    /// factory too).
    nonisolated(nonsending) func makeForTrial<Destination, First, each Argument>(
        _ key: RoutableService<Destination>, arguments first: First, _ rest: repeat each Argument, onMainActor: Bool,
        in scope: RequestScope
    ) async throws {
        let given = ArgumentList(First.self, repeat (each Argument).self)
        _ = try await ArgumentHandoff.withAsync(given, first, repeat each rest, making: Destination.self) {
            handoff in
            try await lookupAsync(reporting: false, onMainActor: onMainActor) { resolver in
                let replaced = resolver.state.creation.enterRequestScope(scope)
                defer { resolver.state.creation.leaveRequestScope(replaced) }
                let entry = try resolver.entry(for: key, taking: given)
                try resolver.checkTakesArguments(entry, given: given)
                return try await resolver.buildAsync(entry, arguments: handoff)
            }
        }
    }

    /// Makes a module configured by `configuring` in `scope`, through the async door.
    nonisolated(nonsending) func makeForTrial<Configuration, Destination>(
        _ key: RoutableServiceModule<Configuration, Destination>,
        configuring: @Sendable (Configuration) throws -> Void, onMainActor: Bool, in scope: RequestScope
    ) async throws {
        _ = try await lookupAsync(reporting: false, onMainActor: onMainActor) { resolver in
            let replaced = resolver.state.creation.enterRequestScope(scope)
            defer { resolver.state.creation.leaveRequestScope(replaced) }
            let entry = try resolver.moduleEntry(for: key)
            let made = try resolver.configure(entry, as: Configuration.self, configuring)
            return try await resolver.buildAsync(entry, input: made)
        }
    }

    /// The trials: for each registration, the edges its lookups took (a copy's filed under its original),
    /// its failure and its teardown's.
    private static func trials(
        of entries: [AnyEntry], edges: [EdgeRecorder.Taken], original: [ObjectIdentifier: AnyEntry],
        failures: [ObjectIdentifier: RouteError], teardownFailures: [ObjectIdentifier: RouteError]
    ) -> [RegistrationTrial] {
        var taken: [ObjectIdentifier: [RegistrationTrial.Edge]] = [:]
        var undeclared: [ObjectIdentifier: [RouteError]] = [:]
        for edge in edges {
            let dependent = original[ObjectIdentifier(edge.dependent)] ?? edge.dependent
            let made = RegistrationTrial.Edge(
                key: edge.target.key.full, inPreparation: edge.inPreparation,
                isDeclared: dependent.declaresEdge(to: edge.target))
            let id = ObjectIdentifier(dependent)
            guard !(taken[id] ?? []).contains(made) else { continue }
            taken[id, default: []].append(made)
            if !made.isDeclared {
                undeclared[id, default: []].append(
                    RouteError.undeclaredEdge(from: dependent, to: edge.target, inPreparation: edge.inPreparation))
            }
        }
        return entries.map { entry in
            let id = ObjectIdentifier(entry)
            let failure = failures[id]
            let teardownFailure = teardownFailures[id]
            return RegistrationTrial(
                key: entry.key.full, name: entry.key.short, module: entry.site.module,
                file: "\(entry.site.file)", line: Int(entry.site.line), site: entry.owner,
                declared: entry.dependencies, taken: taken[id] ?? [], failure: failure,
                teardownFailure: teardownFailure,
                problems: (failure.map { [$0] } ?? []) + (undeclared[id] ?? []) + (teardownFailure.map { [$0] } ?? []))
        }
    }
}

/// The singletons one ``RouteRegistry/makeEachRegistration(supplying:)`` run built in its fresh copies of
/// the shared registrations, those with a teardown, for the run to tear down when it ends. The teardown's
/// wrapper of the factory (`Registration.teardown(_:)`) files such an instance here instead of in the
/// registry's lifecycle: the registry never holds it, so its `shutdown()` must neither run that teardown
/// again nor take the run's order of creation for its own.
final class RegistrationTrialRun: Sendable {
    /// The run of the current task, while it makes registrations.
    @TaskLocal static var current: RegistrationTrialRun?

    /// One instance made: the copy whose cell holds it, and the lifecycle and order under which its
    /// registration's teardown is declared.
    private struct Made: Sendable {
        let copy: AnyEntry
        let lifecycle: Lifecycle
        let order: Int
    }

    /// The run's copies, by identity: what their factories make is the run's, and nothing else is (a
    /// factory may look up another registry, whose singletons that registry keeps).
    private let copies: Set<ObjectIdentifier>
    /// What the copies made, in the order their factories returned.
    private let made = Locked<[Made]>([])

    init(copies: some Sequence<AnyEntry>) {
        self.copies = Set(copies.map { ObjectIdentifier($0) })
    }

    /// Whether the factory running in `frame` (the top frame of its lookup) builds a copy of the current
    /// task's run; if so the run records it under `lifecycle`'s teardown of registration `order`. False
    /// outside a run, for the registry to record it as usual.
    static func adopts(_ frame: FrameRef?, _ lifecycle: Lifecycle, _ order: Int) -> Bool {
        guard let run = current, let building = frame?.entry.object,
            run.copies.contains(ObjectIdentifier(building))
        else { return false }
        run.made.withLock { $0.append(Made(copy: building, lifecycle: lifecycle, order: order)) }
        return true
    }

    /// Tears down what the run made as `shutdown()` would: the last made first, each copy once, the
    /// instance its cell holds, an async teardown awaited, every teardown run even when one fails. Returns
    /// each failure with the copy whose teardown threw.
    nonisolated(nonsending) func tearDown() async -> [(copy: AnyEntry, failure: RouteError)] {
        let made = self.made.withLock { made -> [Made] in
            defer { made = [] }
            return made
        }
        var seen = Set<ObjectIdentifier>()
        var failures: [(copy: AnyEntry, failure: RouteError)] = []
        for item in made.reversed() where seen.insert(ObjectIdentifier(item.copy)).inserted {
            guard let teardown = item.lifecycle.state.withLock({ $0.teardowns[item.order] }),
                // The copy's cell released, as shutdown releases the registry's: its instance is this run's to
                // tear down, and a build of it still running tears its own down.
                let instance = teardown.release(item.copy)
            else { continue }
            do {
                try await teardown.async(instance)
            } catch {
                failures.append((item.copy, RouteError.teardownFailure(item.copy, error)))
            }
        }
        return failures
    }
}
