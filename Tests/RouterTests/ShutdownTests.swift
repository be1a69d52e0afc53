import Router
import Testing

// Issue 36, lifecycle: `shutdown()` tears the singletons down in reverse order of creation, with teardown
// declared at registration (sync and async), once; lookups after it are typed errors naming the key;
// teardown failures are collected and reported together.

private struct TeardownFailure: Error, CustomStringConvertible {
    let name: String
    var description: String { "\(name) would not close" }
}

/// The parts of a small service: a pool, a repository made from it, and a cache made from the repository.
private func service(log: TestLocked<[String]>, failing: Set<String> = []) throws -> RouteRegistry {
    try sealedRegistry { registry in
        try registry.register(.engine) { _ in V8() }.scope(.singleton)
            .teardown { _ in
                log.withLock { $0.append("engine") }
                if failing.contains("engine") { throw TeardownFailure(name: "engine") }
            }
        try registry.register(.car) { r in CarImpl(engine: try r.resolve(.engine)) }
            .scope(.singleton).dependencies(.initializer(.engine))
            .teardown { _ in
                log.withLock { $0.append("car") }
                if failing.contains("car") { throw TeardownFailure(name: "car") }
            }
        try registry.register(.radio) { _ in RadioImpl() }.scope(.singleton)
            .teardown { _ in log.withLock { $0.append("radio") } }
    }
}

struct ShutdownTests {
    @Test func shutdownTearsTheMadeSingletonsDownInReverseOrderOfCreationOnce() throws {
        let log = TestLocked<[String]>([])
        let registry = try service(log: log)
        _ = try registry.makeDestination(to: .radio)
        _ = try registry.makeDestination(to: .car)  // makes the engine first, then the car
        try registry.shutdown()
        #expect(log.withLock { $0 } == ["car", "engine", "radio"])
        try registry.shutdown()
        #expect(log.withLock { $0 } == ["car", "engine", "radio"])
        #expect(registry.isShutDown)
    }

    @Test func aSingletonThatWasNeverMadeIsNotTornDown() throws {
        let log = TestLocked<[String]>([])
        let registry = try service(log: log)
        _ = try registry.makeDestination(to: .engine)
        try registry.shutdown()
        #expect(log.withLock { $0 } == ["engine"])
    }

    @Test func aLookupAfterShutdownIsATypedErrorNamingTheKey() throws {
        let registry = try service(log: TestLocked([]))
        _ = try registry.makeDestination(to: .car)
        try registry.shutdown()
        #expect {
            try registry.makeDestination(to: .car)
        } throws: { error in
            (error as? RouteError)?.code == .shutDown
                && (error as? RouteError)?.description
                    == "The registry was shut down, so it cannot make RoutableService<Car>. Hint: Make lookups before shutdown(), or in a new registry."
        }
        // The built-singleton fast path is closed too, and so are async lookups.
        #expect(throws: RouteError.self) { try registry.makeDestination(to: .engine) }
    }

    @Test func anAsyncLookupAfterShutdownIsATypedError() async throws {
        let registry = try service(log: TestLocked([]))
        _ = try registry.makeDestination(to: .engine)
        try await registry.shutdownAsync()
        await #expect {
            _ = try await registry.makeDestinationAsync(to: .engine)
        } throws: { error in
            (error as? RouteError)?.code == .shutDown && (error as? RouteError)?.key == "RoutableService<Engine>"
        }
    }

    @Test func theSynchronousShutdownIsCalledWithoutAwaitInAsyncCode() async throws {
        // One name, one meaning: in an async function `try registry.shutdown()` is the synchronous form
        // (the awaiting one is `shutdownAsync()`), so it compiles without `await` and tears down at once.
        let log = TestLocked<[String]>([])
        let registry = try service(log: log)
        _ = try await registry.makeDestinationAsync(to: .car)
        try registry.shutdown()
        #expect(log.withLock { $0 } == ["car", "engine"])
        #expect(registry.isShutDown)
    }

    @Test func aRegistryShutDownBeforeItWasSealedCannotBeSealedOrUsed() throws {
        let registry = RouteRegistry()
        try registry.register(.engine) { _ in V8() }.scope(.singleton)
        try registry.shutdown()
        try registry.seal()
        #expect(registry.isShutDown)
        #expect(throws: RouteError.self) { try registry.register(.radio) { _ in RadioImpl() } }
        #expect {
            try registry.makeDestination(to: .engine)
        } throws: { error in
            (error as? RouteError)?.code == .shutDown
        }
    }

    @Test func teardownFailuresAreCollectedAndEveryTeardownStillRuns() throws {
        let log = TestLocked<[String]>([])
        let registry = try service(log: log, failing: ["car", "engine"])
        _ = try registry.makeDestination(to: .car)
        _ = try registry.makeDestination(to: .radio)
        #expect {
            try registry.shutdown()
        } throws: { error in
            guard let error = error as? RouteError else { return false }
            return error.code == .teardownFailed
                && error.description == """
                    shutdown() ran every teardown, and 2 failed:
                    - The teardown of RoutableService<Car> threw car would not close. Hint: It was torn down from RouterTests/ShutdownTests.swift:21; the other teardowns ran.
                    - The teardown of RoutableService<Engine> threw engine would not close. Hint: It was torn down from RouterTests/ShutdownTests.swift:16; the other teardowns ran. Hint: Each failure's error is in its line; the first is this error's underlyingError.
                    """
                && (error.underlyingError as? TeardownFailure)?.name == "car"
        }
        #expect(log.withLock { $0 } == ["radio", "car", "engine"])
    }

    @Test func asyncShutdownAwaitsAsyncTeardownsInOrderAndSyncShutdownReportsThem() async throws {
        let log = TestLocked<[String]>([])
        let make = {
            try sealedRegistry { registry in
                try registry.registerAsync(.engine) { _ async throws in V8() }.scope(.singleton)
                    .teardown { _ async throws in
                        await Task.yield()
                        log.withLock { $0.append("engine") }
                    }
                try registry.register(.radio) { _ in RadioImpl() }.scope(.singleton)
                    .teardown { _ in log.withLock { $0.append("radio") } }
            }
        }
        let registry = try make()
        _ = try await registry.makeDestinationAsync(to: .engine)
        _ = try registry.makeDestination(to: .radio)
        try await registry.shutdownAsync()
        #expect(log.withLock { $0 } == ["radio", "engine"])

        let other = try make()
        _ = try await other.makeDestinationAsync(to: .engine)
        #expect {
            try other.shutdown()
        } throws: { error in
            (error as? RouteError)?.code == .teardownFailed
                && (error as? RouteError)?.reason
                    == "RoutableService<Engine> has an async teardown, which shutdown() cannot await."
        }
    }

    @Test func lookupsRacingShutdownFailWithShutDownAndNoInstanceIsTornDownTwice() throws {
        // The torn-down engines themselves, kept alive: a reset tears down and releases the engine it replaces,
        // and a later engine may be allocated at the freed address, so identifiers of freed engines could repeat
        // with no engine torn down twice.
        let torn = TestLocked<[any Engine]>([])
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8() }.resettable()
                .teardown { engine in torn.withLock { $0.append(engine) } }
        }
        let failures = Counter()
        let current = TestLocked<ObjectIdentifier?>(nil)
        finishesOnItsOwnThread(bound: 120) {
            onThreads(6) { index in
                if index == 0 {
                    for _ in 0..<50 { registry.resetSingletons() }
                    let last = try? registry.makeDestination(to: .engine)
                    current.withLock { $0 = last.map { ObjectIdentifier($0) } }
                    try? registry.shutdown()
                } else {
                    for _ in 0..<2_000 {
                        do {
                            _ = try registry.makeDestination(to: .engine)
                        } catch let error as RouteError {
                            // After shutdown began: refused, or made and torn down at once by its own lookup.
                            if error.code != .shutDown && (error.underlyingError as? RouteError)?.code != .shutDown {
                                failures.increment()
                            }
                        } catch {
                            failures.increment()
                        }
                    }
                }
            }
        }
        #expect(failures.value == 0)
        let tornDown = torn.withLock { $0.map { ObjectIdentifier($0) } }
        #expect(Set(tornDown).count == tornDown.count)
        #expect(current.withLock { $0 }.map(tornDown.contains) == true)
        #expect(throws: RouteError.self) { try registry.makeDestination(to: .engine) }
    }
}
