import Router
import Synchronization
import Testing

// Issue 35, section 3: resetting singletons (Swinject's `resetObjectScope(.container)`), for the
// registrations made `.resettable()`: all, by key (with the resettable singletons that depend on it) or
// by module; safe against lookups on other threads, once per generation.

/// An engine that knows which build made it.
private final class NumberedEngine: Engine {
    let number: Int
    var horsepower: Int { number }
    init(_ number: Int) { self.number = number }
}

private struct SessionModule: RouteModule {
    let made: Counter
    func register(in registry: RouteRegistry) throws {
        try registry.register(.engine) { [made] _ in NumberedEngine(made.increment()) }.resettable()
    }
}

/// A registry bound after it is made, for factories that reset it.
private final class RegistryBox: Sendable {
    private let stored = TestLocked<RouteRegistry?>(nil)
    var registry: RouteRegistry? {
        get { stored.withLock { $0 } }
        set { stored.withLock { $0 = newValue } }
    }
}

private func resettableEngine(made: Counter) throws -> RouteRegistry {
    try sealedRegistry { registry in
        try registry.register(.engine) { _ in NumberedEngine(made.increment()) }.resettable()
    }
}

private func number(_ engine: any Engine) -> Int { (engine as? NumberedEngine)?.number ?? -1 }

struct SingletonResetTests {
    @Test func resetSingletonsReleasesTheInstanceAndTheNextLookupBuildsOneNewOne() throws {
        let made = Counter()
        let registry = try resettableEngine(made: made)
        weak var old: (any Engine)?
        do {
            let first = try registry.makeDestination(to: .engine)
            #expect(try registry.makeDestination(to: .engine) === first)
            old = first
        }
        #expect(registry.resetSingletons() == 1)
        #expect(old == nil)
        let renewed = try registry.makeDestination(to: .engine)
        #expect(try registry.makeDestination(to: .engine) === renewed)
        #expect(made.value == 2)
    }

    /// Four rounds: a lookup that waited on a generation a reset then released moves to the next one, and
    /// once counted those moves toward the bound on builds; one lookup in about 60 rounds was refused.
    @Test(arguments: 0..<4)
    func resetsRacingLookupsFromManyThreadsRunTheFactoryOncePerGeneration(round: Int) throws {
        let made = Counter()
        let registry = try resettableEngine(made: made)
        let failures = Counter()
        let stale = Counter()
        let resets = 300
        finishesOnItsOwnThread(bound: 120) {
            onThreads(6) { index in
                if index == 0 {
                    for _ in 0..<resets {
                        let before = (try? registry.makeDestination(to: .engine)).map(number) ?? -1
                        registry.resetSingletons()
                        // Every lookup that starts after the reset returned gets the new generation's instance.
                        let after = (try? registry.makeDestination(to: .engine)).map(number) ?? -1
                        if after <= before { stale.increment() }
                    }
                } else {
                    for _ in 0..<4_000 where (try? registry.makeDestination(to: .engine)) == nil {
                        failures.increment()
                    }
                }
            }
        }
        #expect(failures.value == 0)
        #expect(stale.value == 0)
        // One generation before the first reset and one after each: never two builds in one generation.
        #expect(made.value <= resets + 1)
    }

    @Test func aResetFromInsideAFactoryLetsTheRunningLookupFinishWithWhatItBuilt() throws {
        let made = Counter()
        let box = RegistryBox()
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in
                let engine = NumberedEngine(made.increment())
                if engine.number == 1 { box.registry?.resetSingletons() }
                return engine
            }.resettable()
        }
        box.registry = registry
        finishesOnItsOwnThread {
            let first = try? registry.makeDestination(to: .engine)
            #expect(first.map(number) == 1)
            // The reset came after the first generation's build started: the next lookup builds anew, once.
            let second = try? registry.makeDestination(to: .engine)
            #expect(second.map(number) == 2)
            #expect((try? registry.makeDestination(to: .engine)).map(number) == 2)
        }
    }

    @Test func aResetFromInsideAPreparationLetsTheRunningLookupFinish() throws {
        let made = Counter()
        let box = RegistryBox()
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in NumberedEngine(made.increment()) }.resettable()
                .preparing { engine, _ in
                    if number(engine) == 1 { box.registry?.resetSingletons() }
                }
        }
        box.registry = registry
        finishesOnItsOwnThread {
            #expect((try? registry.makeDestination(to: .engine)).map(number) == 1)
            #expect((try? registry.makeDestination(to: .engine)).map(number) == 2)
            #expect((try? registry.makeDestination(to: .engine)).map(number) == 2)
        }
    }

    @Test func aResetDuringAnAsyncLookupLetsItFinishWithTheOldInstanceAndTheNextGetsANewOne() async throws {
        let made = Counter()
        let (started, startedSignal) = AsyncStream<Void>.makeStream()
        let (release, releaseSignal) = AsyncStream<Void>.makeStream()
        let registry = try sealedRegistry { registry in
            try registry.registerAsync(.engine) { _ async throws in
                let engine = NumberedEngine(made.increment())
                if engine.number == 1 {
                    startedSignal.yield()
                    for await _ in release { break }
                }
                return engine
            }.resettable()
        }
        let lookup = Task { number(try await registry.makeDestinationAsync(to: .engine)) }
        for await _ in started { break }
        #expect(registry.resetSingletons() == 1)
        releaseSignal.yield()
        #expect(try await lookup.value == 1)
        let next = try await registry.makeDestinationAsync(to: .engine)
        #expect(number(next) == 2)
        #expect(try await registry.makeDestinationAsync(to: .engine) === next)
    }

    @Test func resettingAKeyAlsoResetsTheResettableSingletonsThatDependOnIt() throws {
        let made = Counter()
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in NumberedEngine(made.increment()) }.resettable()
            try registry.register(.car) { r in CarImpl(engine: try r.resolve(.engine)) }
                .dependencies(.initializer(.engine)).resettable()
            try registry.register(.radio) { _ in RadioImpl() }.scope(.singleton)
        }
        let car = try registry.makeDestination(to: .car)
        let radio = try registry.makeDestination(to: .radio)
        #expect(try registry.resetSingletons(.engine) == 2)
        let renewed = try registry.makeDestination(to: .car)
        #expect(renewed !== car)
        #expect(renewed.engine === (try registry.makeDestination(to: .engine)))
        #expect(number(renewed.engine) == 2)
        #expect(try registry.makeDestination(to: .radio) === radio)
    }

    @Test func aSingletonThatIsNotResettableMayNotDependOnAResettableOne() throws {
        let registry = RouteRegistry()
        try registry.register(.engine) { _ in V8() }.resettable()
        try registry.register(.car) { r in CarImpl(engine: try r.resolve(.engine)) }
            .scope(.singleton).dependencies(.initializer(.engine))
        let problems = try registry.validate().problems
        #expect(problems.map(\.code) == [.captiveDependency])
        #expect(
            problems.first?.description
                == "RoutableService<Car> is a singleton but depends on RoutableService<Engine>, which is a resettable singleton: it would keep the old Engine after resetSingletons() (resolving Car → Engine). Hint: Make Car .resettable() too (a reset of Engine then resets it), or depend on a Provider of Engine."
        )
    }

    @Test func resettingAKeyThatIsNotAResettableSingletonIsATypedError() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.engine, file: "Engines.swift", line: 7) { _ in V8() }.scope(.singleton)
        }
        #expect {
            try registry.resetSingletons(.engine)
        } throws: { error in
            let error = error as? RouteError
            return error?.code == .captiveDependency
                && error?.description
                    == "RoutableService<Engine> is a singleton, not a resettable singleton, so resetSingletons cannot release its instance. Hint: Register it with .resettable() (Engines.swift:7), or use a CustomScope and reset that."
        }
        #expect(throws: RouteError.self) { try registry.resetSingletons(.radio) }
        #expect(throws: RouteError.self) { try RouteRegistry().resetSingletons(.engine) }
    }

    @Test func resetSingletonsRegisteredByAModuleResetsThatModulesOnly() throws {
        let made = Counter()
        let registry = RouteRegistry()
        try registry.load(SessionModule(made: made))
        try registry.register(.radio) { _ in RadioImpl() }.resettable()
        try registry.seal()
        let engine = try registry.makeDestination(to: .engine)
        let radio = try registry.makeDestination(to: .radio)
        #expect(try registry.resetSingletons(registeredBy: SessionModule.self) == 1)
        #expect(try registry.makeDestination(to: .engine) !== engine)
        #expect(try registry.makeDestination(to: .radio) === radio)
        #expect(try registry.resetSingletons(registeredBy: EngineModule.self) == 0)
    }

    @Test func anEagerResettableSingletonIsBuiltAtSealingAndAgainByTheFirstLookupAfterAReset() throws {
        let made = Counter()
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in NumberedEngine(made.increment()) }
                .scope(.eagerSingleton).resettable()
        }
        #expect(made.value == 1)
        registry.resetSingletons()
        #expect(made.value == 1)
        #expect(number(try registry.makeDestination(to: .engine)) == 2)
    }
}
