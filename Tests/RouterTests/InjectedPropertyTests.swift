import Dispatch
import Router
import Synchronization
import Testing

// `@Injected` properties (issue 27, part 3): resolved while the enclosing object's factory runs, joining its
// lookup; a failure fails that lookup with its typed error instead of trapping; an object made outside any
// lookup says which key and what to do.

protocol Workshop: AnyObject {
    var engine: any Engine { get }
    var radio: (any Radio)? { get }
}
extension RoutableService where Destination == any Workshop {
    static var workshop: Self { Self(declaring: (any Workshop).self) }
}

final class InjectedGarage: Workshop {
    @Injected(.engine) var engine: any Engine
    @Injected(.radio) var radio: (any Radio)?
    /// What the initializer saw of the optional property, to pin that it is resolved before the body runs.
    private(set) var radioSeenInInit = false

    /// An engine the factory resolved itself, beside the injected one.
    var engineResolvedByTheFactory: (any Engine)?

    init() {
        radioSeenInInit = (try? $radio.get()) != nil
    }
}

final class GarageWithAnUnregisteredPart {
    @Injected(.unregistered) var part: any Unregistered
    @Injected(.engine) var engine: any Engine
}

/// Half of a cycle made only of `@Injected` properties.
final class InjectedCarHalf: Car {
    @Injected(.engine) var engine: any Engine
    var radio: (any Radio)?
}
final class InjectedEngineHalf: Engine {
    @Injected(.car) var car: any Car
    let horsepower = 1
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

struct InjectedPropertyTests {
    @Test func aPropertyIsResolvedWhileItsObjectsFactoryRuns() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8(horsepower: 300) }
            try registry.register(.radio) { _ in RadioImpl() }
            try registry.register(.workshop) { _ in InjectedGarage() }
        }
        let garage = try #require(try registry.makeDestination(to: .workshop) as? InjectedGarage)
        #expect(garage.engine.horsepower == 300)
        #expect(garage.radio != nil)
        #expect(garage.radioSeenInInit)
    }

    @Test func itJoinsTheRunningLookupSoGraphScopedObjectsAreShared() throws {
        let made = Counter()
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in
                made.increment()
                return V8()
            }.scope(.graph)
            try registry.register(.workshop) { r in
                let garage = InjectedGarage()
                garage.engineResolvedByTheFactory = try r.resolve(.engine)
                return garage
            }
        }
        let garage = try #require(try registry.makeDestination(to: .workshop) as? InjectedGarage)
        #expect(garage.engine === garage.engineResolvedByTheFactory)
        #expect(made.value == 1)
    }

    @Test func anUnresolvablePropertyFailsTheEnclosingLookupWithTheDependencysError() throws {
        let reported = TestLocked<[RouteError]>([])
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8() }
            try registry.register(.car) { _ in
                _ = GarageWithAnUnregisteredPart()
                return CarImpl(engine: V8())
            }
        }
        registry.errorHandler = { error in reported.withLock { $0.append(error) } }
        let error = try #require(throws: RouteError.self) { try registry.makeDestination(to: .car) }
        #expect(error.code == .unregisteredKey)
        #expect(error.key == RoutableService.unregistered.description)
        #expect(error.path == ["Car", "Unregistered"])
        #expect(reported.withLock { $0.map(\.code) } == [.unregisteredKey])
    }

    @Test func aFailedSingletonIsNotKeptAndTheNextLookupBuildsItAgain() throws {
        let engineFails = Atomic<Bool>(true)
        let cars = Counter()
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in
                if engineFails.load(ordering: .relaxed) { throw Flat() }
                return V8()
            }
            try registry.register(.car) { _ in
                cars.increment()
                return InjectedCarHalf()
            }.scope(.singleton)
        }
        let error = try #require(throws: RouteError.self) { try registry.makeDestination(to: .car) }
        #expect(error.code == .factoryFailed)
        #expect(error.path == ["Car", "Engine"])
        engineFails.store(false, ordering: .relaxed)
        let car = try registry.makeDestination(to: .car)
        #expect(car.engine is V8)
        #expect(try registry.makeDestination(to: .car) === car)
        #expect(cars.value == 2)
    }

    @Test func aFailureBelongsToItsOwnFactoryNotToOnesThatRunAfterIt() throws {
        // The unregistered part fails first; the engine (a singleton) is built afterwards, inside the same
        // initializer, and must not fail with the part's error nor be thrown away.
        let engines = Counter()
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in
                engines.increment()
                return V8()
            }.scope(.singleton)
            try registry.register(.car) { _ in
                _ = GarageWithAnUnregisteredPart()
                return CarImpl(engine: V8())
            }
        }
        #expect(throws: RouteError.self) { try registry.makeDestination(to: .car) }
        _ = try registry.makeDestination(to: .engine)
        #expect(engines.value == 1)
    }

    @Test func aCallerThatTriesALookupIsNotFailedLaterByTheFailureItCaught() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8() }
            try registry.register(.radio) { _ in
                _ = GarageWithAnUnregisteredPart()
                return RadioImpl()
            }
            try registry.register(.car) { r in
                let car = CarImpl(engine: try r.resolve(.engine))
                car.radio = try? r.resolve(.radio)
                return car
            }
        }
        let car = try registry.makeDestination(to: .car)
        #expect(car.radio == nil)
    }

    @Test func theOptionalFormIsNilOnlyWhenNothingIsRegistered() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8() }
            try registry.register(.workshop) { _ in InjectedGarage() }
        }
        #expect(try registry.makeDestination(to: .workshop).radio == nil)

        let failing = try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8() }
            try registry.register(.radio) { _ in throw Flat() }
            try registry.register(.workshop) { _ in InjectedGarage() }
        }
        let error = try #require(throws: RouteError.self) { try failing.makeDestination(to: .workshop) }
        #expect(error.code == .factoryFailed)
        #expect(error.path == ["Workshop", "Radio"])
    }

    @Test func aCycleOfInjectedPropertiesIsACircularDependencyError() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.car) { _ in InjectedCarHalf() }
            try registry.register(.engine) { _ in InjectedEngineHalf() }
        }
        let outcome = TestLocked<RouteError?>(nil)
        finishesOnItsOwnThread {
            do {
                _ = try registry.makeDestination(to: .car)
            } catch {
                outcome.withLock { $0 = error as? RouteError }
            }
        }
        let error = try #require(outcome.withLock { $0 })
        #expect(error.code == .circularDependency)
        #expect(error.description.contains("Car → Engine → Car"))
    }

    @Test func anObjectMadeOutsideAnyLookupSaysWhichKeyAndWhatToDo() throws {
        // No binding, whatever a test running in parallel binds for the process (see InjectedBindingTests).
        let garage = RouteRegistry.withoutInjectionBinding { InjectedGarage() }
        let error = try #require(garage.$engine.failure)
        #expect(error.code == .injectedOutsideLookup)
        #expect(error.description.contains("@Injected(\(RoutableService.engine))"))
        #expect(error.description.contains("initializer parameter"))
        #expect(garage.$radio.failure?.code == .injectedOutsideLookup)
    }

    @Test func anObjectAFactoryMakesOnAnotherThreadIsOutsideTheLookupAndSaysSo() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8() }
            try registry.register(.workshop) { _ in
                // Made on another thread while the factory waits: that thread runs no lookup (and states no
                // binding, so that a process binding set by a test running in parallel cannot resolve it).
                let made = TestLocked<InjectedGarage?>(nil)
                finishesOnItsOwnThread {
                    made.withLock { $0 = RouteRegistry.withoutInjectionBinding { InjectedGarage() } }
                }
                return made.withLock { $0 } ?? InjectedGarage()
            }
        }
        let garage = try #require(try registry.makeDestination(to: .workshop) as? InjectedGarage)
        #expect(garage.$engine.failure?.code == .injectedOutsideLookup)
    }

    @Test func overridesAreSeenByInjectedProperties() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8(horsepower: 100) }
            try registry.register(.workshop) { _ in InjectedGarage() }
        }
        let overridden = try registry.withOverrides {
            try $0.register(.engine) { _ in V8(horsepower: 7) }
        } operation: {
            try registry.makeDestination(to: .workshop)
        }
        #expect(overridden.engine.horsepower == 7)
        #expect(try registry.makeDestination(to: .workshop).engine.horsepower == 100)
    }

    @Test func anAsyncFactoryJoinsItsLookupForInjectedProperties() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8(horsepower: 250) }.scope(.graph)
            try registry.registerAsync(.workshop) { r in
                await Task.yield()
                let garage = InjectedGarage()
                garage.engineResolvedByTheFactory = try r.resolve(.engine)
                return garage
            }
            try registry.registerAsync(.wheel) { _ in
                await Task.yield()
                _ = GarageWithAnUnregisteredPart()
                return WheelImpl(position: 1)
            }
        }
        let results = TestLocked<(shared: Bool, failure: RouteError.Code?)>((false, nil))
        asyncScenarioFinishes {
            let garage = try? await registry.makeDestinationAsync(to: .workshop) as? InjectedGarage
            var failure: RouteError.Code?
            do {
                _ = try await registry.makeDestinationAsync(to: .wheel)
            } catch {
                failure = (error as? RouteError)?.code
            }
            let shared = garage.map { $0.engine === $0.engineResolvedByTheFactory } ?? false
            results.withLock { $0 = (shared, failure) }
        }
        #expect(results.withLock { $0.shared })
        #expect(results.withLock { $0.failure } == .unregisteredKey)
    }

    @Test func concurrentFirstLookupsOfASingletonWithInjectedPropertiesMakeOneInstance() throws {
        let cars = Counter()
        let engines = Counter()
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in
                engines.increment()
                return V8()
            }.scope(.singleton)
            try registry.register(.car) { _ in
                cars.increment()
                return InjectedCarHalf()
            }.scope(.singleton)
        }
        let seen = TestLocked<Set<ObjectIdentifier>>([])
        finishesOnItsOwnThread(bound: 60) {
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                guard let car = try? registry.makeDestination(to: .car) else { return }
                seen.withLock { _ = $0.insert(ObjectIdentifier(car.engine)) }
            }
        }
        #expect(cars.value == 1)
        #expect(engines.value == 1)
        #expect(seen.withLock { $0.count } == 1)
    }
}

/// An error a factory throws.
private struct Flat: Error {}
