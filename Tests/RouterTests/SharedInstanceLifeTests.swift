import Router
import Testing

// Issue 44, "the whole life as states": an instance whose build finishes after its generation was released
// (by `shutdown()` or `resetSingletons()`) was published into the released cell and never torn down, and
// a reset during shutdown left shutdown reading the new, empty cell. Each instance made is now torn down
// exactly once, at once when its build lands in a released generation, and no lookup is handed an instance
// after its teardown.

/// Waits for a lookup made on another thread: its result, or nil when it did not end within the bound.
private final class Outcome<Value>: @unchecked Sendable {
    // @unchecked: `result` is written by one thread before `done.fire()` and read after `done.wait()`.
    private var result: Result<Value, any Error>?
    private let done = Signal()

    func run(_ body: @escaping @Sendable () throws -> Value) {
        startThread { [self] in
            result = Result { try body() }
            done.fire()
        }
    }

    func wait() -> Result<Value, any Error>? { done.wait() ? result : nil }
}

private func isShutDown(_ result: Result<some Any, any Error>?) -> Bool {
    guard case .failure(let error) = result else { return false }
    return (error as? RouteError)?.code == .shutDown
}

/// Whether `stream` yields `count` times within a generous bound: a hang detector for an async wait, not a
/// speed test.
private func arrives(_ stream: AsyncStream<Void>, count: Int = 1, bound: Int = 30) async -> Bool {
    await withTaskGroup(of: Bool.self) { group in
        group.addTask {
            var seen = 0
            for await _ in stream {
                seen += 1
                if seen == count { return true }
            }
            return false
        }
        group.addTask {
            try? await Task.sleep(for: .seconds(bound))
            return false
        }
        let first = await group.next() ?? false
        group.cancelAll()
        return first
    }
}

struct SharedInstanceLifeTests {
    @Test func anInstanceWhosePreparationRunsWhenShutdownBeginsIsTornDownOnceAndItsLookupFailsWithShutDown() throws {
        let torn = Counter()
        let prepared = Signal()
        let proceed = Signal()
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8() }.scope(.singleton)
                .preparing { _, _ in
                    prepared.fire()
                    proceed.wait()
                }
                .teardown { _ in torn.increment() }
        }
        finishesOnItsOwnThread {
            let lookup = Outcome<any Engine>()
            lookup.run { try registry.makeDestination(to: .engine) }
            #expect(prepared.wait())
            // The factory returned; its preparation runs until shutdown has finished.
            #expect((try? registry.shutdown()) != nil)
            proceed.fire()
            let result = lookup.wait()
            #expect(isShutDown(result))
            #expect(torn.value == 1)
            // Nothing else tears it down again.
            #expect((try? registry.shutdown()) != nil)
            #expect(torn.value == 1)
        }
    }

    @Test func aSyncFactoryWithAnAsyncTeardownThatReturnsAfterShutdownBeganIsTornDown() async throws {
        let torn = Counter()
        let (tornDown, tornDownSignal) = AsyncStream<Void>.makeStream()
        let entered = Signal()
        let proceed = Signal()
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in
                entered.fire()
                proceed.wait()
                return V8()
            }
            .scope(.singleton)
            .teardown { _ async in
                torn.increment()
                tornDownSignal.yield()
            }
        }
        // The lookup runs on a thread of its own; the test waits for the teardown suspended, never blocking a
        // thread of the pool the teardown's task needs.
        let lookup = Outcome<any Engine>()
        lookup.run { try registry.makeDestination(to: .engine) }
        #expect(entered.wait())
        try registry.shutdown()
        proceed.fire()
        #expect(isShutDown(lookup.wait()))
        #expect(await arrives(tornDown))
        #expect(torn.value == 1)
    }

    @Test func aResetWhileTheInstanceIsBeingBuiltTearsItDownOnceAndTheLookupGetsTheNewGeneration() throws {
        let torn = TestLocked<[Int]>([])
        let made = Counter()
        let entered = Signal()
        let proceed = Signal()
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in
                let number = made.increment()
                if number == 1 {
                    entered.fire()
                    proceed.wait()
                }
                return V8(horsepower: number)
            }
            .resettable()
            .teardown { engine in torn.withLock { $0.append(engine.horsepower) } }
        }
        finishesOnItsOwnThread {
            let lookup = Outcome<Int>()
            lookup.run { try registry.makeDestination(to: .engine).horsepower }
            #expect(entered.wait())
            #expect(registry.resetSingletons() == 1)
            proceed.fire()
            // Built in the released generation: torn down at once, never handed out; the lookup gets the
            // current generation's instance.
            let result = lookup.wait()
            #expect((try? result?.get()) == 2)
            #expect(torn.withLock { $0 } == [1])
            #expect((try? registry.makeDestination(to: .engine).horsepower) == 2)
            #expect((try? registry.shutdown()) != nil)
            #expect(torn.withLock { $0 } == [1, 2])
            #expect(made.value == 2)
        }
    }

    @Test func aResetWhileTheInstanceIsBeingPreparedTearsItDownOnce() throws {
        let torn = TestLocked<[Int]>([])
        let made = Counter()
        let prepared = Signal()
        let proceed = Signal()
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8(horsepower: made.increment()) }
                .resettable()
                .preparing { engine, _ in
                    if engine.horsepower == 1 {
                        prepared.fire()
                        proceed.wait()
                    }
                }
                .teardown { engine in torn.withLock { $0.append(engine.horsepower) } }
        }
        finishesOnItsOwnThread {
            let lookup = Outcome<Int>()
            lookup.run { try registry.makeDestination(to: .engine).horsepower }
            #expect(prepared.wait())
            registry.resetSingletons()
            proceed.fire()
            #expect((try? lookup.wait()?.get()) == 2)
            #expect(torn.withLock { $0 } == [1])
            #expect((try? registry.shutdown()) != nil)
            #expect(torn.withLock { $0 } == [1, 2])
        }
    }

    @Test func aResetDuringShutdownTearsTheReleasedInstanceDownOnce() throws {
        // The radio was made last, so shutdown tears it down first; its teardown resets the engine while
        // shutdown has still to reach the engine.
        let log = TestLocked<[String]>([])
        let box = TestLocked<RouteRegistry?>(nil)
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8() }.resettable()
                .teardown { _ in log.withLock { $0.append("engine") } }
            try registry.register(.radio) { _ in RadioImpl() }.scope(.singleton)
                .teardown { _ in
                    log.withLock { $0.append("radio") }
                    box.withLock { $0 }?.resetSingletons()
                }
        }
        box.withLock { $0 = registry }
        _ = try registry.makeDestination(to: .engine)
        _ = try registry.makeDestination(to: .radio)
        try registry.shutdown()
        #expect(log.withLock { $0 } == ["radio", "engine"])
        registry.resetSingletons()
        try registry.shutdown()
        #expect(log.withLock { $0 } == ["radio", "engine"])
    }

    @Test func aResetRacingShutdownFromAnotherThreadTearsTheInstanceDownExactlyOnce() throws {
        for _ in 0..<200 {
            let torn = Counter()
            let registry = try sealedRegistry { registry in
                try registry.register(.engine) { _ in V8() }.resettable().teardown { _ in torn.increment() }
            }
            _ = try registry.makeDestination(to: .engine)
            finishesOnItsOwnThread {
                onThreads(2) { index in
                    if index == 0 { registry.resetSingletons() } else { try? registry.shutdown() }
                }
            }
            #expect(torn.value == 1)
        }
    }

    @Test func anAsyncLookupWhosePreparationRunsWhenShutdownBeginsIsTornDownOnceAndFailsWithShutDown() throws {
        let torn = Counter()
        let (prepared, preparedSignal) = AsyncStream<Void>.makeStream()
        let proceed = Signal()
        // Whether the preparation was still running when shutdown had finished: the scenario's premise. Its
        // wait is bounded; were it to end first, the lookup would publish before shutdown began, and shutdown
        // would tear the published instance down: a success, rightly.
        let preparedUntilShutdown = TestLocked(false)
        let registry = try sealedRegistry { registry in
            try registry.registerAsync(.engine) { _ async in V8() }.scope(.singleton)
                .preparing { _, _ in
                    preparedSignal.yield()
                    let fired = proceed.wait(seconds: 30)
                    preparedUntilShutdown.withLock { $0 = fired }
                }
                .teardown { _ in torn.increment() }
        }
        let outcome = TestLocked<Result<Int, any Error>?>(nil)
        let shutDownCleanly = TestLocked(false)
        // On threads of its own: the preparation blocks the thread it runs on, and the test's side must run
        // meanwhile. On the shared cooperative pool, which the suites running in parallel may starve for
        // minutes, the test's side could resume after the preparation's wait ended.
        asyncScenarioFinishes(width: 2, bound: 30) {
            // A child task, so that it runs on the scenario's threads too.
            async let made = registry.makeDestinationAsync(to: .engine)
            for await _ in prepared { break }
            let shutdown = (try? registry.shutdown()) != nil
            proceed.fire()
            let result: Result<Int, any Error>
            do { result = .success(try await made.horsepower) } catch { result = .failure(error) }
            outcome.withLock { $0 = result }
            shutDownCleanly.withLock { $0 = shutdown }
        }
        #expect(shutDownCleanly.withLock { $0 })
        #expect(preparedUntilShutdown.withLock { $0 })
        #expect(isShutDown(outcome.withLock { $0 }))
        #expect(torn.value == 1)
    }

    @Test func anAsyncFactoryThatReturnsIntoAReleasedGenerationIsTornDownAndTheLookupGetsTheNewOne() async throws {
        let torn = TestLocked<[Int]>([])
        let made = Counter()
        let (started, startedSignal) = AsyncStream<Void>.makeStream()
        let (release, releaseSignal) = AsyncStream<Void>.makeStream()
        let registry = try sealedRegistry { registry in
            try registry.registerAsync(.engine) { _ async throws in
                let number = made.increment()
                if number == 1 {
                    startedSignal.yield()
                    for await _ in release { break }
                }
                return V8(horsepower: number)
            }
            .resettable()
            .teardown { engine in torn.withLock { $0.append(engine.horsepower) } }
        }
        let lookup = Task { try await registry.makeDestinationAsync(to: .engine).horsepower }
        for await _ in started { break }
        #expect(registry.resetSingletons() == 1)
        releaseSignal.yield()
        #expect(try await lookup.value == 2)
        #expect(torn.withLock { $0 } == [1])
        #expect(try await registry.makeDestinationAsync(to: .engine).horsepower == 2)
        try registry.shutdown()
        #expect(torn.withLock { $0 } == [1, 2])
    }

    @Test func aFactoryThatResetsItsOwnRegistrationAtEveryBuildEndsWithScopeClosedAndEveryInstanceTornDown() throws {
        let made = Counter()
        let torn = Counter()
        let box = TestLocked<RouteRegistry?>(nil)
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in
                box.withLock { $0 }?.resetSingletons()
                return V8(horsepower: made.increment())
            }
            .resettable()
            .teardown { _ in torn.increment() }
        }
        box.withLock { $0 = registry }
        finishesOnItsOwnThread {
            #expect {
                try registry.makeDestination(to: .engine)
            } throws: { error in
                (error as? RouteError)?.code == .scopeClosed
            }
            // Each build landed in the generation its own factory had released: each was torn down, once.
            #expect(made.value > 1)
            #expect(torn.value == made.value)
        }
    }

    @Test func aRequestScopedBuildThatFinishesAfterItsScopeEndedIsNotKeptByTheScope() throws {
        let entered = Signal()
        let proceed = Signal()
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in
                entered.fire()
                proceed.wait()
                return V8()
            }
            .scope(.request)
        }
        let scope = registry.openRequestScope()
        finishesOnItsOwnThread {
            let lookup = Outcome<any Engine>()
            lookup.run { try scope.makeDestination(to: .engine) }
            #expect(entered.wait())
            scope.end()
            proceed.fire()
            // The lookup began in the open scope and gets what it built; the ended scope keeps nothing, and
            // every later lookup through it fails.
            #expect((try? lookup.wait()?.get()) != nil)
            #expect(scope.count == 0)
            #expect(throws: RouteError.self) { try scope.makeDestination(to: .engine) }
        }
    }

    @Test func aCycleBuiltAcrossAResetIsTornDownOnceEachAndTheNextLookupBuildsTheNewGeneration() async throws {
        // A(init B), B.a by a preparation: A and B are published together when the lookup ends, after the
        // lookup handed them on to each other; landing in the released generation, each is torn down once, on a
        // task of its own. This is the one case where a lookup still returns what it built in a released
        // generation (Guarantees.md says so): the cycle it returns is the old one.
        let torn = TestLocked<[String]>([])
        let (tornDown, tornDownSignal) = AsyncStream<Void>.makeStream()
        let builtA = Counter()
        let builtB = Counter()
        let entered = Signal()
        let proceed = Signal()
        let registry = try sealedRegistry { registry in
            try registry.register(.nodeA) { r in
                let a = AImpl(b: try r.resolve(.nodeB))
                if builtA.increment() == 1 {
                    entered.fire()
                    proceed.wait()
                }
                return a
            }
            .resettable().dependencies(.initializer(.nodeB))
            .teardown { _ in
                torn.withLock { $0.append("a") }
                tornDownSignal.yield()
            }
            try registry.register(.nodeB) { _ in
                builtB.increment()
                return BImpl()
            }
            .resettable()
            .preparing { b, r in b.a = try r.resolve(.nodeA) }
            .teardown { _ in
                torn.withLock { $0.append("b") }
                tornDownSignal.yield()
            }
        }
        let lookup = Outcome<any NodeA>()
        lookup.run { try registry.makeDestination(to: .nodeA) }
        #expect(entered.wait())
        registry.resetSingletons()
        proceed.fire()
        let old = try #require(try lookup.wait()?.get())
        #expect(old.b?.a === old)
        #expect(await arrives(tornDown, count: 2))
        #expect(torn.withLock { $0 }.sorted() == ["a", "b"])
        // Neither was published: the next lookup builds the new generation's cycle, once, whole.
        let renewed = try registry.makeDestination(to: .nodeA)
        #expect(renewed !== old)
        #expect(renewed.b?.a === renewed)
        #expect(try registry.makeDestination(to: .nodeA) === renewed)
        #expect(builtA.value == 2)
        #expect(builtB.value == 2)
        try registry.shutdown()
        #expect(torn.withLock { $0 }.sorted() == ["a", "a", "b", "b"])
        breakCycles(old)
        breakCycles(renewed)
    }
}
