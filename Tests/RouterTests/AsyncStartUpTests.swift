import Router
import Testing

// Start-up with async singletons: sealing reports a synchronous edge to a key with only an async factory
// (every lookup through it would fail), and `warmUp()` builds the async eager singletons that make such an
// edge sound, reporting every failure at once.

struct AsyncStartUpTests {
    /// The server issue's reproduction: a synchronous factory with a declared edge to an async-only
    /// singleton validated as "No problems found.", and its first lookup failed with `asyncOnly`.
    @Test func sealingReportsASynchronousFactoryThatNeedsAnAsyncOnlyKey() throws {
        let registry = RouteRegistry()
        try registry.registerAsync(.database) { _ async throws in try await DatabaseImpl.open("db") }
            .scope(.singleton)
        try registry.register(.car) { r in
            let car = CarImpl(engine: V8())
            car.log.append(try r.resolve(.database).name)
            return car
        }.dependencies(.initializer(.database))
        let report = try registry.validate()
        #expect(report.problems.map(\.code) == [.asyncOnly])
        #expect(report.problems.first?.path == ["Car", "Database"])
        #expect(report.problems.first?.hint?.contains("warmUp()") == true)
        #expect(throws: RouteError.self) { try registry.seal() }
    }

    @Test func anAsyncFactoryMayNeedAnAsyncOnlyKey() throws {
        let registry = RouteRegistry()
        try registry.registerAsync(.database) { _ async throws in try await DatabaseImpl.open("db") }
        try registry.registerAsync(.car) { r async throws in
            let car = CarImpl(engine: V8())
            car.log.append(try await r.resolveAsync(.database).name)
            return car
        }.dependencies(.initializer(.database))
        #expect(try registry.validate().isValid)
    }

    @Test func warmUpBuildsAsyncEagerSingletonsSoSynchronousLookupsFindThem() async throws {
        let opened = Counter()
        let registry = RouteRegistry()
        try registry.registerAsync(.database) { _ async throws in
            opened.increment()
            return try await DatabaseImpl.open("db")
        }.scope(.eagerSingleton)
        try registry.register(.car) { r in
            let car = CarImpl(engine: V8())
            car.log.append(try r.resolve(.database).name)
            return car
        }.dependencies(.initializer(.database))
        try registry.seal()
        #expect(opened.value == 0)
        let before = #expect(throws: RouteError.self) { _ = try registry.makeDestination(to: .car) }
        #expect(before?.code == .factoryFailed || before?.code == .asyncOnly)
        #expect(before?.description.contains("warmUp()") == true)
        try await registry.warmUp()
        try await registry.warmUp()
        #expect(opened.value == 1)
        #expect((try registry.makeDestination(to: .car) as? CarImpl)?.log == ["db"])
    }

    @Test func warmUpTriesEveryAsyncEagerSingletonAndReportsEachFailureAtOnce() async throws {
        struct Refused: Error {}
        let attempts = Counter()
        let reported = TestLocked<Int>(0)
        let registry = RouteRegistry()
        try registry.registerAsync(.database) { _ async throws in
            attempts.increment()
            throw Refused()
        }.scope(.eagerSingleton)
        try registry.registerAsync(.engine) { _ async throws in
            attempts.increment()
            throw Refused()
        }.scope(.eagerSingleton)
        try registry.registerAsync(.radio) { _ async throws in RadioImpl() }.scope(.eagerSingleton)
        registry.errorHandler = { _ in reported.withLock { $0 += 1 } }
        try registry.seal()
        let error = await #expect(throws: RouteError.self) { try await registry.warmUp() }
        #expect(error?.code == .validationFailed)
        #expect(error?.reason.contains("could not build 2 eager singletons") == true)
        #expect(error?.reason.contains("RoutableService<Database>") == true)
        #expect(error?.reason.contains("RoutableService<Engine>") == true)
        #expect(attempts.value == 2)
        #expect(reported.withLock { $0 } == 2)
        #expect(try await registry.makeDestinationAsync(to: .radio) is RadioImpl)
    }

    /// `seal()` builds a synchronous eager singleton before `warmUp()` can build the async one it needs, so
    /// sealing reported nothing and then failed building it; the validator now names the chain.
    @Test func sealingReportsASynchronousEagerSingletonThatNeedsAnAsyncEagerOne() throws {
        let registry = RouteRegistry()
        try registry.registerAsync(.database) { _ async throws in try await DatabaseImpl.open("db") }
            .scope(.eagerSingleton)
        try registry.register(.engine) { r in V8(horsepower: try r.resolve(.database).name.count) }
            .dependencies(.initializer(.database))
        try registry.register(.car) { r in CarImpl(engine: try r.resolve(.engine)) }
            .scope(.eagerSingleton).dependencies(.initializer(.engine))
        let report = try registry.validate()
        #expect(report.problems.map(\.code) == [.asyncOnly])
        #expect(report.problems.first?.path == ["Car", "Engine", "Database"])
        let reason = report.problems.first?.reason ?? ""
        #expect(reason.hasPrefix("RoutableService<Car> from "))
        #expect(
            reason.hasSuffix(
                " is a synchronous eager singleton, which seal() builds, but it needs RoutableService<Database>, an async eager singleton, which only warmUp() builds, after seal(): sealing would fail."
            ))
        #expect(
            report.problems.first?.hint
                == "Make Car .scope(.singleton), built by its first lookup after warmUp(); or register it with registerAsync as an eager singleton, which warmUp() builds with Database."
        )
        #expect(throws: RouteError.self) { try registry.seal() }
    }

    /// What the hint says works: the dependent as a plain singleton, built after `warmUp()`.
    @Test func aSynchronousSingletonMayNeedAnAsyncEagerOneBuiltByWarmUp() async throws {
        let registry = RouteRegistry()
        try registry.registerAsync(.database) { _ async throws in try await DatabaseImpl.open("db") }
            .scope(.eagerSingleton)
        try registry.register(.car) { r in
            let car = CarImpl(engine: V8())
            car.log.append(try r.resolve(.database).name)
            return car
        }.scope(.singleton).dependencies(.initializer(.database))
        #expect(try registry.validate().isValid)
        try registry.seal()
        try await registry.warmUp()
        #expect((try registry.makeDestination(to: .car) as? CarImpl)?.log == ["db"])
    }

    @Test func warmUpBeforeSealIsNotSealed() async throws {
        let registry = RouteRegistry()
        try registry.registerAsync(.database) { _ async throws in try await DatabaseImpl.open("db") }
            .scope(.eagerSingleton)
        let error = await #expect(throws: RouteError.self) { try await registry.warmUp() }
        #expect(error?.code == .notSealed)
    }
}
