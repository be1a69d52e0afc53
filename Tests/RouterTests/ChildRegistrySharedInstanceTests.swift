import Router
import Testing

// A parent's shared instance is built from the parent's registrations, whichever registry asks for it
// first: a child's override never reaches the instance the whole app shares.

struct ChildRegistrySharedInstanceTests {
    /// The parent: `.engine`, and a singleton `.car` that declares it needs `.engine`.
    func parentWithSingletonCar(scope: Scope = .singleton) throws -> RouteRegistry {
        try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8(horsepower: 400) }
            try registry.register(.car) { r in CarImpl(engine: try r.resolve(.engine)) }.scope(scope)
                .dependencies(.initializer(.engine))
        }
    }

    /// A child of `parent` that overrides `.engine` with a stub.
    func childWithStubEngine(of parent: RouteRegistry) throws -> RouteRegistry {
        try sealedRegistry(parent: parent) { registry in
            try registry.register(.engine) { _ in V8(horsepower: 1) }
        }
    }

    @Test func aParentsSingletonFirstAskedForThroughAChildIsBuiltWithTheParentsDependency() throws {
        let parent = try parentWithSingletonCar()
        let child = try childWithStubEngine(of: parent)
        let throughChild = try child.makeDestination(to: .car)
        let throughParent = try parent.makeDestination(to: .car)
        #expect(throughChild === throughParent)
        #expect(throughParent.engine.horsepower == 400)
        // The child's own lookups still get its override.
        #expect(try child.makeDestination(to: .engine).horsepower == 1)
    }

    @Test func aParentsSingletonAskedForByTheParentFirstIsTheOneTheChildGets() throws {
        let parent = try parentWithSingletonCar()
        let child = try childWithStubEngine(of: parent)
        let throughParent = try parent.makeDestination(to: .car)
        #expect(try child.makeDestination(to: .car) === throughParent)
        #expect(throughParent.engine.horsepower == 400)
    }

    @Test func aParentsWeakSingletonFirstAskedForThroughAChildIsBuiltWithTheParentsDependency() throws {
        let parent = try parentWithSingletonCar(scope: .weakSingleton)
        let child = try childWithStubEngine(of: parent)
        let throughChild = try child.makeDestination(to: .car)
        #expect(try parent.makeDestination(to: .car) === throughChild)
        #expect(throughChild.engine.horsepower == 400)
    }

    @Test func aParentsCustomScopedInstanceFirstAskedForThroughAChildIsBuiltWithTheParentsDependency() throws {
        let session = CustomScope("session")
        let parent = try parentWithSingletonCar(scope: .custom(session))
        let child = try childWithStubEngine(of: parent)
        let throughChild = try child.makeDestination(to: .car)
        #expect(try parent.makeDestination(to: .car) === throughChild)
        #expect(throughChild.engine.horsepower == 400)
    }

    @Test func aParentsSingletonReachedFromAChildsFactoryIsBuiltWithTheParentsDependency() throws {
        let parent = try parentWithSingletonCar()
        // A child registration whose factory reaches the parent's singleton through the child's resolver.
        let child = try sealedRegistry(parent: parent) { registry in
            try registry.register(.engine) { _ in V8(horsepower: 1) }
            try registry.register(.radio) { r in
                _ = try r.resolve(.car)
                return RadioImpl()
            }
        }
        _ = try child.makeDestination(to: .radio)
        #expect(try parent.makeDestination(to: .car).engine.horsepower == 400)
    }

    @Test func aParentsTransientReachedThroughAChildStillSeesTheChildsOverride() throws {
        let parent = try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8(horsepower: 400) }
            try registry.register(.car) { r in CarImpl(engine: try r.resolve(.engine)) }
        }
        let child = try childWithStubEngine(of: parent)
        #expect(try child.makeDestination(to: .car).engine.horsepower == 1)
        #expect(try parent.makeDestination(to: .car).engine.horsepower == 400)
    }

    @Test func aParentsSingletonNeedingAKeyOnlyTheChildRegistersFailsNamingThePath() throws {
        let parent = try sealedRegistry { registry in
            // Undeclared, so that the parent seals: its factory needs `.engine`, which only the child has.
            try registry.register(.car) { r in CarImpl(engine: try r.resolve(.engine)) }.scope(.singleton)
        }
        let child = try sealedRegistry(parent: parent) { registry in
            try registry.register(.engine) { _ in V8(horsepower: 1) }
            try registry.register(.radio) { r in
                _ = try r.resolve(.car)
                return RadioImpl()
            }
        }
        let error = #expect(throws: RouteError.self) { try child.makeDestination(to: .radio) }
        #expect(error?.code == .unregisteredKey)
        #expect(error?.path == ["Radio", "Car", "Engine"])
        // Nothing was kept: the parent's singleton is still unbuilt, and fails the same way.
        #expect(throws: RouteError.self) { try parent.makeDestination(to: .car) }
    }

    @Test func aParentsAsyncSingletonFirstAskedForThroughAChildIsBuiltWithTheParentsDependency() async throws {
        let parent = try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8(horsepower: 400) }
            try registry.registerAsync(.car) { r in CarImpl(engine: try r.resolve(.engine)) }.scope(.singleton)
                .dependencies(.initializer(.engine))
        }
        let child = try childWithStubEngine(of: parent)
        let throughChild = try await child.makeDestinationAsync(to: .car)
        #expect(try await parent.makeDestinationAsync(to: .car) === throughChild)
        #expect(throughChild.engine.horsepower == 400)
    }

    @Test func underAParentsOverrideAParentSingletonAskedForThroughAChildIsBuiltWithTheParentsOverride() throws {
        let parent = try parentWithSingletonCar()
        let child = try sealedRegistry(parent: parent) { registry in
            try registry.register(.engine) { _ in V8(horsepower: 2) }
        }
        let inside = try parent.withOverrides { overrides in
            try overrides.register(.engine) { _ in V8(horsepower: 1) }
        } operation: { () throws -> Int in
            try child.makeDestination(to: .car).engine.horsepower
        }
        #expect(inside == 1)
        // The instance built under the override was forgotten with it.
        #expect(try parent.makeDestination(to: .car).engine.horsepower == 400)
        #expect(try child.makeDestination(to: .car) === parent.makeDestination(to: .car))
    }

    @Test func sealingAChildThatOverridesAParentSingletonsDependencyReportsIt() throws {
        let parent = try parentWithSingletonCar()
        let child = try childWithStubEngine(of: parent)
        let report = try child.validate()
        #expect(report.isValid)
        #expect(report.warnings.map(\.code) == [.overrideNotSeenByParent])
        #expect(
            report.warnings.first?.description
                == "RoutableService<Engine> is registered in this child registry, but the parent's RoutableService<Car>, which is a singleton, depends on it: its shared instance is built with the parent's RoutableService<Engine>, never this registry's. Hint: Register RoutableService<Car> in this child registry too if the child needs one built with its own RoutableService<Engine>."
        )
    }

    @Test func sealingAChildReportsAParentSingletonsAutoWiredAndInjectedDependencies() throws {
        let parent = try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8(horsepower: 400) }
            try registry.register(.radio) { _ in RadioImpl() }
            try registry.register(.car, initializer: CarImpl.init).scope(.singleton).injecting(\.radio, .radio)
        }
        let child = try sealedRegistry(parent: parent) { registry in
            try registry.register(.engine) { _ in V8(horsepower: 1) }
            try registry.register(.radio) { _ in RadioImpl() }
        }
        let warnings = try child.validate().warnings
        #expect(warnings.map(\.key) == ["RoutableService<Engine>", "RoutableService<Radio>"])
        #expect(warnings.allSatisfy { $0.reason.contains("the parent's RoutableService<Car>, which is a singleton,") })
    }

    @Test func aChildThatOverridesTheParentSingletonItselfIsNotWarned() throws {
        let parent = try parentWithSingletonCar()
        let child = try sealedRegistry(parent: parent) { registry in
            try registry.register(.engine) { _ in V8(horsepower: 1) }
            try registry.register(.car) { r in CarImpl(engine: try r.resolve(.engine)) }.scope(.singleton)
                .dependencies(.initializer(.engine))
        }
        #expect(try child.validate().warnings.isEmpty)
        #expect(try child.makeDestination(to: .car).engine.horsepower == 1)
        #expect(try parent.makeDestination(to: .car).engine.horsepower == 400)
    }

    @Test func sealingAChildReportsTheOverriddenDependencyToItsErrorHandler() throws {
        let parent = try parentWithSingletonCar()
        let reported = EventLog()
        let child = RouteRegistry(parent: parent)
        child.errorHandler = { error in reported.record("\(error.code) \(error.key)") }
        try child.register(.engine) { _ in V8(horsepower: 1) }
        try child.seal()
        #expect(reported.events == ["overrideNotSeenByParent RoutableService<Engine>"])
    }
}
