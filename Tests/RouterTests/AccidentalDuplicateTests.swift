import Router
import Testing

// Issue 26 item 5: a key registered twice by mistake (two modules registering it) is reported by `seal()`
// and `validate()`, naming both registrations, rather than found at the first lookup. A key meant to have
// many registrations says so: `.oneOfMany()` on each, a default among them, or a declared `many`
// dependency on it.

private let hint =
    "Remove the one made by mistake, or mark the one a lookup gets with .asDefault(); a key meant to have many (makeDestinations(to:)) marks each with .oneOfMany(). Registering a key again adds a registration, it does not replace one: to replace one for a test or a variant of the app, use withOverrides or a child registry (RouteRegistry(parent:))."

struct EngineModule: RouteModule {
    func register(in registry: RouteRegistry) throws {
        try registry.register(.engine, line: 10) { _ in V8() }
    }
}
struct BackupEngineModule: RouteModule {
    func register(in registry: RouteRegistry) throws {
        try registry.register(.engine, line: 20) { _ in V8(horsepower: 90) }
    }
}

struct AccidentalDuplicateTests {
    @Test func aKeyTwoModulesRegisterIsReportedBySealAndValidateNamingBoth() throws {
        let registry = RouteRegistry()
        try registry.load(EngineModule())
        try registry.load(BackupEngineModule())
        let problems = try registry.validate().problems
        #expect(
            problems.map(\.description) == [
                "RoutableService<Engine> is registered 2 times, by EngineModule (RouterTests/AccidentalDuplicateTests.swift:10) and BackupEngineModule (RouterTests/AccidentalDuplicateTests.swift:20): a lookup of it is ambiguous. Hint: "
                    + hint
            ])
        #expect(problems.map(\.code) == [.ambiguousRegistration])
        #expect(problems.first?.key == "RoutableService<Engine>")
        let error = #expect(throws: RouteError.self) { try registry.seal() }
        #expect(error?.code == .validationFailed)
        #expect(!registry.isSealed)
    }

    @Test func aKeyMeantToHaveManySaysSoAndSeals() throws {
        let marked = try sealedRegistry { registry in
            try registry.register(.wheel) { _ in WheelImpl(position: 1) }.oneOfMany()
            try registry.register(.wheel) { _ in WheelImpl(position: 2) }.oneOfMany()
        }
        #expect(try marked.makeDestinations(to: .wheel).map(\.position) == [1, 2])
        let withADefault = try sealedRegistry { registry in
            try registry.register(.wheel) { _ in WheelImpl(position: 1) }
            try registry.register(.wheel) { _ in WheelImpl(position: 2) }.asDefault()
        }
        #expect(try withADefault.makeDestination(to: .wheel).position == 2)
        let usedAsMany = try sealedRegistry { registry in
            try registry.register(.wheel) { _ in WheelImpl(position: 1) }
            try registry.register(.wheel) { _ in WheelImpl(position: 2) }
            try registry.register(.car) { r in
                _ = try r.resolveAll(.wheel)
                return CarImpl(engine: V8())
            }.dependencies(.many(.wheel))
        }
        #expect(try usedAsMany.makeDestinations(to: .wheel).count == 2)
    }

    @Test func oneUnmarkedRegistrationAmongMarkedOnesIsReported() throws {
        let registry = RouteRegistry()
        try registry.register(.wheel, line: 1) { _ in WheelImpl(position: 1) }.oneOfMany()
        try registry.register(.wheel, line: 2) { _ in WheelImpl(position: 2) }
        #expect(
            try registry.validate().problems.map(\.reason) == [
                "RoutableService<Wheel> is registered 2 times, by RouterTests/AccidentalDuplicateTests.swift:1 and RouterTests/AccidentalDuplicateTests.swift:2: a lookup of it is ambiguous."
            ])
    }

    @Test func aTagOrANameMakesAnotherKeyButTheSameNameTwiceIsADuplicate() throws {
        let distinct = RouteRegistry()
        try distinct.register(.engine) { _ in V8() }
        try distinct.register(.engine.tagged(Diesel.self)) { _ in V8() }
        try distinct.register(.engine.named("spare")) { _ in V8() }
        #expect(try distinct.validate().isValid)

        let twice = RouteRegistry()
        try twice.register(.engine.named("spare"), line: 1) { _ in V8() }
        try twice.register(.engine.named("spare"), line: 2) { _ in V8() }
        try twice.register(.engine.tagged(Diesel.self), line: 3) { _ in V8() }
        try twice.register(.engine.tagged(Diesel.self), line: 4) { _ in V8() }
        #expect(
            try twice.validate().problems.map(\.reason) == [
                "RoutableService<Engine>[\"spare\"] is registered 2 times, by RouterTests/AccidentalDuplicateTests.swift:1 and RouterTests/AccidentalDuplicateTests.swift:2: a lookup of it is ambiguous.",
                "RoutableService<Engine>[tag: Diesel] is registered 2 times, by RouterTests/AccidentalDuplicateTests.swift:3 and RouterTests/AccidentalDuplicateTests.swift:4: a lookup of it is ambiguous.",
            ])
    }

    @Test func registrationsTakingOtherArgumentsAreNotDuplicatesButTheSameArgumentsAre() throws {
        let registry = RouteRegistry()
        try registry.register(.engine) { _ in V8() }
        try registry.register(.engine, arguments: Int.self, line: 6) { _, horsepower in V8(horsepower: horsepower) }
        try registry.register(.engine, arguments: Int.self, String.self) { _, horsepower, _ in
            V8(horsepower: horsepower)
        }
        #expect(try registry.validate().isValid)
        try registry.register(.engine, arguments: Int.self, line: 7) { _, horsepower in V8(horsepower: horsepower) }
        #expect(
            try registry.validate().problems.map(\.reason) == [
                "RoutableService<Engine> is registered 2 times taking (Int), by RouterTests/AccidentalDuplicateTests.swift:6 and RouterTests/AccidentalDuplicateTests.swift:7: a lookup of it is ambiguous."
            ])
    }

    @Test func aChildRegistryMayRegisterItsParentsKeyAgain() throws {
        let parent = try sealedRegistry { registry in try registry.register(.engine) { _ in V8() } }
        let child = RouteRegistry(parent: parent)
        try child.register(.engine) { _ in V8(horsepower: 1) }
        try child.seal()
        #expect(try child.makeDestination(to: .engine).horsepower == 1)
    }

    @Test func aKeyASingleDependencyNeedsIsReportedOnceAsThatDependencysProblem() throws {
        let registry = RouteRegistry()
        try registry.register(.engine) { _ in V8() }
        try registry.register(.engine) { _ in V8() }
        try registry.register(.car, initializer: CarImpl.init)
        #expect(try registry.validate().problems.map(\.code) == [.ambiguousRegistration])
        #expect(try registry.validate().problems.first?.reason.hasPrefix("RoutableService<Car> depends on") == true)
    }
}

/// A key whose every registration takes runtime arguments, reached by a dependency the library resolves
/// without them: an auto-wired initializer parameter, or a key-path injection. (A dependency declared by
/// hand may be resolved with arguments by its factory; `DiagnosticsTests.argumentsAreNotEdges`.)
struct DependencyOnAnArgumentsKeyTests {
    func registryWithAnEngineTakingArguments() throws -> RouteRegistry {
        let registry = RouteRegistry()
        try registry.register(.engine, arguments: Int.self, line: 5) { _, horsepower in V8(horsepower: horsepower) }
        return registry
    }

    @Test func anAutoWiredParameterWhoseKeyTakesArgumentsIsReported() throws {
        let registry = try registryWithAnEngineTakingArguments()
        try registry.register(.car, initializer: CarImpl.init, line: 9)
        #expect(
            try registry.validate().problems.map(\.description) == [
                "RoutableService<Car> from RouterTests/AccidentalDuplicateTests.swift:9 looks up RoutableService<Engine> without arguments, but it takes the arguments (Int) (registered at RouterTests/AccidentalDuplicateTests.swift:5) (resolving Car → Engine). Hint: Register RoutableService<Engine> without arguments as well, or write the factory as a closure that passes them: r.resolve(.key, arguments: …)."
            ])
        #expect(try registry.validate().problems.map(\.code) == [.argumentMismatch])
        #expect(throws: RouteError.self) { try registry.seal() }
    }

    @Test func anInjectionWhoseKeyTakesArgumentsIsReported() throws {
        let registry = RouteRegistry()
        try registry.register(.radio, arguments: String.self, line: 5) { _, _ in RadioImpl() }
        try registry.register(.engine) { _ in V8() }
        try registry.register(.car, line: 9) { r in CarImpl(engine: try r.resolve(.engine)) }
            .injecting(\.radio, .radio)
        #expect(try registry.validate().problems.map(\.code) == [.argumentMismatch])
        #expect(
            try registry.validate().problems.first?.reason
                == "RoutableService<Car> from RouterTests/AccidentalDuplicateTests.swift:9 looks up RoutableService<Radio> without arguments, but it takes the arguments (String) (registered at RouterTests/AccidentalDuplicateTests.swift:5)."
        )
    }

    @Test func aKeyWithARegistrationWithoutArgumentsBesideIsFine() throws {
        let registry = try registryWithAnEngineTakingArguments()
        try registry.register(.engine) { _ in V8() }
        try registry.register(.car, initializer: CarImpl.init)
        #expect(try registry.validate().isValid)
        try registry.seal()
        #expect(try registry.makeDestination(to: .car).engine.horsepower == 400)
    }
}
