import Router
import Testing

struct MakeDestinationTests {
    @Test func makesTheDestinationTypedAsTheKeysProtocol() throws {
        let registry = try sealedRegistry { try $0.register(.engine) { _ in V8(horsepower: 300) } }
        let engine: any Engine = try registry.makeDestination(to: .engine)
        #expect(engine.horsepower == 300)
    }

    @Test func factoriesResolveTheirDependenciesThroughTheResolver() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8() }
            try registry.register(.car) { r in CarImpl(engine: try r.resolve(.engine)) }
        }
        let car = try registry.makeDestination(to: .car)
        #expect(car.engine.horsepower == 400)
    }

    @Test func taggedAndNamedKeysReachTheirOwnRegistrations() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8(horsepower: 1) }
            try registry.register(.engine.tagged(Diesel.self)) { _ in V8(horsepower: 2) }
            try registry.register(.engine.named("electric")) { _ in V8(horsepower: 3) }
        }
        #expect(try registry.makeDestination(to: .engine).horsepower == 1)
        #expect(try registry.makeDestination(to: .engine.tagged(Diesel.self)).horsepower == 2)
        #expect(try registry.makeDestination(to: .engine.named("electric")).horsepower == 3)
        #expect(RoutableService.engine.tagged(Diesel.self) != .engine.tagged(Electric.self))
        #expect(RoutableService.engine.tagged(Diesel.self).description == "RoutableService<Engine>[tag: Diesel]")
    }

    @Test func identifierLookupChecksTheRequestedType() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8(horsepower: 9) }.identifier("parts/engine")
        }
        let engine = try registry.makeDestination(identifier: "parts/engine", as: (any Engine).self)
        #expect(engine.horsepower == 9)
        let error = #expect(throws: RouteError.self) {
            try registry.makeDestination(identifier: "parts/engine", as: (any Radio).self)
        }
        #expect(error?.code == .destinationTypeMismatch)
    }

    @Test func optionalLookupIsNilOnlyForAnUnregisteredKey() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.radio) { _ in throw Boom() }
        }
        #expect(try registry.makeDestinationIfRegistered(to: .engine) == nil)
        #expect(throws: RouteError.self) { try registry.makeDestinationIfRegistered(to: .radio) }
    }

    @Test func manyLookupReturnsEveryRegistrationInOrder() throws {
        let registry = try sealedRegistry { registry in
            for position in 1...4 { try registry.register(.wheel) { _ in WheelImpl(position: position) }.oneOfMany() }
        }
        #expect(try registry.makeDestinations(to: .wheel).map(\.position) == [1, 2, 3, 4])
        #expect(try registry.makeDestinations(to: .radio).isEmpty)
    }

    @Test func aDefaultRegistrationResolvesAnAmbiguousKey() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8(horsepower: 1) }
            try registry.register(.engine) { _ in V8(horsepower: 2) }.asDefault()
        }
        #expect(try registry.makeDestination(to: .engine).horsepower == 2)
    }

    @Test func childRegistriesInheritAndOverrideTheirParent() throws {
        let parent = try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8(horsepower: 1) }
            try registry.register(.radio) { _ in RadioImpl() }
        }
        let child = try sealedRegistry(parent: parent) { registry in
            try registry.register(.engine) { _ in V8(horsepower: 2) }
        }
        #expect(try child.makeDestination(to: .engine).horsepower == 2)
        #expect(try parent.makeDestination(to: .engine).horsepower == 1)
        _ = try child.makeDestination(to: .radio)
    }

    @Test func theSealedRegistryServesEightThreadsAtOnce() throws {
        let made = Counter()
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in
                made.increment()
                return V8()
            }
            try registry.register(.car) { r in CarImpl(engine: try r.resolve(.engine)) }
        }
        let failures = Counter()
        onThreads(8) { _ in
            for _ in 0..<2_000 {
                do { _ = try registry.makeDestination(to: .car) } catch { failures.increment() }
            }
        }
        #expect(failures.value == 0)
        #expect(made.value == 16_000)
    }
}
