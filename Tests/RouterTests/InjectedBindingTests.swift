import Router
import Testing

// `@Injected` outside a lookup (issue 34): an object made by hand resolves its properties as a top-level lookup
// of the registry bound for injection, the task's (`withInjectionBinding`) over the process's
// (`bindForInjection`); with none, the typed `injectedOutsideLookup` error stays.
//
// Only `InjectedProcessBindingTests` binds for the process, serialized and unbinding in `defer`; every test
// that needs the absence of a binding states it with `withoutInjectionBinding`, so none depends on what a
// test running in parallel binds.

/// A hand-made object whose dependency is main-actor-only.
final class HandMadeScreenHost {
    @Injected(.profileView) var view: any ProfileView
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

/// A registry with an engine of `horsepower` (a singleton when `shared`) and a radio.
private func engineRegistry(horsepower: Int, shared: Bool = false) throws -> RouteRegistry {
    try sealedRegistry { registry in
        let engine = try registry.register(.engine) { _ in V8(horsepower: horsepower) }
        if shared { try engine.scope(.singleton) }
        try registry.register(.radio) { _ in RadioImpl() }
    }
}

struct InjectedBindingTests {
    @Test func anObjectMadeByHandResolvesInTheRegistryTheTaskBinds() throws {
        let registry = try engineRegistry(horsepower: 300)
        let garage = registry.withInjectionBinding { InjectedGarage() }
        #expect(garage.engine.horsepower == 300)
        #expect(garage.radio != nil)
        #expect(garage.radioSeenInInit)
    }

    @Test func theAsyncBindingReachesChildTasks() async throws {
        let registry = try engineRegistry(horsepower: 120)
        let horsepower = await registry.withInjectionBinding {
            await Task.yield()
            async let child = Task { InjectedGarage().engine.horsepower }.value
            return await child
        }
        #expect(horsepower == 120)
        // The binding ended with the call (a process binding of another test may be in force: never this one).
        #expect(RouteRegistry.boundForInjection !== registry)
    }

    @Test func theInnermostTaskBindingWins() throws {
        let outer = try engineRegistry(horsepower: 1)
        let inner = try engineRegistry(horsepower: 2)
        let (inside, after) = outer.withInjectionBinding {
            (inner.withInjectionBinding { InjectedGarage() }, InjectedGarage())
        }
        #expect(inside.engine.horsepower == 2)
        #expect(after.engine.horsepower == 1)
    }

    @Test func parallelBindingsOfDifferentRegistriesNeverSeeEachOther() async throws {
        let first = try engineRegistry(horsepower: 1, shared: true)
        let second = try engineRegistry(horsepower: 2, shared: true)
        let firstEngine = ObjectIdentifier(try first.makeDestination(to: .engine))
        let secondEngine = ObjectIdentifier(try second.makeDestination(to: .engine))
        let mismatches = Counter()
        await withTaskGroup(of: Void.self) { group in
            for (registry, engine) in [(first, firstEngine), (second, secondEngine)] {
                for _ in 0..<4 {
                    group.addTask {
                        for _ in 0..<250 {
                            await registry.withInjectionBinding {
                                await Task.yield()
                                let garage = InjectedGarage()
                                if ObjectIdentifier(garage.engine) != engine { mismatches.increment() }
                            }
                        }
                    }
                }
            }
        }
        #expect(mismatches.value == 0)
    }

    @Test func aSingletonResolvedByHandIsTheRegistrysSingleton() throws {
        let made = Counter()
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in
                made.increment()
                return V8()
            }.scope(.singleton)
        }
        let garages = registry.withInjectionBinding { [InjectedGarage(), InjectedGarage()] }
        #expect(garages[0].engine === garages[1].engine)
        #expect(try registry.makeDestination(to: .engine) === garages[0].engine)
        #expect(made.value == 1)
    }

    @Test func anUnregisteredKeyIsTheTypedErrorInTheProjectionAndReachesTheErrorHandler() throws {
        let reported = TestLocked<[RouteError]>([])
        let registry = try engineRegistry(horsepower: 5)
        registry.errorHandler = { error in reported.withLock { $0.append(error) } }
        let garage = registry.withInjectionBinding { GarageWithAnUnregisteredPart() }
        let error = try #require(garage.$part.failure)
        #expect(error.code == .unregisteredKey)
        #expect(error.key == RoutableService.unregistered.description)
        // The object's other properties resolved regardless: each is a lookup of its own.
        #expect(garage.engine.horsepower == 5)
        #expect(reported.withLock { $0.map(\.code) } == [.unregisteredKey])
    }

    @Test func theOptionalFormIsNilOnlyWhenNothingIsRegistered() throws {
        let bare = try sealedRegistry { registry in try registry.register(.engine) { _ in V8() } }
        let garage = bare.withInjectionBinding { InjectedGarage() }
        #expect(try garage.$radio.get() == nil)

        let failing = try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8() }
            try registry.register(.radio) { _ in throw Boom() }
        }
        let failed = failing.withInjectionBinding { InjectedGarage() }
        #expect(failed.$radio.failure?.code == .factoryFailed)
        #expect(failed.engine is V8)
    }

    @Test func overridesApplyToAnObjectMadeByHand() throws {
        let registry = try engineRegistry(horsepower: 100)
        let garage = try registry.withOverrides {
            try $0.register(.engine) { _ in V8(horsepower: 7) }
        } operation: {
            registry.withInjectionBinding { InjectedGarage() }
        }
        #expect(garage.engine.horsepower == 7)
    }

    @Test func anObjectMadeInsideALookupJoinsItWhateverIsBound() throws {
        let bound = try engineRegistry(horsepower: 1)
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8(horsepower: 2) }
            try registry.register(.workshop) { _ in InjectedGarage() }
        }
        let garage = try bound.withInjectionBinding { try registry.makeDestination(to: .workshop) }
        #expect(garage.engine.horsepower == 2)
    }

    @Test func aMainActorDependencyMadeByHandOffTheMainActorSaysSo() async throws {
        let registry = try sealedRegistry { registry in
            try registry.registerOnMainActor(.profileView) { _ in ProfileViewImpl(title: "Profile") }
        }
        let host = registry.withInjectionBinding { HandMadeScreenHost() }
        #expect(host.$view.failure?.code == .mainActorRequired)
    }

    @Test func withoutABindingTheErrorIsAsBeforeAndNamesTheBindingAPI() throws {
        let registry = try engineRegistry(horsepower: 1)
        let garage = registry.withInjectionBinding {
            RouteRegistry.withoutInjectionBinding { InjectedGarage() }
        }
        let error = try #require(garage.$engine.failure)
        #expect(error.code == .injectedOutsideLookup)
        #expect(error.description.contains("withInjectionBinding"))
        #expect(error.description.contains("bindForInjection"))
        #expect(garage.$radio.failure?.code == .injectedOutsideLookup)
    }
}

/// The process binding: one test at a time, each unbinding in `defer`. Tests elsewhere that make objects by
/// hand bind for their task (or state no binding), which wins, so they run in parallel with these.
@Suite(.serialized) struct InjectedProcessBindingTests {
    @Test func anObjectMadeByHandResolvesUnderTheProcessBinding() throws {
        let registry = try engineRegistry(horsepower: 42)
        registry.bindForInjection()
        defer { registry.unbindForInjection() }
        #expect(InjectedGarage().engine.horsepower == 42)
        // A thread no task runs sees it too: the binding is the process's.
        let seen = TestLocked<Int?>(nil)
        finishesOnItsOwnThread { seen.withLock { $0 = try? InjectedGarage().$engine.get().horsepower } }
        #expect(seen.withLock { $0 } == 42)
    }

    @Test func theTaskBindingWinsOverTheProcessBinding() throws {
        let process = try engineRegistry(horsepower: 1)
        let task = try engineRegistry(horsepower: 2)
        process.bindForInjection()
        defer { process.unbindForInjection() }
        #expect(task.withInjectionBinding { InjectedGarage() }.engine.horsepower == 2)
        let unbound = RouteRegistry.withoutInjectionBinding { InjectedGarage() }
        #expect(unbound.$engine.failure?.code == .injectedOutsideLookup)
        #expect(InjectedGarage().engine.horsepower == 1)
    }

    @Test func bindingAgainReplacesAndUnbindingRemovesOnlyItsOwnRegistry() throws {
        let first = try engineRegistry(horsepower: 1)
        let second = try engineRegistry(horsepower: 2)
        first.bindForInjection()
        defer { first.unbindForInjection() }
        second.bindForInjection()
        defer { second.unbindForInjection() }
        #expect(RouteRegistry.boundForInjection === second)
        #expect(!first.unbindForInjection())
        #expect(InjectedGarage().engine.horsepower == 2)
        #expect(second.unbindForInjection())
        #expect(RouteRegistry.boundForInjection == nil)
    }
}
