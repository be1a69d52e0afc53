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

/// A lookup started as a task, so that it sees the overrides in force where it starts, that runs on a
/// thread of its own (a ``FixedPool`` of one), not on the cooperative pool: its factory or preparation may
/// block that thread until the test's side fires a ``Signal``, and the test's side, which waits for it
/// blocked too, never needs a free thread of the pool (which the suites running in parallel may hold for
/// minutes) to go on.
private final class LookupOnItsOwnThread<Value: Sendable>: Sendable {
    private let lane = FixedPool(width: 1)
    private let done = Signal()
    private let outcome = TestLocked<Result<Value, any Error>?>(nil)

    init(_ lookup: @escaping @Sendable () throws -> Value) {
        Task(executorPreference: lane) { [done, outcome] in
            let result = Result { try lookup() }
            outcome.withLock { $0 = result }
            done.fire()
        }
    }

    deinit { lane.shutDown() }

    /// What the lookup returned or threw; nil, with an issue recorded, when it did not end within the
    /// bound (a hang detector, not a speed test).
    func result(sourceLocation: SourceLocation = #_sourceLocation) -> Result<Value, any Error>? {
        guard done.wait(seconds: 60) else {
            Issue.record("The lookup did not end within 60 s: it hangs.", sourceLocation: sourceLocation)
            return nil
        }
        return outcome.withLock { $0 }
    }
}

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

    // The three scenarios below hold a lookup inside its factory or preparation until the block has ended:
    // the lookup runs on a thread of its own, and the test's side waits for it with semaphores, so that no
    // step waits for a thread of the cooperative pool. (As tasks on the pool, with an async test waiting
    // for them, a run whose other suites held the pool's other threads let the factory's bounded wait end
    // first, before the block ended, and the scenario's premise with it.)

    @Test func aLookupRacingTheBlocksEndNeverGetsAnInstanceItToreDown() throws {
        let log = EventLog()
        let torn = TestLocked<[ObjectIdentifier]>([])
        let started = Signal()
        let proceed = Signal()
        // Whether the factory still waited when the block had ended (the test fires `proceed` only then): the
        // scenario's premise.
        let waitedForTheBlocksEnd = TestLocked(false)
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
                started.fire()
                let fired = proceed.wait(seconds: 120)
                waitedForTheBlocksEnd.withLock { $0 = fired }
                return LateCarProbeImpl(car: try r.resolve(.car))
            }
        }
        let lookup = try registry.withOverrides { overrides in
            try overrides.register(.engine) { _ in V8(horsepower: 1) }.scope(.singleton)
        } operation: {
            _ = try registry.makeDestination(to: .car)
            let lookup = LookupOnItsOwnThread { ObjectIdentifier(try registry.makeDestination(to: .lateCarProbe).car) }
            #expect(started.wait(seconds: 60))
            return lookup
        }
        #expect(log.events == ["car 1"])
        proceed.fire()
        let result = lookup.result()
        #expect(waitedForTheBlocksEnd.withLock { $0 })
        if case .success(let car) = result {
            #expect(!torn.withLock { $0 }.contains(car))
        }
        if case .failure(let error) = result {
            #expect((error as? RouteError)?.code == .scopeClosed)
        }
        #expect(log.events == ["car 1"])
    }

    @Test func aBuildWhoseFactoryReturnsAfterTheBlockEndedIsTornDownAtOnce() throws {
        let log = EventLog()
        let started = Signal()
        let proceed = Signal()
        // Whether the factory returned only after the block had ended: the scenario's premise.
        let returnedAfterTheBlocksEnd = TestLocked(false)
        let registry = try service(log: log)
        let lookup = try registry.withOverrides { overrides in
            try overrides.register(.engine) { _ in
                started.fire()
                let fired = proceed.wait(seconds: 120)
                returnedAfterTheBlocksEnd.withLock { $0 = fired }
                return V8(horsepower: 1)
            }
            .scope(.singleton)
            .teardown { engine in log.record("fake engine \(engine.horsepower)") }
        } operation: {
            let lookup = LookupOnItsOwnThread { try registry.makeDestination(to: .engine).horsepower }
            #expect(started.wait(seconds: 60))
            return lookup
        }
        #expect(log.events.isEmpty)
        proceed.fire()
        let result = lookup.result()
        #expect(returnedAfterTheBlocksEnd.withLock { $0 })
        #expect(log.events == ["fake engine 1"])
        #expect(throws: RouteError.self) { try result?.get() }
        // The registry's own engine is untouched, and its shutdown tears down only what it made.
        #expect(try registry.makeDestination(to: .engine).horsepower == 400)
        try registry.shutdown()
        #expect(log.events == ["fake engine 1", "engine 400"])
    }

    @Test func aBuildWhosePreparationRunsWhenTheBlockEndsIsTornDownAtOnce() throws {
        let log = EventLog()
        let started = Signal()
        let proceed = Signal()
        // Whether the preparation still ran when the block had ended: the scenario's premise.
        let preparedUntilTheBlocksEnd = TestLocked(false)
        let registry = try service(log: log)
        let lookup = try registry.withOverrides { overrides in
            try overrides.register(.engine) { _ in V8(horsepower: 1) }
                .scope(.singleton)
                .preparing { _, _ in
                    started.fire()
                    let fired = proceed.wait(seconds: 120)
                    preparedUntilTheBlocksEnd.withLock { $0 = fired }
                }
                .teardown { engine in log.record("fake engine \(engine.horsepower)") }
        } operation: {
            let lookup = LookupOnItsOwnThread { try registry.makeDestination(to: .engine).horsepower }
            #expect(started.wait(seconds: 60))
            return lookup
        }
        proceed.fire()
        let result = lookup.result()
        #expect(preparedUntilTheBlocksEnd.withLock { $0 })
        #expect(log.events == ["fake engine 1"])
        #expect(throws: RouteError.self) { try result?.get() }
    }
}
