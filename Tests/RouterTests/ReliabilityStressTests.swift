import Router
import Synchronization
import Testing

// Concurrency stress of issue 7: real threads and Swift tasks hammering one sealed registry.

/// Factory call counts of the stress registry.
final class RelStressCalls: Sendable {
    let engine = Counter()
    let radio = Counter()
    let session = Counter()
    let reentrant = Counter()
    let store = Counter()
}

/// Holds the registry weakly so that a factory can make top-level lookups without a reference cycle.
final class RelRegistryBox: Sendable {
    private let storage = TestLocked<RelWeakRegistry>(RelWeakRegistry())
    var registry: RouteRegistry? { storage.withLock { $0.registry } }
    func set(_ registry: RouteRegistry) { storage.withLock { $0.registry = registry } }
}

struct RelWeakRegistry: @unchecked Sendable {
    // @unchecked: only read and written inside RelRegistryBox's lock; RouteRegistry itself is Sendable.
    weak var registry: RouteRegistry?
}

private let graphWheel = RoutableService.wheel.named("graph")
private let positioned = RoutableService.wheel.named("positioned")
private let manyWheel = RoutableService.wheel.tagged(Diesel.self)
private let sessionLeaf = RoutableService.relLeaf.named("session")
private let reentrantLeaf = RoutableService.relLeaf.named("reentrant")

struct ReliabilityStressTests {
    static let lookupsPerThread = relLongTests ? 100_000 : 10_000

    /// A registry with every scope and modifier; `session` is the custom scope.
    static func mixedRegistry(
        calls: RelStressCalls, session: CustomScope
    ) throws -> RouteRegistry {
        let box = RelRegistryBox()
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in
                calls.engine.increment()
                return V8()
            }.scope(.singleton)
            try registry.register(.wheel) { _ in WheelImpl(position: 0) }
            try registry.register(graphWheel) { _ in WheelImpl(position: 1) }.scope(.graph)
            try registry.register(positioned, arguments: Int.self) { _, position in WheelImpl(position: position) }
            for position in 0..<3 {
                try registry.register(manyWheel) { _ in WheelImpl(position: position) }.oneOfMany()
            }
            try registry.register(.radio) { _ in
                calls.radio.increment()
                return RadioImpl()
            }.scope(.weakSingleton)
            try registry.register(sessionLeaf) { _ in
                RelLeafImpl(serial: calls.session.increment())
            }.scope(.custom(session))
            try registry.register(.relPanel) { r in
                RelPanelImpl(
                    left: try r.resolve(graphWheel), right: try r.resolve(graphWheel), engine: try r.resolve(.engine))
            }
            try registry.register(.car) { r in
                CarImpl(engine: try r.resolve(.engine))
            }.scope(.graph).injecting(\.radio, .radio)
            // A property-closed cycle: A(init B), B.a by property.
            try registry.register(.nodeA) { r in AImpl(b: try r.resolve(.nodeB)) }
            try registry.register(.nodeB) { _ in BImpl() }.injecting(\.a, .nodeA)
            // Lazy and Provider handed out of a factory.
            try registry.register(.relHolder) { r in
                RelHolderImpl(
                    payload: try r.resolve(sessionLeaf), lazyLeaf: try r.lazy(sessionLeaf),
                    leafProvider: try r.provider(sessionLeaf))
            }
            // A singleton whose factory makes a top-level lookup through the registry itself.
            try registry.register(reentrantLeaf) { _ in
                calls.reentrant.increment()
                guard let registry = box.registry else { throw Boom() }
                let engine = try registry.makeDestination(to: .engine)
                let wheels = try registry.makeDestinations(to: manyWheel)
                return RelLeafImpl(serial: engine.horsepower + wheels.count)
            }.scope(.singleton)
        }
        box.set(registry)
        return registry
    }

    /// One round of lookups; returns a description of the first inconsistency, if any.
    static func round(_ registry: RouteRegistry, _ step: Int) throws -> String? {
        switch step % 10 {
        case 0:
            let panel = try registry.makeDestination(to: .relPanel)
            if panel.left !== panel.right { return "graph-scoped wheel not shared within one lookup" }
            if panel.engine !== (try registry.makeDestination(to: .engine)) { return "two engines" }
        case 1:
            let car = try registry.makeDestination(to: .car)
            if car.radio == nil { return "car radio not injected" }
        case 2:
            let a = try registry.makeDestination(to: .nodeA)
            defer { breakCycles(a) }
            if a.b?.a !== a { return "cycle back-pointer does not point at its own A" }
        case 3:
            if try registry.makeDestinations(to: manyWheel).map(\.position) != [0, 1, 2] { return "many" }
        case 4:
            if try registry.makeDestination(to: positioned, arguments: step).position != step { return "arguments" }
        case 5:
            let holder = try registry.makeDestination(to: .relHolder)
            _ = try holder.leafProvider?()
            _ = try holder.lazyLeaf?.value
        case 6:
            if try registry.makeDestination(to: reentrantLeaf).serial != 403 { return "re-entrant singleton" }
        case 7:
            let first = try registry.makeDestination(to: .radio)
            if try registry.makeDestination(to: .radio) !== first { return "weak singleton not shared while held" }
        case 8:
            _ = try registry.makeDestination(to: sessionLeaf)
        default:
            if try registry.makeDestination(to: .wheel) === registry.makeDestination(to: .wheel) {
                return "transient shared"
            }
        }
        return nil
    }

    @Test func eightThreadsOfMixedLookupsStayConsistentAndBuildEverySingletonOnce() throws {
        let calls = RelStressCalls()
        let registry = try Self.mixedRegistry(calls: calls, session: CustomScope("rel-stress"))
        let failures = EventLog()
        let lookups = Counter()
        onThreads(8) { thread in
            for step in 0..<Self.lookupsPerThread {
                do {
                    if let problem = try Self.round(registry, step &+ thread) {
                        failures.record(problem)
                        return
                    }
                    lookups.increment()
                } catch {
                    failures.record("\(error)")
                    return
                }
            }
        }
        #expect(failures.events.isEmpty)
        #expect(lookups.value == 8 * Self.lookupsPerThread)
        #expect(calls.engine.value == 1)
        #expect(calls.reentrant.value == 1)
        #expect(calls.session.value == 1)
    }

    @Test func resettingACustomScopeFromOneThreadWhileSevenLookUp() throws {
        let calls = RelStressCalls()
        let session = CustomScope("rel-reset")
        let registry = try Self.mixedRegistry(calls: calls, session: session)
        let failures = EventLog()
        let resets = Counter()
        let done = Atomic<Int>(0)
        onThreads(8) { thread in
            if thread == 0 {
                while done.load(ordering: .acquiring) < 7 {
                    session.reset()
                    resets.increment()
                }
                return
            }
            defer { done.add(1, ordering: .releasing) }
            for step in 0..<(Self.lookupsPerThread / 2) {
                do {
                    let leaf = try registry.makeDestination(to: sessionLeaf)
                    if leaf.serial < 1 { failures.record("bad serial") }
                    _ = try Self.round(registry, step)
                } catch {
                    failures.record("\(error)")
                    return
                }
            }
        }
        #expect(failures.events.isEmpty)
        // Each generation of the scope builds its instance at most once.
        #expect(calls.session.value >= 1)
        #expect(calls.session.value <= resets.value + 1)
        #expect(!session.isClosed)
    }

    @Test func aThousandConcurrentTasksLookUp() async throws {
        let calls = RelStressCalls()
        let registry = try Self.mixedRegistry(calls: calls, session: CustomScope("rel-tasks"))
        let engines = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
            for index in 0..<1_000 {
                group.addTask {
                    if let problem = try Self.round(registry, index) {
                        throw RouteError(.factoryFailed, key: "", reason: problem)
                    }
                    return ObjectIdentifier(try registry.makeDestination(to: .engine))
                }
            }
            var seen = Set<ObjectIdentifier>()
            for try await engine in group { seen.insert(engine) }
            return seen
        }
        #expect(engines.count == 1)
        #expect(calls.engine.value == 1)
        #expect(calls.reentrant.value == 1)
    }

    @MainActor @Test func lookupsFromTheMainActorWhileTasksLookUpElsewhere() async throws {
        let calls = RelStressCalls()
        let registry = try Self.mixedRegistry(calls: calls, session: CustomScope("rel-main"))
        let background = Task.detached {
            for step in 0..<500 { _ = try Self.round(registry, step) }
        }
        for step in 0..<500 {
            #expect(try Self.round(registry, step) == nil)
            if step % 50 == 0 { await Task.yield() }
        }
        try await background.value
        #expect(calls.engine.value == 1)
    }

    @Test func racingAsyncSingletonFactoriesRunExactlyOnce() async throws {
        let calls = RelStressCalls()
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in
                calls.engine.increment()
                return V8()
            }.scope(.singleton)
            try registry.registerAsync(.relStore) { r in
                let serial = calls.store.increment()
                _ = try r.resolve(.engine)
                try await Task.sleep(for: .milliseconds(20))
                return RelStoreImpl(serial: serial)
            }.scope(.singleton)
        }
        let stores = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<200 {
                group.addTask { ObjectIdentifier(try await registry.makeDestinationAsync(to: .relStore)) }
            }
            var seen = Set<ObjectIdentifier>()
            for try await store in group { seen.insert(store) }
            return seen
        }
        #expect(stores.count == 1)
        #expect(calls.store.value == 1)
        #expect(calls.engine.value == 1)
    }

    @Test func anAsyncSingletonWhoseFirstFactoryFailsIsBuiltOnceByTheNextCaller() async throws {
        let calls = RelStressCalls()
        let registry = try sealedRegistry { registry in
            try registry.registerAsync(.relStore) { _ in
                let serial = calls.store.increment()
                try await Task.sleep(for: .milliseconds(10))
                if serial == 1 { throw Boom() }
                return RelStoreImpl(serial: serial)
            }.scope(.singleton)
        }
        let outcomes = await withTaskGroup(of: Int?.self) { group in
            for _ in 0..<50 {
                group.addTask { try? await registry.makeDestinationAsync(to: .relStore).serial }
            }
            var serials: [Int?] = []
            for await serial in group { serials.append(serial) }
            return serials
        }
        // Exactly one caller sees the failure; every other one gets the single instance built afterwards.
        #expect(outcomes.filter { $0 == nil }.count == 1)
        #expect(Set(outcomes.compactMap { $0 }) == [2])
        #expect(calls.store.value == 2)
    }
}
