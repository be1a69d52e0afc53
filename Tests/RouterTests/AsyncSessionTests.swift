import Router
import Testing

// An async lookup goes through the same lookup session as a synchronous one: it ends the same way
// (the snapshot its `Lazy`s and `Provider`s read, the state's invariants), and it offers the same forms
// (a caller's preparation, runtime arguments, a module's configuration), with the same checks and errors.

protocol SessionPart: AnyObject {}
final class SessionPartImpl: SessionPart {}
protocol SessionOwner: AnyObject {
    var part: any SessionPart { get }
    var lazyPart: Lazy<any SessionPart> { get }
    var makePart: Provider<any SessionPart> { get }
}
final class SessionOwnerImpl: SessionOwner {
    let part: any SessionPart
    let lazyPart: Lazy<any SessionPart>
    let makePart: Provider<any SessionPart>
    init(part: any SessionPart, lazyPart: Lazy<any SessionPart>, makePart: Provider<any SessionPart>) {
        self.part = part
        self.lazyPart = lazyPart
        self.makePart = makePart
    }
}
extension RoutableService where Destination == any SessionPart {
    static var sessionPart: Self { Self(declaring: (any SessionPart).self) }
}
extension RoutableService where Destination == any SessionOwner {
    static var sessionOwner: Self { Self(declaring: (any SessionOwner).self) }
}

struct AsyncSessionTests {
    /// The reproduction of the lookup-session issue: registered with `registerAsync` and looked up with
    /// `makeDestinationAsync`, the `Lazy` made in the lookup read the graph-scoped part built again (the
    /// async lookup never captured its snapshot); it must find the part the lookup made, as the
    /// synchronous lookup's does.
    @Test(arguments: [false, true])
    func aLazyAndAProviderMadeInALookupShareItsGraphScopedInstances(async: Bool) async throws {
        let made = Counter()
        let registry = try sealedRegistry { registry in
            try registry.register(.sessionPart) { _ in
                made.increment()
                return SessionPartImpl()
            }.scope(.graph)
            if async {
                try registry.registerAsync(.sessionOwner) { r async throws in
                    await Task.yield()
                    return SessionOwnerImpl(
                        part: try r.resolve(.sessionPart), lazyPart: try r.lazy(.sessionPart),
                        makePart: try r.provider(.sessionPart))
                }
            } else {
                try registry.register(.sessionOwner) { r in
                    SessionOwnerImpl(
                        part: try r.resolve(.sessionPart), lazyPart: try r.lazy(.sessionPart),
                        makePart: try r.provider(.sessionPart))
                }
            }
        }
        let owner = try await registry.makeDestinationAsync(to: .sessionOwner)
        #expect(try owner.lazyPart.value === owner.part)
        #expect(try owner.makePart() === owner.part)
        #expect(made.value == 1)
    }

    @Test func anAsyncLookupRunsTheCallersPreparationBeforeTheRegistrations() async throws {
        let registry = try sealedRegistry { registry in
            try registry.registerAsync(.car) { r async throws in
                await Task.yield()
                return CarImpl(engine: try r.resolve(.engine))
            }
            .preparing { car, _ in (car as? CarImpl)?.log.append("registration") }
            try registry.register(.engine) { _ in V8(horsepower: 7) }
        }
        let car = try await registry.makeDestinationAsync(to: .car) { car in
            (car as? CarImpl)?.log.append("caller")
        }
        #expect((car as? CarImpl)?.log == ["caller", "registration"])
        #expect(car.engine.horsepower == 7)
    }

    @Test func aCallersPreparationThatThrowsFailsTheAsyncLookupAsFactoryFailed() async throws {
        struct Refused: Error {}
        let reported = TestLocked<[RouteError.Code]>([])
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8() }
            registry.errorHandler = { error in reported.withLock { $0.append(error.code) } }
        }
        let code = await routeErrorCode {
            _ = try await registry.makeDestinationAsync(to: .engine) { engine in
                if engine.horsepower > 0 { throw Refused() }
            }
        }
        #expect(code == .factoryFailed)
        #expect(reported.withLock { $0 } == [.factoryFailed])
    }

    @Test func anAsyncLookupPassesRuntimeArgumentsToSynchronousAndAsyncFactories() async throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.engine, arguments: Int.self) { _, horsepower in V8(horsepower: horsepower) }
            try registry.registerAsync(.wheel, arguments: Int.self, String.self) { r, position, _ async throws in
                await Task.yield()
                return WheelImpl(position: position + (try r.resolve(.engine, arguments: 0)).horsepower)
            }
            try registry.registerAsync(.car) { r async throws in
                let engine = try await r.resolveAsync(.engine, arguments: 12)
                let wheel = try await r.resolveAsync(.wheel, arguments: 3, "front")
                let car = CarImpl(engine: engine)
                car.log.append("wheel \(wheel.position)")
                return car
            }
        }
        #expect(try await registry.makeDestinationAsync(to: .engine, arguments: 5).horsepower == 5)
        #expect(try await registry.makeDestinationAsync(to: .wheel, arguments: 2, "rear").position == 2)
        let car = try await registry.makeDestinationAsync(to: .car)
        #expect(car.engine.horsepower == 12)
        #expect((car as? CarImpl)?.log == ["wheel 3"])
    }

    @Test func anAsyncLookupWithArgumentsOfTheWrongTypeIsAnArgumentMismatch() async throws {
        let registry = try sealedRegistry { registry in
            try registry.registerAsync(.engine, arguments: Int.self) { _, horsepower async throws in
                V8(horsepower: horsepower)
            }
        }
        let code = await routeErrorCode { _ = try await registry.makeDestinationAsync(to: .engine, arguments: "x") }
        #expect(code == .argumentMismatch)
        let synchronous = #expect(throws: RouteError.self) {
            _ = try registry.makeDestination(to: .engine, arguments: 1)
        }
        #expect(synchronous?.code == .asyncOnly)
    }

    @Test func anAsyncLookupOfAModuleKeyIsConfiguredFirstAndItsHandlerRunsAtTheEnd() async throws {
        let finished = TestLocked<[String]>([])
        let registry = try sealedRegistry { registry in
            try registry.register(.greeter, configuration: GreeterConfiguration.init) { config, _ in
                let name = try config.require(config.name, setBy: "constructGreeter(name:)")
                return GreeterImpl(greeting: "Hello, \(name)\(config.punctuation)")
            }
        }
        let greeter = try await registry.makeDestinationAsync(to: .greeter) { config in
            config.constructGreeter(name: "Ann")
            config.punctuation = "!"
            config.successHandler = { made in finished.withLock { $0.append(made.greeting) } }
        }
        #expect(greeter.greeting == "Hello, Ann!")
        #expect(finished.withLock { $0 } == ["Hello, Ann!"])
        let code = await routeErrorCode { _ = try await registry.makeDestinationAsync(to: .greeter) { _ in } }
        #expect(code == .invalidConfiguration)
    }

    @Test func anAsyncFactoryResolvesAModuleKeyWithItsConfiguration() async throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.greeter, configuration: GreeterConfiguration.init) { config, _ in
                GreeterImpl(greeting: "Hi, \(try config.require(config.name, setBy: "constructGreeter(name:)"))")
            }
            try registry.registerAsync(.car) { r async throws in
                let greeter = try await r.resolveAsync(.greeter) { config in config.constructGreeter(name: "Bo") }
                let car = CarImpl(engine: V8())
                car.log.append(greeter.greeting)
                return car
            }
        }
        let car = try await registry.makeDestinationAsync(to: .car)
        #expect((car as? CarImpl)?.log == ["Hi, Bo"])
    }

    /// A custom scope's generation is counted as used by a lookup until it ends: an async lookup leaves it
    /// when it ends, as a synchronous one does, so a reset scope's old instances are released.
    @Test func anAsyncLookupLeavesTheCustomScopeGenerationItUsedWhenItEnds() async throws {
        let scope = CustomScope("session")
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8() }.scope(.custom(scope))
            try registry.registerAsync(.car) { r async throws in
                await Task.yield()
                return CarImpl(engine: try r.resolve(.engine))
            }
        }
        weak var first: (any Engine)?
        do {
            let car = try await registry.makeDestinationAsync(to: .car)
            first = car.engine
        }
        scope.reset()
        let again = try await registry.makeDestinationAsync(to: .car)
        #expect(first == nil)
        #expect(again.engine.horsepower == 400)
    }

    /// An async lookup's state is given back to its table when the lookup ends and reused by the next one:
    /// what a failed lookup left (its graph, its graph-scoped instance, its frames) must not reach the next.
    /// The owner is an async transient with nothing to prepare, the async door's specialized case.
    @Test func anAsyncLookupAfterAFailedOneStartsFromAnEmptyState() async throws {
        let made = Counter()
        let calls = Counter()
        let registry = try suspendingOwnerRegistry(made: made, calls: calls, failing: { $0 == 1 })
        await #expect(throws: RouteError.self) { try await registry.makeDestinationAsync(to: .sessionOwner) }
        let owner = try await registry.makeDestinationAsync(to: .sessionOwner)
        #expect(made.value == 2)
        #expect(try owner.lazyPart.value === owner.part)
        #expect(made.value == 2)
        // And a third lookup, in the state the second gave back, gets a part of its own.
        let third = try await registry.makeDestinationAsync(to: .sessionOwner)
        #expect(third.part !== owner.part)
        #expect(made.value == 3)
    }

    /// Async factories' frames live in their lookup's state, the first levels in a block it keeps, deeper
    /// ones allocated each: a chain of async factories deeper than the block is built in order, and a
    /// repeat deeper than it is found as the cycle it is, with the whole path.
    @Test(arguments: [false, true])
    func aChainOfAsyncFactoriesDeeperThanTheFrameBlockKeepsItsPath(closesACycle: Bool) async throws {
        let levels = 20
        let registry = try sealedRegistry { registry in
            for level in 0..<levels {
                try registry.registerAsync(.sessionPart.named("\(level)")) { r async throws in
                    await Task.yield()
                    if level < levels - 1 {
                        _ = try await r.resolveAsync(.sessionPart.named("\(level + 1)"))
                    } else if closesACycle {
                        _ = try await r.resolveAsync(.sessionPart.named("3"))
                    }
                    return SessionPartImpl()
                }
            }
        }
        guard closesACycle else {
            _ = try await registry.makeDestinationAsync(to: .sessionPart.named("0"))
            // Every frame was given back: the next lookup of the chain starts at the top again.
            _ = try await registry.makeDestinationAsync(to: .sessionPart.named("0"))
            return
        }
        let error = await #expect(throws: RouteError.self) {
            try await registry.makeDestinationAsync(to: .sessionPart.named("0"))
        }
        #expect(error?.code == .circularDependency)
        // The cycle's path, from the repeated level 3 down to the last and back to 3.
        #expect(error?.path.count == levels - 3 + 1)
        #expect(error?.path.first == error?.path.last)
    }

    /// Reused async lookup states are taken and given back by lookups on several threads at once: each
    /// lookup must get a state no other lookup is using. Eight tasks on four threads look up an async
    /// transient whose factory suspends between making its graph-scoped part and returning, and every
    /// fifth call fails after making its part: every owner's `Lazy` and `Provider` find the part its own
    /// lookup made, no two owners share a part, and no part is made that no lookup asked for.
    @Test func concurrentAsyncLookupsEachGetAStateOfTheirOwn() throws {
        let made = Counter()
        let calls = Counter()
        let registry = try suspendingOwnerRegistry(made: made, calls: calls, failing: { $0 % 5 == 0 })
        let tasks = 8
        let lookups = 150
        // The owners are kept alive, so that no part's address is reused and identities stay distinct.
        let owners = TestLocked<[any SessionOwner]>([])
        let unexpected = TestLocked<[String]>([])
        #expect(
            asyncScenarioFinishes(width: 4, bound: 120) {
                await withTaskGroup(of: Void.self) { group in
                    for _ in 0..<tasks {
                        group.addTask {
                            for _ in 0..<lookups {
                                do {
                                    let owner = try await registry.makeDestinationAsync(to: .sessionOwner)
                                    owners.withLock { $0.append(owner) }
                                } catch let error as RouteError where error.underlyingError is Boom {
                                } catch {
                                    unexpected.withLock { $0.append("\(error)") }
                                }
                            }
                        }
                    }
                }
            })
        #expect(unexpected.withLock { $0 } == [])
        let all = owners.withLock { $0 }
        #expect(all.count == tasks * lookups - calls.value / 5)
        #expect(calls.value == tasks * lookups)
        // One part per lookup, failed ones included, and each owner's deferred lookups find its own.
        #expect(made.value == tasks * lookups)
        #expect(Set(all.map { ObjectIdentifier($0.part) }).count == all.count)
        let strays = try all.filter { owner in
            try owner.lazyPart.value !== owner.part || owner.makePart() !== owner.part
        }
        #expect(strays.isEmpty)
        // Reading them made nothing: each found its lookup's part.
        #expect(made.value == tasks * lookups)
    }
}

/// A registry whose `sessionOwner` is an async transient that makes its graph-scoped `sessionPart` (counted in
/// `made`), suspends, then fails when `failing` says so of its call's number (counted in `calls`, from 1).
private func suspendingOwnerRegistry(
    made: Counter, calls: Counter, failing: @escaping @Sendable (Int) -> Bool
) throws -> RouteRegistry {
    try sealedRegistry { registry in
        try registry.register(.sessionPart) { _ in
            made.increment()
            return SessionPartImpl()
        }.scope(.graph)
        try registry.registerAsync(.sessionOwner) { r async throws in
            let part = try r.resolve(.sessionPart)
            await Task.yield()
            if failing(calls.increment()) { throw Boom() }
            return SessionOwnerImpl(
                part: part, lazyPart: try r.lazy(.sessionPart), makePart: try r.provider(.sessionPart))
        }
    }
}
