import Synchronization

/// What the caller supplies to make the registrations that cannot be made from nothing, for
/// ``RouteRegistry/makeEachRegistration(supplying:)``: the runtime arguments of a registration that takes
/// some, the configuration of a module.
///
/// ```swift
/// var inputs = RegistrationInputs()
/// inputs.arguments(for: .bookDetail, 3)
/// inputs.configuring(.cart) { config in config.constructCart(owner: "ann") }
/// ```
public struct RegistrationInputs: Sendable {
    /// One supplied input: the registrations it serves, and how it makes one through the registry's door.
    struct Maker: Sendable {
        let id: KeyID
        let name: String?
        /// The argument types, for a registration with arguments; nil for a module's configuration.
        let argumentTypes: ArgumentList?
        let make: @Sendable (RouteRegistry, _ onMainActor: Bool) async throws -> Void
    }

    private(set) var makers: [Maker] = []

    /// No inputs: every registration is made as it is, a module with a fresh, unconfigured configuration.
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
                registry, onMainActor in
                try await registry.makeForTrial(
                    key, arguments: supplied.first, repeat each supplied.rest, onMainActor: onMainActor)
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
            Maker(id: key.id, name: nil, argumentTypes: nil) { registry, onMainActor in
                try await registry.makeForTrial(key, configuring: configuring, onMainActor: onMainActor)
            })
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
    /// What is wrong with it: the failure, if any, then one ``RouteError/Code/undeclaredDependency`` error
    /// per edge it took without declaring it, each saying what to declare.
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
    /// Each registration is made through the registry's own door, as an app's lookup would be: a
    /// main-actor one on the main actor, an async one awaited, one that takes arguments with those
    /// `inputs` supplies, a module configured by `inputs` (or with a fresh configuration). The lookups are
    /// traced, as under a ``traceHandler``, and run in a layer like ``withOverrides(_:operation:)-3w9ib``'s
    /// in which every shared registration has a fresh cell: singletons (eager ones too) are built anew
    /// and forgotten afterwards, so the app never keeps an instance made here. No error is reported to the
    /// ``errorHandler``: each failure is in its trial.
    ///
    /// `RouterTesting`'s `verifyByMaking()` turns the trials into one list of problems for a test.
    /// - Parameter inputs: The arguments and configurations the registrations need.
    /// - Returns: One trial per registration, in registration order (a parent's first).
    /// - Throws: ``RouteError`` when the registry is not sealed.
    public nonisolated(nonsending) func makeEachRegistration(
        supplying inputs: RegistrationInputs = RegistrationInputs()
    ) async throws -> [RegistrationTrial] {
        let base = try table()
        let (overlay, layer) = try overrideLayer(over: base, { _ in }, freshCells: true)
        var original: [ObjectIdentifier: AnyEntry] = [:]
        for entry in base.allEntriesInChain {
            original[ObjectIdentifier(entry)] = entry
            if let copy = overlay.redirect[ObjectIdentifier(entry)] { original[ObjectIdentifier(copy)] = entry }
        }
        var tables = OverrideContext.tables
        tables[ObjectIdentifier(self)] = overlay
        let recorder = EdgeRecorder()
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
                for entry in base.allEntriesInChain {
                    let target = overlay.redirect[ObjectIdentifier(entry)] ?? entry
                    if let failure = await makeForTrial(entry, target, inputs) {
                        failures[ObjectIdentifier(entry)] = failure
                    }
                }
            }
        }
        return Self.trials(of: base.allEntriesInChain, edges: recorder.all, original: original, failures: failures)
    }

    /// Makes one registration for ``makeEachRegistration(supplying:)``; returns its failure, if any.
    private nonisolated(nonsending) func makeForTrial(
        _ entry: AnyEntry, _ target: AnyEntry, _ inputs: RegistrationInputs
    ) async -> RouteError? {
        do {
            if let maker = inputs.maker(for: entry) {
                if entry.isMainActor {
                    try await Self.onMainActor { try await maker.make(self, true) }
                } else {
                    try await maker.make(self, false)
                }
            } else if let types = entry.argumentTypes {
                return RouteError(
                    .argumentMismatch, key: entry.key.full, path: [entry.key.short],
                    reason:
                        "\(entry.key.full) from \(entry.owner) takes the arguments \(TypeName.arguments(types)), and none were supplied, so it was not made.",
                    hint: "Supply them: inputs.arguments(for: <key>, …).")
            } else if entry.isMainActor {
                try await Self.onMainActor { try await self.makeErased(target, onMainActor: true) }
            } else {
                try await makeErased(target, onMainActor: false)
            }
            return nil
        } catch let error as RouteError {
            return error
        } catch {
            return RouteError(
                .factoryFailed, key: entry.key.full, path: [entry.key.short],
                reason: "Making \(entry.key.full) was interrupted.", underlyingError: error)
        }
    }

    /// Runs `body` on the main actor, in the calling task (so that its task-local values apply).
    @MainActor
    private static func onMainActor(_ body: nonisolated(nonsending) () async throws -> Void) async throws {
        try await body()
    }

    /// Makes `entry` with nothing supplied: through the synchronous door for a synchronous factory, the
    /// async door for an async one; a module with a fresh configuration.
    private nonisolated(nonsending) func makeErased(_ entry: AnyEntry, onMainActor: Bool) async throws {
        let configuration = entry.makeConfigurationObject()
        if entry.isAsync {
            _ = try await lookupAsync(reporting: false, onMainActor: onMainActor) { resolver in
                try await entry.buildAsyncErased(&resolver, input: configuration)
            }
        } else {
            _ = try lookup(reporting: false, onMainActor: onMainActor) { resolver in
                try entry.buildErased(&resolver, input: configuration)
            }
        }
    }

    /// Makes `key` with supplied arguments, through the async door (which runs a synchronous factory too).
    nonisolated(nonsending) func makeForTrial<Destination, First, each Argument>(
        _ key: RoutableService<Destination>, arguments first: First, _ rest: repeat each Argument, onMainActor: Bool
    ) async throws {
        let given = ArgumentList(First.self, repeat (each Argument).self)
        _ = try await ArgumentHandoff.withAsync(given, first, repeat each rest, making: Destination.self) {
            handoff in
            try await lookupAsync(reporting: false, onMainActor: onMainActor) { resolver in
                let entry = try resolver.entry(for: key, taking: given)
                try resolver.checkTakesArguments(entry, given: given)
                return try await resolver.buildAsync(entry, arguments: handoff)
            }
        }
    }

    /// Makes a module configured by `configuring`, through the async door.
    nonisolated(nonsending) func makeForTrial<Configuration, Destination>(
        _ key: RoutableServiceModule<Configuration, Destination>,
        configuring: @Sendable (Configuration) throws -> Void, onMainActor: Bool
    ) async throws {
        _ = try await lookupAsync(reporting: false, onMainActor: onMainActor) { resolver in
            let entry = try resolver.moduleEntry(for: key)
            let made = try resolver.configure(entry, as: Configuration.self, configuring)
            return try await resolver.buildAsync(entry, input: made)
        }
    }

    /// The trials: for each registration, the edges its lookups took (a copy's filed under its original)
    /// and its failure.
    private static func trials(
        of entries: [AnyEntry], edges: [EdgeRecorder.Taken], original: [ObjectIdentifier: AnyEntry],
        failures: [ObjectIdentifier: RouteError]
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
            return RegistrationTrial(
                key: entry.key.full, name: entry.key.short, module: entry.site.module,
                file: "\(entry.site.file)", line: Int(entry.site.line), site: entry.owner,
                declared: entry.dependencies, taken: taken[id] ?? [], failure: failure,
                problems: (failure.map { [$0] } ?? []) + (undeclared[id] ?? []))
        }
    }
}
