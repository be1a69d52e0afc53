import Router
import Testing

// Issue 44, "released by an override block's end": the singletons built in a `withOverrides` layer (an
// overridden registration, and the layer's copy of a registration beneath it that had no instance yet) were
// never torn down: their teardowns were skipped when the block ended, and the copies were filed in the
// registry's shutdown order, where shutdown found the registry's own (empty) cell. The block's end now
// releases the layer's cells, as a reset or a shutdown does, and tears each instance down once, the last
// made first.

private protocol LateCarProbe: AnyObject { var car: any Car { get } }
private final class LateCarProbeImpl: LateCarProbe {
    let car: any Car
    init(car: any Car) { self.car = car }
}
extension RoutableService where Destination == any LateCarProbe {
    fileprivate static var lateCarProbe: Self { Self(declaring: (any LateCarProbe).self) }
}

/// A registry whose car (a singleton made from the engine) and engine and radio singletons log their
/// teardowns.
private func service(log: EventLog, torn: TestLocked<[ObjectIdentifier]>? = nil) throws
    -> RouteRegistry
{
    try sealedRegistry { registry in
        try registry.register(.engine) { _ in V8() }.scope(.singleton)
            .teardown { engine in log.record("engine \(engine.horsepower)") }
        try registry.register(.car) { r in CarImpl(engine: try r.resolve(.engine)) }
            .scope(.singleton).dependencies(.initializer(.engine))
            .teardown { car in
                torn?.withLock { $0.append(ObjectIdentifier(car)) }
                log.record("car \(car.engine.horsepower)")
            }
        try registry.register(.radio) { _ in RadioImpl() }.scope(.singleton)
            .teardown { _ in log.record("radio") }
    }
}

/// Registers a fake engine singleton (1 horsepower) whose teardown logs.
private func fakeEngine(_ overrides: RouteRegistry, log: EventLog) throws {
    try overrides.register(.engine) { _ in V8(horsepower: 1) }.scope(.singleton)
        .teardown { engine in log.record("fake engine \(engine.horsepower)") }
}

/// Waits, suspended, for the first value of `stream`.
private func first(_ stream: AsyncStream<Void>) async {
    var values = stream.makeAsyncIterator()
    _ = await values.next()
}

// Serialized: three scenarios block a thread of the cooperative pool in a factory until the block ended.
@Suite(.serialized)
struct OverrideTeardownTests {
    @Test func theSingletonsBuiltInAnOverrideBlockAreTornDownOnceWhenItEndsTheLastMadeFirst() throws {
        let log = EventLog()
        let registry = try service(log: log)
        _ = try registry.makeDestination(to: .radio)  // built before the block: shared with it
        let horsepower = try registry.withOverrides { overrides in
            try fakeEngine(overrides, log: log)
        } operation: {
            // The car had no instance: the layer builds its own copy, from the fake engine.
            let car = try registry.makeDestination(to: .car)
            _ = try registry.makeDestination(to: .radio)
            #expect(log.events.isEmpty)
            return car.engine.horsepower
        }
        #expect(horsepower == 1)
        #expect(log.events == ["car 1", "fake engine 1"])
    }

    @Test func theRegistrysOwnSingletonsAreUntouchedByTheBlocksEndAndItsShutdownTearsDownOnlyThem() throws {
        let log = EventLog()
        let registry = try service(log: log)
        _ = try registry.makeDestination(to: .radio)
        try registry.withOverrides { overrides in
            try fakeEngine(overrides, log: log)
        } operation: {
            _ = try registry.makeDestination(to: .car)
        }
        #expect(log.events == ["car 1", "fake engine 1"])
        // After the block the registry builds its own car, from its own engine.
        #expect(try registry.makeDestination(to: .car).engine.horsepower == 400)
        try registry.shutdown()
        #expect(log.events == ["car 1", "fake engine 1", "car 400", "engine 400", "radio"])
    }

    @Test func aCopyBuiltInTheBlockIsNotInTheRegistrysShutdownOrder() throws {
        let log = EventLog()
        let registry = try service(log: log)
        try registry.withOverrides { overrides in
            try fakeEngine(overrides, log: log)
        } operation: {
            _ = try registry.makeDestination(to: .car)
        }
        try registry.shutdown()
        // The registry never made a car or an engine of its own: its shutdown tears nothing down.
        #expect(log.events == ["car 1", "fake engine 1"])
    }

    @Test func theAsyncBlockAwaitsTheAsyncTeardownsOfWhatItBuiltBeforeItReturns() async throws {
        let log = EventLog()
        let registry = try sealedRegistry { registry in
            try registry.register(.car) { r in CarImpl(engine: try r.resolve(.engine)) }
                .scope(.singleton).dependencies(.initializer(.engine))
                .teardown { car async in
                    await Task.yield()
                    log.record("car \(car.engine.horsepower)")
                }
            try registry.register(.engine) { _ in V8() }.scope(.singleton)
        }
        let horsepower = try await registry.withOverrides { overrides in
            try overrides.register(.engine) { _ in V8(horsepower: 2) }.scope(.singleton)
                .teardown { engine async in
                    await Task.yield()
                    log.record("fake engine \(engine.horsepower)")
                }
        } operation: {
            await Task.yield()
            return try registry.makeDestination(to: .car).engine.horsepower
        }
        #expect(horsepower == 2)
        #expect(log.events == ["car 2", "fake engine 2"])
        try await registry.shutdownAsync()
        #expect(log.events == ["car 2", "fake engine 2"])
    }

    @Test func aTeardownThatThrowsAtTheBlocksEndReachesTheErrorHandlerAndTheOthersStillRun() throws {
        let log = EventLog()
        let reported = TestLocked<[String]>([])
        let registry = try service(log: log)
        registry.errorHandler = { error in reported.withLock { $0.append("\(error.code) \(error.key)") } }
        try registry.withOverrides { overrides in
            try overrides.register(.engine) { _ in V8(horsepower: 1) }.scope(.singleton)
                .teardown { _ in
                    log.record("fake engine")
                    throw Boom()
                }
            try overrides.register(.radio) { _ in RadioImpl() }.scope(.singleton)
                .teardown { _ in log.record("fake radio") }
        } operation: {
            _ = try registry.makeDestination(to: .radio)
            _ = try registry.makeDestination(to: .car)
        }
        #expect(log.events == ["car 1", "fake engine", "fake radio"])
        #expect(reported.withLock { $0 } == ["teardownFailed RoutableService<Engine>"])
    }

    @Test func anAsyncTeardownMetByTheSynchronousBlocksEndReachesTheErrorHandler() throws {
        let reported = TestLocked<[String]>([])
        let registry = try sealedRegistry { _ in }
        registry.errorHandler = { error in reported.withLock { $0.append("\(error.code) \(error.key)") } }
        try registry.withOverrides { overrides in
            try overrides.register(.engine) { _ in V8(horsepower: 1) }.scope(.singleton).teardown { _ async in }
        } operation: {
            _ = try registry.makeDestination(to: .engine)
        }
        #expect(reported.withLock { $0 } == ["teardownFailed RoutableService<Engine>"])
    }

    @Test func aLookupRacingTheBlocksEndNeverGetsAnInstanceItToreDown() async throws {
        let log = EventLog()
        let torn = TestLocked<[ObjectIdentifier]>([])
        let (started, starting) = AsyncStream<Void>.makeStream()
        let proceed = Signal()
        let registry = try sealedRegistry { registry in
            try registry.register(.car) { r in CarImpl(engine: try r.resolve(.engine)) }
                .scope(.singleton).dependencies(.initializer(.engine))
                .teardown { car in
                    torn.withLock { $0.append(ObjectIdentifier(car)) }
                    log.record("car \(car.engine.horsepower)")
                }
            try registry.register(.engine) { _ in V8() }.scope(.singleton)
            // A lookup that began inside the block, and reaches the car once the block has ended.
            try registry.register(.lateCarProbe) { r in
                starting.yield()
                // Until fired: a bound of 120 s, not the default 10, which a ThreadSanitizer run on a starved pool outlasted
                // (the factory then went on before the block ended, and the test's premise with it).
                _ = proceed.wait(seconds: 120)
                return LateCarProbeImpl(car: try r.resolve(.car))
            }
        }
        let task = try await registry.withOverrides { overrides in
            try overrides.register(.engine) { _ in V8(horsepower: 1) }.scope(.singleton)
        } operation: {
            _ = try registry.makeDestination(to: .car)
            let task = Task { ObjectIdentifier(try registry.makeDestination(to: .lateCarProbe).car) }
            await first(started)
            return task
        }
        #expect(log.events == ["car 1"])
        proceed.fire()
        let result = await task.result
        if case .success(let car) = result {
            #expect(!torn.withLock { $0 }.contains(car))
        }
        if case .failure(let error) = result {
            #expect((error as? RouteError)?.code == .scopeClosed)
        }
        #expect(log.events == ["car 1"])
    }

    @Test func aBuildWhoseFactoryReturnsAfterTheBlockEndedIsTornDownAtOnce() async throws {
        let log = EventLog()
        let (started, starting) = AsyncStream<Void>.makeStream()
        let proceed = Signal()
        let registry = try service(log: log)
        let task = try await registry.withOverrides { overrides in
            try overrides.register(.engine) { _ in
                starting.yield()
                // Until fired: a bound of 120 s, not the default 10, which a ThreadSanitizer run on a starved pool outlasted
                // (the factory then went on before the block ended, and the test's premise with it).
                _ = proceed.wait(seconds: 120)
                return V8(horsepower: 1)
            }
            .scope(.singleton)
            .teardown { engine in log.record("fake engine \(engine.horsepower)") }
        } operation: {
            let task = Task { try registry.makeDestination(to: .engine).horsepower }
            await first(started)
            return task
        }
        #expect(log.events.isEmpty)
        proceed.fire()
        let result = await task.result
        #expect(log.events == ["fake engine 1"])
        #expect(throws: RouteError.self) { try result.get() }
        // The registry's own engine is untouched, and its shutdown tears down only what it made.
        #expect(try registry.makeDestination(to: .engine).horsepower == 400)
        try registry.shutdown()
        #expect(log.events == ["fake engine 1", "engine 400"])
    }

    @Test func aBuildWhosePreparationRunsWhenTheBlockEndsIsTornDownAtOnce() async throws {
        let log = EventLog()
        let (started, starting) = AsyncStream<Void>.makeStream()
        let proceed = Signal()
        let registry = try service(log: log)
        let task = try await registry.withOverrides { overrides in
            try overrides.register(.engine) { _ in V8(horsepower: 1) }
                .scope(.singleton)
                .preparing { _, _ in
                    starting.yield()
                    // Until fired: a bound of 120 s, not the default 10, which a ThreadSanitizer run on a starved pool outlasted
                    // (the factory then went on before the block ended, and the test's premise with it).
                    _ = proceed.wait(seconds: 120)
                }
                .teardown { engine in log.record("fake engine \(engine.horsepower)") }
        } operation: {
            let task = Task { try registry.makeDestination(to: .engine).horsepower }
            await first(started)
            return task
        }
        proceed.fire()
        let result = await task.result
        #expect(log.events == ["fake engine 1"])
        #expect(throws: RouteError.self) { try result.get() }
    }
}
