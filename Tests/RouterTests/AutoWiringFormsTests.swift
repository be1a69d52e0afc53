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
