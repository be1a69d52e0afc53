import Router
import Testing

// Optional dependencies: nil only when nothing is registered for the key, every other failure thrown; an
// optional edge that sealing accepts when missing and checks when present; auto-wiring of an `Optional`
// initializer parameter (issue 27, part 2).

final class CarWithOptionalRadio: Car {
    let engine: any Engine
    var radio: (any Radio)?
    init(engine: any Engine, radio: (any Radio)?) {
        self.engine = engine
        self.radio = radio
    }
}

/// Seven parameters: past the initializer forms with one per arity, so registered with the parameter-pack
/// form, whose optional parameters are found once, at registration, by position.
final class CarOfSevenParts: Car {
    let engine: any Engine
    var radio: (any Radio)?
    let parts: [Any?]
    init(
        engine: any Engine, radio: (any Radio)?, spare: any Engine, second: (any Radio)?, third: any Engine,
        fourth: (any Radio)?, fifth: (any Radio)?
    ) {
        self.engine = engine
        self.radio = radio
        parts = [engine, radio, spare, second, third, fourth, fifth]
    }
}

struct OptionalDependencyTests {
    @Test func anOptionalLookupIsNilOnlyWhenNothingIsRegistered() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.car) { r in
                let car = CarImpl(engine: V8())
                car.radio = try r.resolveIfRegistered(.radio)
                return car
            }
        }
        #expect(try registry.makeDestination(to: .car).radio == nil)
        #expect(try registry.makeDestinationIfRegistered(to: .radio) == nil)
    }

    @Test func anOptionalLookupThrowsWhatAFailingFactoryThrows() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.radio) { _ in throw Boom() }
            try registry.register(.car) { r in
                let car = CarImpl(engine: V8())
                car.radio = try r.resolveIfRegistered(.radio)
                return car
            }
        }
        let error = #expect(throws: RouteError.self) { try registry.makeDestination(to: .car) }
        #expect(error?.code == .factoryFailed)
    }

    @Test func anOptionalLookupThrowsACycle() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { r in
                _ = try r.resolveIfRegistered(.engine)
                return V8()
            }
        }
        let error = #expect(throws: RouteError.self) { try registry.makeDestinationIfRegistered(to: .engine) }
        #expect(error?.code == .circularDependency)
    }

    @Test func anOptionalLookupThrowsWhenTheKeyIsAmbiguous() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.radio) { _ in RadioImpl() }
            try registry.register(.radio) { _ in RadioImpl() }
            try registry.register(.car) { _ in CarImpl(engine: V8()) }.dependencies(.many(.radio))
        }
        let error = #expect(throws: RouteError.self) { try registry.makeDestinationIfRegistered(to: .radio) }
        #expect(error?.code == .ambiguousRegistration)
    }

    @Test func sealingAcceptsAMissingOptionalEdgeAndRejectsAMissingRequiredOne() throws {
        let optional = RouteRegistry()
        try optional.register(.car) { r in
            CarWithOptionalRadio(engine: V8(), radio: try r.resolveIfRegistered(.radio))
        }.dependencies(.initializer(.radio).optional)
        #expect(try optional.validate().isValid)

        let required = RouteRegistry()
        try required.register(.car) { r in CarImpl(engine: V8()) }.dependencies(.initializer(.radio))
        let report = try required.validate()
        #expect(!report.isValid)
        #expect(report.problems.map(\.code) == [.unregisteredKey])
    }

    @Test func anOptionalEdgeThatIsPresentIsCheckedLikeAnyOther() throws {
        let registry = RouteRegistry()
        try registry.register(.car) { r in
            CarWithOptionalRadio(engine: V8(), radio: try r.resolveIfRegistered(.radio))
        }.dependencies(.initializer(.radio).optional)
        // Present, and closing an initializer cycle: reported.
        try registry.register(.radio) { r in
            _ = try r.resolve(.car)
            return RadioImpl()
        }.dependencies(.initializer(.car))
        let report = try registry.validate()
        #expect(report.problems.map(\.code).contains(.circularDependency))
        #expect(
            RouteDependency.initializer(.radio).optional.description == "optional initializer RoutableService<Radio>")
    }

    @Test func anAutoWiredOptionalParameterIsNilWhenUnregisteredAndTheInstanceWhenRegistered() throws {
        let without = try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8() }
            try registry.register(.car, initializer: CarWithOptionalRadio.init)
        }
        #expect(try without.validate().isValid)
        #expect(try without.makeDestination(to: .car).radio == nil)

        let with = try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8() }
            try registry.register(.radio) { _ in RadioImpl() }
            try registry.register(.car, initializer: CarWithOptionalRadio.init)
        }
        #expect(try with.makeDestination(to: .car).radio is RadioImpl)
    }

    @Test func anAutoWiredOptionalParameterThrowsWhatItsFactoryThrows() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8() }
            try registry.register(.radio) { _ in throw Boom() }
            try registry.register(.car, initializer: CarWithOptionalRadio.init)
        }
        let error = #expect(throws: RouteError.self) { try registry.makeDestination(to: .car) }
        #expect(error?.code == .factoryFailed)
    }

    @Test func anInitializerOfSevenParametersWiresEachOptionalOneByItsPosition() throws {
        let without = try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8() }
            try registry.register(.car, initializer: CarOfSevenParts.init)
        }
        let bare = try #require(try without.makeDestination(to: .car) as? CarOfSevenParts)
        #expect(bare.parts.map { $0 is any Engine } == [true, false, true, false, true, false, false])
        #expect(bare.parts.map { $0 == nil } == [false, true, false, true, false, true, true])

        let with = try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8() }
            try registry.register(.radio) { _ in RadioImpl() }
            try registry.register(.car, initializer: CarOfSevenParts.init)
        }
        let full = try #require(try with.makeDestination(to: .car) as? CarOfSevenParts)
        #expect(full.parts.map { $0 is any Engine } == [true, false, true, false, true, false, false])
        #expect(full.parts.map { $0 is any Radio } == [false, true, false, true, false, true, true])
    }
}
