import Dispatch
import Foundation
import Router
import Testing

// Registry calls made inside an async factory join the running lookup, exactly as a synchronous
// factory's do: the graph scope is shared, a cycle through the registry is a cycle error, and nothing
// waits for its own lookup. (Issue 25, item 7.)

protocol Joined: AnyObject, Sendable {
    var name: String { get }
    var partner: (any Joined)? { get set }
}

final class JoinedImpl: Joined, @unchecked Sendable {
    // @unchecked: `partner` is written by the preparation that builds the object, before the lookup that
    // made it returns it (or publishes it, for a shared one); the tests read it only afterwards.
    let name: String
    var partner: (any Joined)?
    init(_ name: String) { self.name = name }
}

extension RoutableService where Destination == any Joined {
    static var joined: Self { Self(declaring: (any Joined).self) }
}

/// The code of the `RouteError` an async lookup of `key` throws, run as a bounded scenario on a pool of
/// its own; nil when it returns (or hangs, which the hang detector records).
func asyncLookupErrorCode<Destination>(_ registry: RouteRegistry, _ key: RoutableService<Destination>)
    -> RouteError.Code?
{
    let code = TestLocked<RouteError.Code?>(nil)
    asyncScenarioFinishes {
        let found = await routeErrorCode { _ = try await registry.makeDestinationAsync(to: key) }
        code.withLock { $0 = found }
    }
    return code.withLock { $0 }
}

/// The code of the `RouteError` `body` throws; nil when it returns.
func routeErrorCode(_ body: () async throws -> Void) async -> RouteError.Code? {
    do {
        try await body()
        return nil
    } catch let error as RouteError {
        return error.code
    } catch {
        return nil
    }
}

struct AsyncJoinTests {
    let a = RoutableService.joined.named("a")
    let b = RoutableService.joined.named("b")
    let g = RoutableService.joined.named("g")
    let s = RoutableService.joined.named("s")
    let t = RoutableService.joined.named("t")

    @Test func anAsyncSingletonThatAsksTheRegistryForItselfFailsWithACycleInsteadOfHanging() throws {
        let a = self.a
        let registry = RouteRegistry()
        try registry.registerAsync(a) { _ async throws in
            _ = try await registry.makeDestinationAsync(to: a)
            return JoinedImpl("a")
        }.scope(.singleton)
        try registry.seal()
        #expect(asyncLookupErrorCode(registry, a) == .circularDependency)
    }

    @Test func aSynchronousRegistryCallInsideAnAsyncFactoryJoinsTheLookup() async throws {
        let (g, t) = (self.g, self.t)
        let registry = RouteRegistry()
        try registry.register(g) { _ in JoinedImpl("g") }.scope(.graph)
        try registry.registerAsync(t) { r async throws in
            let viaResolver = try r.resolve(g)
            await Task.yield()
            let viaRegistry = try registry.makeDestination(to: g)
            return JoinedImpl(viaResolver === viaRegistry ? "joined" : "apart")
        }
        try registry.seal()
        #expect(try await registry.makeDestinationAsync(to: t).name == "joined")
    }

    @Test func anAsyncRegistryCallInsideAnAsyncFactoryJoinsTheLookup() async throws {
        let (g, t) = (self.g, self.t)
        let registry = RouteRegistry()
        try registry.register(g) { _ in JoinedImpl("g") }.scope(.graph)
        try registry.registerAsync(t) { r async throws in
            let viaResolver = try r.resolve(g)
            await Task.yield()
            let viaRegistry = try await registry.makeDestinationAsync(to: g)
            return JoinedImpl(viaResolver === viaRegistry ? "joined" : "apart")
        }
        try registry.seal()
        #expect(try await registry.makeDestinationAsync(to: t).name == "joined")
    }

    /// Running async lookups are filed by task in 64 stripes: with 512 tasks in flight, each stripe holds
    /// several tasks' lookups at once, and a registry call inside each factory, synchronous or async, made
    /// after the factory suspended (so that the others filed theirs meanwhile), must join its own task's
    /// lookup: the graph-scoped part it gets is the one its lookup made, never another task's.
    @Test func registryCallsInsideAsyncFactoriesOfHundredsOfTasksInFlightEachJoinTheirOwnLookup() throws {
        let (g, t) = (self.g, self.t)
        let registry = RouteRegistry()
        try registry.register(g) { _ in JoinedImpl("g") }.scope(.graph)
        try registry.registerAsync(t) { r async throws in
            let viaResolver = try r.resolve(g)
            await Task.yield()
            let viaSync = try registry.makeDestination(to: g)
            await Task.yield()
            let viaAsync = try await registry.makeDestinationAsync(to: g)
            return JoinedImpl(viaResolver === viaSync && viaSync === viaAsync ? "joined" : "apart")
        }
        try registry.seal()
        let names = TestLocked<[String]>([])
        #expect(
            asyncScenarioFinishes(width: 4, bound: 120) {
                await withTaskGroup(of: Void.self) { group in
                    for _ in 0..<512 {
                        group.addTask {
                            for _ in 0..<4 {
                                let name = (try? await registry.makeDestinationAsync(to: t).name) ?? "failed"
                                names.withLock { $0.append(name) }
                            }
                        }
                    }
                }
            })
        let all = names.withLock { $0 }
        #expect(all.count == 512 * 4)
        #expect(all.filter { $0 == "apart" }.count == 0)
        #expect(all.filter { $0 == "failed" }.count == 0)
    }

    @Test func anAsyncCycleThroughTheRegistryIsACycleErrorNotUnboundedRecursion() throws {
        let (a, b) = (self.a, self.b)
        let registry = RouteRegistry()
        try registry.registerAsync(a) { _ async throws in
            JoinedImpl(try await registry.makeDestinationAsync(to: b).name + "a")
        }
        try registry.registerAsync(b) { _ async throws in
            JoinedImpl(try await registry.makeDestinationAsync(to: a).name + "b")
        }
        try registry.seal()
        #expect(asyncLookupErrorCode(registry, a) == .circularDependency)
    }

    /// Issue 25, item 15, for async factories: an initializer-only cycle of transient or graph-scoped
    /// objects is an error at its first repeat, each factory having run once, whether the factories go
    /// through the registry or their resolver.
    @Test(arguments: [false, true], [Scope.transient, .graph])
    func anAsyncInitializerCycleFailsAtItsFirstRepeatWithEachFactoryRunOnce(throughResolver: Bool, scope: Scope)
        throws
    {
        let (a, b) = (self.a, self.b)
        let runs = TestLocked<[String]>([])
        let registry = RouteRegistry()
        for (name, key, partnerKey) in [("a", a, b), ("b", b, a)] {
            try registry.registerAsync(key) { r async throws in
                runs.withLock { $0.append(name) }
                let partner =
                    throughResolver
                    ? try await r.resolveAsync(partnerKey) : try await registry.makeDestinationAsync(to: partnerKey)
                return JoinedImpl(partner.name + name)
            }.scope(scope)
        }
        try registry.seal()
        #expect(asyncLookupErrorCode(registry, a) == .circularDependency)
        #expect(runs.withLock { $0 } == ["a", "b"])
    }

    /// The depth guard applies to async transients as to synchronous ones: a chain of async factories one
    /// level longer than `maxDepth` fails with `resolutionTooDeep`, and a chain that fits is made.
    @Test func aChainOfAsyncTransientsDeeperThanMaxDepthFailsWithResolutionTooDeep() throws {
        func chain(length: Int, maxDepth: Int) throws -> (RouteRegistry, RoutableService<any Joined>) {
            let registry = RouteRegistry(maxDepth: maxDepth)
            for link in 0..<length {
                let next = RoutableService.joined.named("link\(link + 1)")
                try registry.registerAsync(RoutableService.joined.named("link\(link)")) { r async throws in
                    link + 1 == length ? JoinedImpl("end") : JoinedImpl(try await r.resolveAsync(next).name)
                }
            }
            try registry.seal()
            return (registry, RoutableService.joined.named("link0"))
        }
        let (deep, deepKey) = try chain(length: 6, maxDepth: 5)
        #expect(asyncLookupErrorCode(deep, deepKey) == .resolutionTooDeep)
        let (fits, fitsKey) = try chain(length: 5, maxDepth: 5)
        let made = TestLocked<String?>(nil)
        asyncScenarioFinishes {
            let name = try? await fits.makeDestinationAsync(to: fitsKey).name
            made.withLock { $0 = name }
        }
        #expect(made.withLock { $0 } == "end")
    }

    @Test func aSingletonThatAsksForItselfFromInsideAnAsyncFactoryFailsWithACycle() throws {
        let (s, t) = (self.s, self.t)
        let registry = RouteRegistry()
        try registry.register(s) { _ in
            _ = try registry.makeDestination(to: s)
            return JoinedImpl("s")
        }.scope(.singleton)
        try registry.registerAsync(t) { _ async throws in
            await Task.yield()
            return JoinedImpl(try registry.makeDestination(to: s).name)
        }
        try registry.seal()
        #expect(asyncLookupErrorCode(registry, t) == .circularDependency)
    }

    @Test func aChildTaskOfAnAsyncFactoryRunsALookupOfItsOwn() async throws {
        let (g, t) = (self.g, self.t)
        let registry = RouteRegistry()
        try registry.register(g) { _ in JoinedImpl("g") }.scope(.graph)
        try registry.registerAsync(t) { r async throws in
            let viaResolver = try r.resolve(g)
            // A child task runs beside the factory: joining the factory's lookup would share its state
            // between two tasks at once.
            async let fromChild = registry.makeDestinationAsync(to: g)
            let viaChild = try await fromChild
            return JoinedImpl(viaResolver === viaChild ? "joined" : "apart")
        }
        try registry.seal()
        #expect(try await registry.makeDestinationAsync(to: t).name == "apart")
    }

    @Test func aTaskStartedInAnAsyncFactoryLooksUpAfterTheLookupEnded() async throws {
        let (g, t) = (self.g, self.t)
        let late = TestLocked<Task<String, any Error>?>(nil)
        let registry = RouteRegistry()
        try registry.register(g) { _ in JoinedImpl("g") }.scope(.graph)
        try registry.registerAsync(t) { _ async throws in
            // Inherits the factory's task-local values, and outlives the lookup.
            let task = Task { () async throws -> String in
                try await Task.sleep(for: .milliseconds(50))
                return try await registry.makeDestinationAsync(to: g).name
                    + (try registry.makeDestination(to: g).name)
            }
            late.withLock { $0 = task }
            return JoinedImpl("t")
        }
        try registry.seal()
        _ = try await registry.makeDestinationAsync(to: t)
        let task = try #require(late.withLock { $0 })
        #expect(try await task.value == "gg")
    }
}

// What an async lookup does when it meets a shared instance another lookup is creating: it suspends,
// it never blocks a thread of the cooperative pool. A synchronous lookup cannot suspend: it waits for a
// synchronous instance, and fails at once for a key with an async factory. (Issue 25, item 8.)
struct AsyncWaitingTests {
    let a = RoutableService.joined.named("a")
    let s = RoutableService.joined.named("s")

    /// A singleton `s` whose property is an async transient `a`, and `a`'s factory, which resolves `s`,
    /// signals `held`, then waits `pause` milliseconds before it returns. `s`'s preparation needs `a`,
    /// whose factory has not returned: it runs at the lookup's end, and the lookup holds `s` until then,
    /// across the suspension (undeclared: sealing would refuse a synchronous preparation that declares an
    /// async key).
    func heldSingletonRegistry(
        held: Counter, pause: Int,
        adding more: (RouteRegistry, RoutableService<any Joined>) throws -> Void = { _, _ in }
    ) throws -> RouteRegistry {
        let (a, s) = (self.a, self.s)
        let registry = RouteRegistry()
        try more(registry, s)
        try registry.register(s) { _ in JoinedImpl("s") }.scope(.singleton)
            .preparing { s, r in s.partner = try r.resolve(a) }
        try registry.registerAsync(a) { r async throws in
            let made = JoinedImpl("a")
            made.partner = try r.resolve(s)
            held.increment()
            try await Task.sleep(for: .milliseconds(pause))
            return made
        }
        try registry.seal()
        return registry
    }

    @Test func tasksWaitingForASingletonAnAsyncLookupHoldsSuspendInsteadOfBlockingThePool() throws {
        let held = Counter()
        let registry = try heldSingletonRegistry(held: held, pause: 300)
        let (a, s) = (self.a, self.s)
        let waiters = 9  // four times the scenario pool's width, and one
        let found = TestLocked<[ObjectIdentifier]>([])
        let fromOwner = TestLocked<ObjectIdentifier?>(nil)
        asyncScenarioFinishes {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    let made = try? await registry.makeDestinationAsync(to: a)
                    fromOwner.withLock { $0 = made?.partner.map { ObjectIdentifier($0) } }
                }
                while held.value == 0 { await Task.yield() }
                for _ in 0..<waiters {
                    group.addTask {
                        guard let made = try? await registry.makeDestinationAsync(to: s) else { return }
                        found.withLock { $0.append(ObjectIdentifier(made)) }
                    }
                }
            }
        }
        let owner = try #require(fromOwner.withLock { $0 })
        #expect(found.withLock { $0 } == Array(repeating: owner, count: waiters))
    }

    /// The pool-starvation reproduction of the lookup-session issue: while an async lookup holds `s` and is
    /// suspended, four times the pool's width of tasks make synchronous lookups of `y`, which needs `s`.
    /// Had they waited, every thread of the pool would block and the holder could never resume (on main
    /// before the change: 0 of 9 lookups ended within 15 s). Each fails at once with
    /// `heldByAsyncLookup`, naming the async form, or (had it started after the holder ended) gets the
    /// holder's `s`.
    @Test func synchronousLookupsInTasksFailAtOnceInsteadOfBlockingThePoolForASingletonAnAsyncLookupHolds() throws {
        let held = Counter()
        let registry = try heldSingletonRegistry(held: held, pause: 300) { registry, s in
            try registry.register(RoutableService.joined.named("y")) { r in
                let made = JoinedImpl("y")
                made.partner = try r.resolve(s)
                return made
            }
        }
        let (a, y) = (self.a, RoutableService.joined.named("y"))
        let waiters = 9  // four times the scenario pool's width, and one
        let outcomes = TestLocked<[Result<ObjectIdentifier?, RouteError>]>([])
        let fromOwner = TestLocked<ObjectIdentifier?>(nil)
        asyncScenarioFinishes(width: 2, bound: 20) {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    let made = try? await registry.makeDestinationAsync(to: a)
                    fromOwner.withLock { $0 = made?.partner.map { ObjectIdentifier($0) } }
                }
                while held.value == 0 { await Task.yield() }
                for _ in 0..<waiters {
                    group.addTask {
                        let outcome: Result<ObjectIdentifier?, RouteError>
                        do {
                            let made = try registry.makeDestination(to: y)
                            outcome = .success(made.partner.map { ObjectIdentifier($0) })
                        } catch let error as RouteError {
                            outcome = .failure(error)
                        } catch {
                            return
                        }
                        outcomes.withLock { $0.append(outcome) }
                    }
                }
            }
        }
        let owner = try #require(fromOwner.withLock { $0 })
        let all = outcomes.withLock { $0 }
        #expect(all.count == waiters)
        for outcome in all {
            switch outcome {
            case .success(let partner): #expect(partner == owner)
            case .failure(let error):
                #expect(error.code == .heldByAsyncLookup)
                #expect(error.path == ["Joined[\"y\"]", "Joined[\"s\"]"])
                #expect(error.hint?.contains("makeDestinationAsync(to:)") == true)
            }
        }
    }

    @Test func aSynchronousLookupOnAPlainThreadWaitsForASingletonAnAsyncLookupHolds() throws {
        let held = Counter()
        let registry = try heldSingletonRegistry(held: held, pause: 200)
        let (a, s) = (self.a, self.s)
        let fromOwner = TestLocked<ObjectIdentifier?>(nil)
        let fromThread = TestLocked<ObjectIdentifier?>(nil)
        let pool = FixedPool(width: 2)
        defer { pool.shutDown() }
        finishesOnItsOwnThread(bound: 20) {
            let done = DispatchSemaphore(value: 0)
            Task(executorPreference: pool) {
                let made = try? await registry.makeDestinationAsync(to: a)
                fromOwner.withLock { $0 = made?.partner.map { ObjectIdentifier($0) } }
                done.signal()
            }
            while held.value == 0 { Thread.sleep(forTimeInterval: 0.001) }
            let made = try? registry.makeDestination(to: s)
            fromThread.withLock { $0 = made.map { ObjectIdentifier($0) } }
            done.wait()
        }
        let owner = try #require(fromOwner.withLock { $0 })
        #expect(fromThread.withLock { $0 } == owner)
    }

    @Test func aSynchronousLookupOfAnAsyncSingletonBeingCreatedFailsAtOnceWithAsyncOnly() async throws {
        let a = self.a
        let started = Counter()
        let release = Counter()
        let registry = RouteRegistry()
        try registry.registerAsync(a) { _ async throws in
            started.increment()
            while release.value == 0 { try await Task.sleep(for: .milliseconds(1)) }
            return JoinedImpl("a")
        }.scope(.singleton)
        try registry.seal()
        async let made = registry.makeDestinationAsync(to: a)
        while started.value == 0 { await Task.yield() }
        let code = await routeErrorCode { _ = try registry.makeDestination(to: a) }
        release.increment()
        #expect(code == .asyncOnly)
        #expect(try await made.name == "a")
    }

    @Test func manyTasksAskingForOneAsyncSingletonShareOneBuild() throws {
        let a = self.a
        let built = Counter()
        let registry = RouteRegistry()
        try registry.registerAsync(a) { _ async throws in
            built.increment()
            try await Task.sleep(for: .milliseconds(100))
            return JoinedImpl("a")
        }.scope(.singleton)
        try registry.seal()
        let waiters = 9  // four times the scenario pool's width, and one
        let found = TestLocked<Set<ObjectIdentifier>>([])
        asyncScenarioFinishes {
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<waiters {
                    group.addTask {
                        guard let made = try? await registry.makeDestinationAsync(to: a) else { return }
                        found.withLock { _ = $0.insert(ObjectIdentifier(made)) }
                    }
                }
            }
        }
        #expect(found.withLock { $0.count } == 1)
        #expect(built.value == 1)
    }
}
