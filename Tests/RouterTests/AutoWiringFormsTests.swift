import Router
import Testing

// Auto-wiring where apps need it: a parameter from a tagged or named key, and the `as:` form whose
// modifiers reach the implementation's own properties. Each edge is recorded for sealing.

protocol WiredGarage: AnyObject {
    var engine: any Engine { get }
    var spare: any Engine { get }
}
final class WiredGarageImpl: WiredGarage {
    let engine: any Engine
    let spare: any Engine
    var radio: (any Radio)?
    init(engine: any Engine, spare: any Engine) {
        self.engine = engine
        self.spare = spare
    }
}
extension RoutableService where Destination == any WiredGarage {
    static var wiredGarage: Self { Self(declaring: (any WiredGarage).self) }
}

struct AutoWiringFormsTests {
    @Test func aParameterMayComeFromATaggedOrNamedKey() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8(horsepower: 400) }
            try registry.register(.engine.tagged(Diesel.self)) { _ in V8(horsepower: 150) }
            try registry.register(.engine.named("spare")) { _ in V8(horsepower: 90) }
            try registry.register(
                .wiredGarage, initializer: WiredGarageImpl.init,
                wiring: .key(.engine.tagged(Diesel.self)), .key(.engine.named("spare")))
        }
        let garage = try registry.makeDestination(to: .wiredGarage)
        #expect(garage.engine.horsepower == 150)
        #expect(garage.spare.horsepower == 90)
    }

    @Test func aTaggedParameterWithoutARegistrationIsReportedAtSealing() throws {
        let registry = RouteRegistry()
        try registry.register(.engine) { _ in V8() }
        try registry.register(
            .wiredGarage, initializer: WiredGarageImpl.init, wiring: .key(.engine.tagged(Diesel.self)), .type)
        let problems = try registry.validate().problems.map(\.description)
        #expect(problems.count == 1)
        #expect(problems.first?.contains("Diesel") == true, "\(problems)")
        #expect(throws: RouteError.self) { try registry.seal() }
    }

    @Test func theAsFormInjectsThePropertiesOfTheImplementation() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8() }
            try registry.register(.radio) { _ in RadioImpl() }
            try registry.register(.wiredGarage, as: WiredGarageImpl.self, initializer: WiredGarageImpl.init)
                .injecting(\.radio, .radio)
        }
        let garage = try #require(try registry.makeDestination(to: .wiredGarage) as? WiredGarageImpl)
        #expect(garage.radio != nil)
        #expect(garage.engine !== garage.spare, "two parameters of one type, each resolved (transient)")
    }

    @Test func theAsFormRecordsItsParametersForSealing() throws {
        let registry = RouteRegistry()
        try registry.register(.wiredGarage, as: WiredGarageImpl.self, initializer: WiredGarageImpl.init)
        let problems = try registry.validate().problems.map(\.description)
        #expect(problems.count == 2, "\(problems)")
        #expect(problems.allSatisfy { $0.contains("Engine") }, "\(problems)")
    }
}

/// A screen model whose initializer takes a value (its title) besides a service.
protocol TitledCar: AnyObject { var title: String { get } }
final class TitledCarImpl: TitledCar {
    let title: String
    let engine: any Engine
    init(title: String, engine: any Engine) {
        self.title = title
        self.engine = engine
    }
}
extension RoutableService where Destination == any TitledCar {
    static var titledCar: Self { Self(declaring: (any TitledCar).self) }
}
/// A key for a `String` value, so that a `wiring:` can name it.
extension RoutableService where Destination == String {
    static var carTitle: Self { Self(declaring: String.self) }
}

struct AutoWiredValueParameterTests {
    @Test func aValueParameterIsReportedWithRuntimeArgumentsAndWiringAsTheFix() throws {
        let registry = RouteRegistry()
        try registry.register(.engine) { _ in V8() }
        try registry.register(.titledCar, initializer: TitledCarImpl.init)
        let problems = try registry.validate().problems
        #expect(problems.count == 1)
        #expect(problems.first?.code == .unregisteredKey)
        #expect(
            problems.first?.hint
                == "String is a value, not a service: an auto-wired initializer looks each parameter up by its type's key. Pass it at each lookup as a runtime argument (register(_:arguments:) with a closure factory, makeDestination(to:arguments:)), or register the initializer with wiring: and give that parameter a named or tagged key (wiring: .key(.someKey.named(\"…\")), …) registered to make it."
        )
    }

    @Test func aServiceParameterWithoutARouterStillSaysToRegisterIt() throws {
        let registry = RouteRegistry()
        try registry.register(
            .titledCar, initializer: TitledCarImpl.init, wiring: .key(.carTitle.named("title")), .type)
        try registry.register(.carTitle.named("title")) { _ in "Roadster" }
        #expect(
            try registry.validate().problems.map(\.hint)
                == ["Register RoutableService<Engine>, or load the module that does."])
    }

    @Test func bothFixesTheHintGivesWork() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8() }
            // wiring: the title from a named key.
            try registry.register(.carTitle.named("title")) { _ in "Roadster" }
            try registry.register(
                .titledCar, initializer: TitledCarImpl.init, wiring: .key(.carTitle.named("title")), .type)
            // A runtime argument, for a title each lookup gives.
            try registry.register(.titledCar, arguments: String.self) { r, title in
                TitledCarImpl(title: title, engine: try r.resolve(.engine))
            }.dependencies(.initializer(.engine))
        }
        #expect(try registry.makeDestination(to: .titledCar).title == "Roadster")
        #expect(try registry.makeDestination(to: .titledCar, arguments: "Coupé").title == "Coupé")
    }
}
