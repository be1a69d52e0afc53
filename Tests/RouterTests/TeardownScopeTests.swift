import Router
import Testing

// Issue 36: a teardown on a registration that is not a singleton never ran, silently (shutdown() tears down
// only the instances singleton cells hold); sealing now reports it.

struct TeardownScopeTests {
    @Test func aTeardownOnATransientIsASealingErrorNamingTheKey() throws {
        let registry = RouteRegistry()
        try registry.register(.engine) { _ in V8() }.teardown { _ in }
        let report = try registry.validate()
        #expect(report.problems.map(\.code) == [.teardownWithoutSingleton])
        let problem = try #require(report.problems.first)
        #expect(problem.key == "RoutableService<Engine>")
        #expect(problem.reason.hasPrefix("RoutableService<Engine> from "))
        #expect(
            problem.reason.hasSuffix(
                " declares a teardown but is transient: shutdown() tears down only singletons, so it would never run."))
        #expect(
            problem.hint
                == "Make Engine .scope(.singleton) or .scope(.eagerSingleton), or remove .teardown and release the instance where it is used."
        )
        let error = #expect(throws: RouteError.self) { try registry.seal() }
        #expect(error?.code == .validationFailed)
        #expect(error?.reason.contains("declares a teardown but is transient") == true)
    }

    @Test func aTeardownOnAGraphOrWeakSingletonIsReportedToo() throws {
        let registry = RouteRegistry()
        try registry.register(.engine) { _ in V8() }.scope(.graph).teardown { _ in }
        try registry.registerAsync(.radio) { _ async in RadioImpl() }.teardown { _ async in }
        try registry.register(.car) { _ in CarImpl(engine: V8()) }.scope(.weakSingleton).teardown { _ in }
        let report = try registry.validate()
        #expect(report.problems.map(\.code) == Array(repeating: .teardownWithoutSingleton, count: 3))
        #expect(
            report.problems.map(\.key) == ["RoutableService<Engine>", "RoutableService<Radio>", "RoutableService<Car>"])
        #expect(report.problems[0].reason.contains("is graph-scoped"))
        #expect(report.problems[2].reason.contains("is a weak singleton"))
    }

    /// The scope is checked at sealing, so the modifiers may come in any order.
    @Test func aTeardownDeclaredBeforeTheSingletonScopeIsAccepted() throws {
        let log = TestLocked<[String]>([])
        let registry = RouteRegistry()
        try registry.register(.engine) { _ in V8() }
            .teardown { _ in log.withLock { $0.append("engine") } }
            .scope(.singleton)
        try registry.seal()
        _ = try registry.makeDestination(to: .engine)
        try registry.shutdown()
        #expect(log.withLock { $0 } == ["engine"])
    }
}

// Issue 36: `resetSingletons()` released instances without running their teardown (a session's socket
// stayed open until the instance went away); it now tears each released instance down, once.
struct ResetTeardownTests {
    @Test func resetSingletonsTearsTheReleasedInstancesDownOnceDependentsFirst() throws {
        let log = TestLocked<[String]>([])
        let built = Counter()
        let registry = RouteRegistry()
        try registry.register(.engine) { _ in V8(horsepower: built.increment()) }
            .resettable()
            .teardown { engine in log.withLock { $0.append("engine \(engine.horsepower)") } }
        try registry.register(.car) { r in CarImpl(engine: try r.resolve(.engine)) }
            .resettable().dependencies(.initializer(.engine))
            .teardown { car in log.withLock { $0.append("car with \(car.engine.horsepower)") } }
        try registry.seal()
        _ = try registry.makeDestination(to: .car)
        #expect(try registry.resetSingletons(.engine) == 2)
        #expect(log.withLock { $0 } == ["car with 1", "engine 1"])
        // Nothing was built since: a second reset has nothing to tear down.
        registry.resetSingletons()
        #expect(log.withLock { $0 } == ["car with 1", "engine 1"])
        _ = try registry.makeDestination(to: .car)
        try registry.shutdown()
        #expect(log.withLock { $0 } == ["car with 1", "engine 1", "car with 2", "engine 2"])
    }

    @Test func aResetReportsAFailingOrAsyncTeardownToTheErrorHandler() async throws {
        let reported = TestLocked<[String]>([])
        let registry = RouteRegistry()
        try registry.register(.engine) { _ in V8() }.resettable().teardown { _ in throw Boom() }
        try registry.registerAsync(.radio) { _ async in RadioImpl() }.resettable().teardown { _ async in }
        registry.errorHandler = { error in reported.withLock { $0.append("\(error.code) \(error.key)") } }
        try registry.seal()
        _ = try registry.makeDestination(to: .engine)
        _ = try await registry.makeDestinationAsync(to: .radio)
        #expect(registry.resetSingletons() == 2)
        #expect(
            reported.withLock { $0 }.sorted()
                == ["teardownFailed RoutableService<Engine>", "teardownFailed RoutableService<Radio>"])
    }
}
