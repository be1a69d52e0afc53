import Router
import Testing

// Graph semantics Swinject and DITranquillity users rely on.

protocol Employer: AnyObject {
    var employee: any Employee { get }
    var lazyEmployee: Lazy<any Employee> { get }
}
protocol Employee: AnyObject { var employer: (any Employer)? { get set } }
final class EmployerImpl: Employer {
    let employee: any Employee
    let lazyEmployee: Lazy<any Employee>
    init(employee: any Employee, lazyEmployee: Lazy<any Employee>) {
        self.employee = employee
        self.lazyEmployee = lazyEmployee
    }
}
final class EmployeeImpl: Employee { weak var employer: (any Employer)? }
extension RoutableService where Destination == any Employer {
    static var employer: Self { Self(declaring: (any Employer).self) }
}
extension RoutableService where Destination == any Employee {
    static var employee: Self { Self(declaring: (any Employee).self) }
}

struct PeerSemanticsTests {
    // MARK: Post-init order (DITranquillity)

    @Test func anObjectIsFullyPreparedBeforeADependentsSetterReceivesIt() throws {
        let log = EventLog()
        let registry = try sealedRegistry { registry in
            try registry.register(.nodeA) { r in AImpl(b: try r.resolve(.nodeB)) }.didFinishPrepare { _, _ in
                log.record("A post-init")
            }
            try registry.register(.nodeB) { _ in BImpl() }.preparing(declaring: .property(.nodeA)) { b, r in
                b.a = try r.resolve(.nodeA)
                log.record("B setter")
            }.didFinishPrepare { _, _ in log.record("B post-init") }
        }
        let b = try registry.makeDestination(to: .nodeB)
        #expect(log.events == ["A post-init", "B setter", "B post-init"])
        #expect(b.a?.b === b)
        breakCycles(b.a)
    }

    @Test func aCallersPreparationStillRunsBeforeTheRegistrationsOwnInsideAPreparation() throws {
        let log = EventLog()
        let registry = try sealedRegistry { registry in
            try registry.register(.radio) { _ in RadioImpl() }
            try registry.register(.engine) { _ in V8() }.didFinishPrepare { _, _ in log.record("engine prepared") }
            try registry.register(.car) { _ in CarImpl(engine: V8()) }.preparing { car, r in
                _ = try r.resolve(.engine) { _ in log.record("caller's preparation") }
                log.record("car setter")
            }
        }
        _ = try registry.makeDestination(to: .car)
        #expect(log.events == ["caller's preparation", "engine prepared", "car setter"])
    }

    // MARK: Lazy and Provider belong to the graph they were made in

    @Test func swinjectsEmployerAndLazyEmployeeShareOneGraph() throws {
        let built = Calls()
        let registry = try sealedRegistry { registry in
            try registry.register(.employer) { r in
                built.a.increment()
                return EmployerImpl(employee: try r.resolve(.employee), lazyEmployee: try r.lazy(.employee))
            }.scope(.graph)
            try registry.register(.employee) { _ in
                built.b.increment()
                return EmployeeImpl()
            }.scope(.graph).injecting(\.employer, .employer)
        }
        let employer = try registry.makeDestination(to: .employer)
        #expect(!employer.lazyEmployee.isBuilt)
        let lazy = try employer.lazyEmployee.value
        #expect(lazy === employer.employee)
        #expect(lazy.employer === employer)
        #expect(built.a.value == 1)
        #expect(built.b.value == 1)
    }

    @Test func ditranquillitysLazyBackEdgeStaysUnbuiltAndThenGivesTheSameObject() throws {
        let calls = Calls()
        let registry = try sealedRegistry { registry in
            try registry.register(.nodeA) { r in
                calls.a.increment()
                return AImpl(b: try r.resolve(.nodeB))
            }.scope(.graph)
            try registry.register(.nodeB) { r in LazyB(a: try r.lazy(.nodeA)) }.scope(.graph)
        }
        let a = try registry.makeDestination(to: .nodeA)
        let b = try #require(a.b as? LazyB)
        #expect(!b.lazyA.isBuilt)
        #expect(try b.lazyA.value === a)
        #expect(calls.a.value == 1)
    }

    @Test func aProviderCalledDuringTheLookupReturnsTheGraphsInstance() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8() }.scope(.graph)
            try registry.register(.car) { r in
                let engine = try r.resolve(.engine)
                let more = try r.provider(.engine)
                return CarImpl(engine: try more() === engine ? engine : V8(horsepower: 1))
            }
        }
        #expect(try registry.makeDestination(to: .car).engine.horsepower == 400)
    }

    @Test func afterTheLookupAProviderReusesOnlyGraphInstancesThatAreStillAlive() throws {
        let wheels = Counter()
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8() }.scope(.graph)
            try registry.register(.wheel) { _ in
                WheelImpl(position: wheels.increment())
            }.scope(.graph)
            try registry.register(.garage) { r in
                _ = try r.resolve(.wheel)  // graph-scoped, and nothing keeps it
                return Garage(
                    engine: try r.resolve(.engine), engines: try r.provider(.engine), wheels: try r.provider(.wheel))
            }
        }
        let garage = try registry.makeDestination(to: .garage)
        #expect(try garage.engines() === garage.engine)
        #expect(try garage.wheels().position == 2)
        #expect(wheels.value == 2)
    }
}

final class Garage {
    let engine: any Engine
    let engines: Provider<any Engine>
    let wheels: Provider<any Wheel>
    init(engine: any Engine, engines: Provider<any Engine>, wheels: Provider<any Wheel>) {
        self.engine = engine
        self.engines = engines
        self.wheels = wheels
    }
}
extension RoutableService where Destination == Garage {
    static var garage: Self { Self(declaring: Garage.self) }
}

protocol Hamster: AnyObject {
    var name: String { get }
    var age: Int? { get }
}
final class HamsterImpl: Hamster {
    let name: String
    let age: Int?
    init(name: String) {
        self.name = name
        self.age = nil
    }
    init(name: String, age: Int) {
        self.name = name
        self.age = age
    }
}
extension RoutableService where Destination == any Hamster {
    static var hamster: Self { Self(declaring: (any Hamster).self) }
}
protocol HamsterCageProtocol: AnyObject { var hamster: any Hamster { get } }
final class HamsterCage: HamsterCageProtocol {
    let hamster: any Hamster
    init(hamster: any Hamster) { self.hamster = hamster }
}
extension RoutableService<any HamsterCageProtocol> {
    static var hamsterCage: Self { .init(declaring: Destination.self) }
}

struct ArgumentOverloadTests {
    func registry() throws -> RouteRegistry {
        try sealedRegistry { registry in
            try registry.register(.hamster, arguments: String.self) { _, name in HamsterImpl(name: name) }
            try registry.register(.hamster, arguments: String.self, Int.self) { _, name, age in
                HamsterImpl(name: name, age: age)
            }
        }
    }

    @Test func lookupsPickTheRegistrationByTheArgumentTypesTheyPass() throws {
        let registry = try registry()
        let young = try registry.makeDestination(to: .hamster, arguments: "Pip")
        #expect(young.name == "Pip" && young.age == nil)
        let old = try registry.makeDestination(to: .hamster, arguments: "Rex", 3)
        #expect(old.name == "Rex" && old.age == 3)
        let made = try registry.provider(.hamster, arguments: String.self, Int.self)
        #expect(try made("Tom", 1).age == 1)
    }

    @Test func argumentsNoRegistrationTakesAreATypedErrorListingWhatTheyTake() throws {
        let registry = try registry()
        let error = #expect(throws: RouteError.self) { try registry.makeDestination(to: .hamster, arguments: 3) }
        #expect(error?.code == .argumentMismatch)
        #expect(
            error?.description
                == "No registration of RoutableService<Hamster> takes the arguments (Int); they take (String) or (String, Int). Hint: Pass arguments of exactly one registration's types, in order."
        )
        let bare = #expect(throws: RouteError.self) { try registry.makeDestination(to: .hamster) }
        #expect(bare?.code == .argumentMismatch)
        #expect(bare?.hint?.contains("makeDestination(to:arguments:)") == true)
    }

    @Test func aLookupWithoutArgumentsGetsTheRegistrationThatTakesNone() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.hamster, arguments: String.self) { _, name in HamsterImpl(name: name) }
            try registry.register(.hamster) { _ in HamsterImpl(name: "plain") }
            try registry.register(.hamster, arguments: String.self, Int.self) { _, name, age in
                HamsterImpl(name: name, age: age)
            }
            // A dependency on the key without arguments passes sealing's check for ambiguity.
            try registry.register(.hamsterCage) { r in HamsterCage(hamster: try r.resolve(.hamster)) }
                .dependencies(.initializer(.hamster))
        }
        #expect(try registry.makeDestination(to: .hamster).name == "plain")
        #expect(try registry.makeDestination(to: .hamster, arguments: "Pip").name == "Pip")
        #expect(try registry.makeDestination(to: .hamster, arguments: "Rex", 3).age == 3)
        #expect(try registry.makeDestination(to: .hamsterCage).hamster.name == "plain")
    }

    @Test func twoRegistrationsWithoutArgumentsBesideOneWithArgumentsAreStillAmbiguous() throws {
        let registry = try sealedRegistry { registry in
            // Marked as meant to be many: unmarked, sealing reports them (AccidentalDuplicateTests).
            try registry.register(.hamster) { _ in HamsterImpl(name: "a") }.oneOfMany()
            try registry.register(.hamster) { _ in HamsterImpl(name: "b") }.oneOfMany()
            try registry.register(.hamster, arguments: String.self) { _, name in HamsterImpl(name: name) }.asDefault()
        }
        let error = #expect(throws: RouteError.self) { try registry.makeDestination(to: .hamster) }
        #expect(error?.code == .ambiguousRegistration)
        #expect(try registry.makeDestination(to: .hamster, arguments: "Pip").name == "Pip")
    }

    @Test func onlyRegistrationsWithTheSameArgumentTypesAreAmbiguous() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.hamster, arguments: String.self) { _, name in HamsterImpl(name: name) }.oneOfMany()
            try registry.register(.hamster, arguments: String.self) { _, name in HamsterImpl(name: name + "!") }
                .oneOfMany()
        }
        let error = #expect(throws: RouteError.self) { try registry.makeDestination(to: .hamster, arguments: "Pip") }
        #expect(error?.code == .ambiguousRegistration)
        #expect(
            error?.reason
                == "RoutableService<Hamster> has 2 registrations that take the arguments (String), and none is the default."
        )
    }
}
