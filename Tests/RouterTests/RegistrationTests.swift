import Foundation
import Router
import Testing

// What the Registration modifiers and the newer kinds of registration promise, tried from outside the
// module: auto-wiring, implementation-typed injections, one registration under several keys, adapters
// whose cast fails, main-actor factories, and modifiers after sealing.

protocol Dashboard: AnyObject {
    var engine: any Engine { get }
    var radio: any Radio { get }
}
extension RoutableService<any Dashboard> {
    nonisolated static var dashboard: Self { .init(declaring: Destination.self) }
}
final class DashboardImpl: Dashboard {
    let engine: any Engine
    let radio: any Radio
    init(engine: any Engine, radio: any Radio) {
        self.engine = engine
        self.radio = radio
    }
}

/// A protocol with no setters: injection points live on the implementation class only.
protocol Convertible: AnyObject { var description: String { get } }
extension RoutableService<any Convertible> {
    nonisolated static var convertible: Self { .init(declaring: Destination.self) }
}
final class ConvertibleImpl: Convertible {
    var engine: (any Engine)?
    var prepared: [String] = []
    var description: String { "roof down, \(engine?.horsepower ?? 0) hp, \(prepared.joined(separator: ", "))" }
}
final class Coupe: Convertible {
    var description: String { "a coupe" }
}

/// A second protocol the same object serves.
protocol Motorised: AnyObject {}
extension RoutableService<any Motorised> {
    nonisolated static var motorised: Self { .init(declaring: Destination.self) }
}
extension CarImpl: Motorised {}

/// A required protocol no provided destination adopts.
protocol Towing: AnyObject {}
extension RoutableService<any Towing> {
    nonisolated static var towing: Self { .init(declaring: Destination.self) }
}

/// A destination made on the main actor.
@MainActor protocol ProfileView: AnyObject {
    var title: String { get }
}
extension RoutableService<any ProfileView> {
    nonisolated static var profileView: Self { .init(declaring: Destination.self) }
}
@MainActor final class ProfileViewImpl: ProfileView {
    let title: String
    init(title: String) { self.title = title }
}

struct RegistrationTests {
    @Test func aDeclaredKeyIsTheSameKeyWhereverItIsDeclared() {
        #expect(RoutableService.dashboard == RoutableService(declaring: (any Dashboard).self))
        #expect(RoutableService.dashboard.description == "RoutableService<Dashboard>")
    }

    @Test func autoWiringResolvesEachInitializerParameterByItsTypesKey() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8() }.scope(.singleton)
            try registry.register(.radio) { _ in RadioImpl() }
            try registry.register(.dashboard, initializer: DashboardImpl.init)
        }
        let dashboard = try registry.makeDestination(to: .dashboard)
        #expect(dashboard.engine === (try registry.makeDestination(to: .engine)))
        #expect(dashboard.radio is RadioImpl)
    }

    @Test func autoWiringRecordsItsEdgesSoTheGraphShowsThemAndSealingChecksThem() throws {
        let registry = RouteRegistry()
        try registry.register(.engine) { _ in V8() }
        try registry.register(.dashboard, initializer: DashboardImpl.init, line: 7)
        let report = try registry.validate()
        #expect(report.problems.map(\.code) == [.unregisteredKey])
        #expect(
            report.problems.first?.description
                == "RoutableService<Dashboard> from RouterTests/RegistrationTests.swift:7 depends on RoutableService<Radio>, which has no router (resolving Dashboard → Radio). Hint: Register RoutableService<Radio>, or load the module that does."
        )
        try registry.register(.radio) { _ in RadioImpl() }
        try registry.seal()
        let tree = try registry.dependencyGraph().textTree
        #expect(
            tree == """
                Dashboard (transient, RouteRegistry)
                ├─ initializer → Engine (transient, RouteRegistry)
                └─ initializer → Radio (transient, RouteRegistry)

                """)
    }

    @Test func injectionsAndPreparationsTypedOnTheImplementationReachItsOwnProperties() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8() }
            try registry.register(.convertible, as: ConvertibleImpl.self) { _ in ConvertibleImpl() }
                .injecting(\.engine, .engine)
                .preparing { convertible, _ in convertible.prepared.append("prepared") }
                .didFinishPrepare { convertible, _ in convertible.prepared.append("finished") }
        }
        let convertible = try registry.makeDestination(to: .convertible)
        #expect(convertible.description == "roof down, 400 hp, prepared, finished")
    }

    @Test func aFactoryThatMakesAnotherClassThanItsInjectionsExpectFailsNamingBoth() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8() }
            try registry.register(.convertible, as: ConvertibleImpl.self, line: 3) { _ in Coupe() }
                .injecting(\.engine, .engine)
        }
        let error = #expect(throws: RouteError.self) { try registry.makeDestination(to: .convertible) }
        #expect(error?.code == .destinationTypeMismatch)
        #expect(
            error?.description
                == "RoutableService<Convertible>: The registration's injections and preparations are typed on ConvertibleImpl, but its factory made a Coupe. Hint: Return a ConvertibleImpl from the factory, or register with as: Coupe.self."
        )
    }

    /// A registry whose car singleton counts its builds in `made` and serves the other keys `serving` adds.
    private func carRegistry(
        counting made: Counter, serving: (Registration<any Car, any Car>) throws -> Void
    ) throws -> RouteRegistry {
        try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8() }
            try serving(
                try registry.register(.car) { r in
                    made.increment()
                    return CarImpl(engine: try r.resolve(.engine))
                }
                .scope(.singleton))
        }
    }

    @Test func oneRegistrationUnderSeveralKeysHasOneFactoryAndOneSharedInstance() throws {
        let made = Counter()
        let registry = try carRegistry(counting: made) { try $0.also(.motorised) }
        let vehicle = try registry.makeDestination(to: .motorised)
        let car = try registry.makeDestination(to: .car)
        #expect(vehicle === car)
        #expect(made.value == 1)
    }

    @Test func aKeyNamedTwiceOrTheRegistrationsOwnKeyIsServedOnce() throws {
        let made = Counter()
        let registry = try carRegistry(counting: made) { try $0.also(.motorised).also(.motorised).also(.car) }
        let vehicle = try registry.makeDestination(to: .motorised)
        #expect(try registry.makeDestination(to: .car) === vehicle)
        #expect(try registry.makeDestinations(to: .motorised).count == 1)
        #expect(try registry.makeDestinations(to: .car).count == 1)
        #expect(made.value == 1)
    }

    @Test func aSecondKeyTheDestinationDoesNotServeIsATypedErrorNamingBoth() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8() }.also(.towing)
        }
        let error = #expect(throws: RouteError.self) { try registry.makeDestination(to: .towing) }
        #expect(error?.code == .destinationTypeMismatch)
        #expect(
            error?.description
                == "RoutableService<Engine> is registered for RoutableService<Towing> as well, but its destination, a V8, is not a Towing. Hint: Make the destination adopt Towing, or register RoutableService<Towing> on its own."
        )
    }

    @Test func anAdapterWhoseCastFailsNamesBothProtocols() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8() }
            try registry.adapt(.towing, to: .engine) { $0 as? any Towing }
        }
        let error = #expect(throws: RouteError.self) { try registry.makeDestination(to: .towing) }
        #expect(error?.code == .destinationTypeMismatch)
        #expect(
            error?.description
                == "The adapter from RoutableService<Towing> to RoutableService<Engine> gave nil: the V8 it was given is not a Towing. Hint: Make the provided destination adopt Towing, or convert it in the adapter instead of casting."
        )
    }

    @Test func aModifierAfterSealingThrowsAndChangesNothing() throws {
        let registry = RouteRegistry()
        let registration = try registry.register(.engine) { _ in V8() }
        try registry.seal()
        let error = #expect(throws: RouteError.self) { try registration.scope(.singleton) }
        #expect(error?.code == .registrationAfterSeal)
        #expect(try registry.makeDestination(to: .engine) !== (try registry.makeDestination(to: .engine)))
    }

    @Test func modifiersKeepTheRegistrationsPlaceAndOrder() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8() }
            try registry.register(.engine) { _ in V8() }.scope(.singleton).asDefault()
            try registry.register(.engine) { _ in V8() }
        }
        let all = try registry.makeDestinations(to: .engine)
        #expect(all.count == 3)
        #expect(try registry.makeDestination(to: .engine) === (try registry.makeDestination(to: .engine)))
        #expect(all[1] === (try registry.makeDestination(to: .engine)))
    }

    @MainActor @Test func aMainActorFactoryRunsSynchronouslyOnTheMainActor() throws {
        let registry = try sealedRegistry { registry in
            try registry.registerOnMainActor(.profileView) { _ in ProfileViewImpl(title: "Profile") }
        }
        #expect(try registry.makeDestination(to: .profileView).title == "Profile")
    }

    @Test func aMainActorKeyLookedUpFromAnotherThreadIsATypedErrorAndNothingIsMade() throws {
        let made = Counter()
        let registry = try sealedRegistry { registry in
            try registry.registerOnMainActor(.profileView) { _ in
                made.increment()
                return ProfileViewImpl(title: "Profile")
            }
        }
        let outcome = TestLocked<String?>(nil)
        let done = Signal()
        startThread {
            do {
                _ = try registry.makeDestination(to: .profileView)
                outcome.withLock { $0 = "made" }
            } catch {
                outcome.withLock { $0 = "\(error)" }
            }
            done.fire()
        }
        #expect(done.wait())
        #expect(
            outcome.withLock { $0 }
                == "RoutableService<ProfileView> is made on the main actor, but was looked up outside it. Hint: Look it up with makeDestination(to:) from main-actor code (from elsewhere: await MainActor.run { … }), or register a nonisolated factory."
        )
        #expect(made.value == 0)
    }

    @Test func aMainActorKeyIsReachableFromAnAsyncTaskThroughTheMainActor() async throws {
        let registry = try sealedRegistry { registry in
            try registry.registerOnMainActor(.profileView) { _ in ProfileViewImpl(title: "Profile") }
        }
        let title = try await MainActor.run { try registry.makeDestination(to: .profileView).title }
        #expect(title == "Profile")
    }
}
