import Router
import Testing

/// Every error code, reached the way a user reaches it, with its exact text.
struct ErrorMessageTests {
    @Test func unregisteredKeyNamesTheKeyThePathAndTheCandidates() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.engine.tagged(Diesel.self)) { _ in V8() }
            try registry.register(.car) { r in CarImpl(engine: try r.resolve(.engine)) }
        }
        let error = #expect(throws: RouteError.self) { try registry.makeDestination(to: .car) }
        #expect(error?.code == .unregisteredKey)
        #expect(error?.key == "RoutableService<Engine>")
        #expect(error?.path == ["Car", "Engine"])
        #expect(
            error?.description
                == "No router is registered for RoutableService<Engine> (resolving Car → Engine). Hint: Registered for the same protocol: RoutableService<Engine>[tag: Diesel]."
        )
    }

    @Test func unregisteredKeyWithoutCandidatesSaysHowToRegister() throws {
        let registry = try sealedRegistry { _ in }
        let error = #expect(throws: RouteError.self) { try registry.makeDestination(to: .unregistered) }
        #expect(
            error?.description
                == "No router is registered for RoutableService<Unregistered>. Hint: Register it in a RouteModule, e.g. registry.register(key) { … }."
        )
    }

    @Test func unknownIdentifierListsTheKnownOnes() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8() }.identifier("settings/profile")
        }
        let error = #expect(throws: RouteError.self) {
            try registry.makeDestination(identifier: "settings/profil", as: (any Engine).self)
        }
        #expect(error?.code == .unknownIdentifier)
        #expect(
            error?.description
                == "No router is registered for the identifier \"settings/profil\". Hint: Known identifiers: \"settings/profile\"."
        )
    }

    @Test func identifierTypeMismatchNamesBothTypes() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8() }.identifier("engine")
        }
        let error = #expect(throws: RouteError.self) {
            try registry.makeDestination(identifier: "engine", as: (any Radio).self)
        }
        #expect(
            error?.description
                == "The destination for \"engine\" is Engine, which is not Radio. Hint: It is registered as RoutableService<Engine>; ask for the type it makes, Engine."
        )
    }

    @Test func ambiguousRegistrationListsTheCandidates() throws {
        let registry = try sealedRegistry { registry in
            // Marked as meant to be many, so that sealing lets them through to the lookup.
            try registry.register(.engine, line: 1) { _ in V8() }.oneOfMany()
            try registry.register(.engine, line: 2) { _ in V8() }.oneOfMany()
        }
        let error = #expect(throws: RouteError.self) { try registry.makeDestination(to: .engine) }
        #expect(error?.code == .ambiguousRegistration)
        #expect(
            error?.description
                == "RoutableService<Engine> has 2 registrations (registration #1 from RouterTests/ErrorMessageTests.swift:1, registration #2 from RouterTests/ErrorMessageTests.swift:2) and none is marked as the default. Hint: "
                + "Mark exactly one with .asDefault(), tag the others, or look them all up with resolveAll. Registering a key again adds a registration, it does not replace one: to replace one for a test or a variant of the app, use withOverrides or a child registry (RouteRegistry(parent:))."
        )
    }

    @Test func factoryFailureWrapsTheErrorWithThePath() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in throw Boom() }
            try registry.register(.car) { r in CarImpl(engine: try r.resolve(.engine)) }
        }
        let error = #expect(throws: RouteError.self) { try registry.makeDestination(to: .car) }
        #expect(error?.code == .factoryFailed)
        #expect(error?.underlyingError is Boom)
        #expect(error?.description == "The factory of RoutableService<Engine> threw: boom (resolving Car → Engine).")
    }

    @Test func registrationAfterSealIsRejectedAndTheRegistryKeepsWorking() throws {
        let registry = try sealedRegistry { try $0.register(.engine) { _ in V8() } }
        let error = #expect(throws: RouteError.self) { try registry.register(.radio) { _ in RadioImpl() } }
        #expect(error?.code == .registrationAfterSeal)
        #expect(
            error?.description
                == "Cannot register RoutableService<Radio>: the registry is already sealed. Hint: Register every router in a RouteModule before seal(), or use a child registry."
        )
        _ = try registry.makeDestination(to: .engine)
    }

    @Test func lookupBeforeSealIsATypedError() throws {
        let registry = RouteRegistry()
        try registry.register(.engine) { _ in V8() }
        let error = #expect(throws: RouteError.self) { try registry.makeDestination(to: .engine) }
        #expect(error?.code == .notSealed)
        #expect(
            error?.description
                == "The registry is not sealed yet, so it cannot make destinations. Hint: Call seal() after loading every module, or make the registry with RouteRegistry(modules:)."
        )
    }

    @Test func duplicateIdentifiersAreReportedTogetherWithOtherProblems() throws {
        let registry = RouteRegistry()
        try registry.register(.engine, line: 1) { _ in V8() }.identifier("parts")
        try registry.register(.radio, line: 2) { _ in RadioImpl() }.identifier("parts")
        try registry.register(.car, line: 3) { _ in CarImpl(engine: V8()) }.dependencies(.initializer(.wheel))
        let report = try registry.validate()
        #expect(report.problems.map(\.code) == [.duplicateIdentifier, .unregisteredKey])
        #expect(
            report.description == """
                2 problems:
                - The identifier "parts" is registered 2 times: RoutableService<Engine> from RouterTests/ErrorMessageTests.swift:1 and RoutableService<Radio> from RouterTests/ErrorMessageTests.swift:2. Hint: Give each router its own identifier.
                - RoutableService<Car> from RouterTests/ErrorMessageTests.swift:3 depends on RoutableService<Wheel>, which has no router (resolving Car → Wheel). Hint: Register RoutableService<Wheel>, or load the module that does.
                """)
    }

    @Test func sealingFromAFactoryThatRunsDuringSealingIsRejected() throws {
        let registry = RouteRegistry()
        let inner = EventLog()
        try registry.register(.engine) { _ in
            do {
                try registry.seal()
            } catch let error as RouteError {
                inner.record(error.description)
            }
            return V8()
        }.scope(.eagerSingleton)
        try registry.seal()
        #expect(
            inner.events == [
                "seal() was called while the registry was already sealing. Hint: Do not seal from an eager singleton's factory; the registry seals once."
            ])
        try registry.seal()  // sealing again is harmless
    }

    @Test func aMissingRequiredModuleIsReported() throws {
        struct Payments: RouteModule {
            func register(in registry: RouteRegistry) throws {}
        }
        struct Checkout: RouteModule {
            var requiredModules: [any RouteModule.Type] { [Payments.self] }
            func register(in registry: RouteRegistry) throws {}
        }
        let error = #expect(throws: RouteError.self) { try RouteRegistry(modules: [Checkout()]) }
        #expect(
            error?.reason
                == "Sealing found 1 problem:\n- Checkout requires the module Payments, which was not loaded. Hint: Load Payments before sealing."
        )
        _ = try RouteRegistry(modules: [Checkout(), Payments()])
    }
}
