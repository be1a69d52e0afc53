import Router
import Testing

// The error handler sees every error a top-level lookup throws, exactly once, whichever way the lookup
// started: a `Lazy` read, a `Provider` call, or sealing building an eager singleton.

struct ErrorHandlerCoverageTests {
    private func failingRegistry(_ seen: EventLog, engineScope: Scope = .transient) throws -> RouteRegistry {
        let registry = RouteRegistry()
        registry.errorHandler = { error in seen.record("\(error.code)") }
        try registry.register(.engine) { _ in throw Boom() }.scope(engineScope)
        try registry.register(.car) { r in
            CarImpl(engine: try r.lazy(.engine).value())
        }
        return registry
    }

    @Test func aLazyReadThatFailsIsReportedOnce() throws {
        let seen = EventLog()
        let registry = try failingRegistry(seen)
        try registry.seal()
        let lazy = try registry.lazy(.engine)
        #expect(throws: RouteError.self) { try lazy.value() }
        #expect(seen.events == ["factoryFailed"])
    }

    @Test func aProviderCallThatFailsIsReportedOnce() throws {
        let seen = EventLog()
        let registry = try failingRegistry(seen)
        try registry.seal()
        let provider = try registry.provider(.engine)
        #expect(throws: RouteError.self) { try provider() }
        #expect(seen.events == ["factoryFailed"])
    }

    @Test func aLazyReadInsideALookupIsReportedOnceByThatLookup() throws {
        let seen = EventLog()
        let registry = try failingRegistry(seen)
        try registry.seal()
        #expect(throws: RouteError.self) { try registry.makeDestination(to: .car) }
        #expect(seen.events == ["factoryFailed"])
    }

    @Test func anEagerSingletonThatFailsAtSealingIsReportedOnce() throws {
        let seen = EventLog()
        let registry = try failingRegistry(seen, engineScope: .eagerSingleton)
        #expect(throws: RouteError.self) { try registry.seal() }
        #expect(seen.events == ["factoryFailed"])
    }
}
