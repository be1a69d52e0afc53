import Foundation
import Router
import Testing

// Adversarial tests of "shared instances are built exactly once and lookups never deadlock", written the
// way user code breaks such promises: factories that block on other threads, lookups from inside
// factories, resets racing lookups. Every scenario that could hang runs under `finishesOnItsOwnThread`.

protocol Slow: AnyObject, Sendable { var name: String { get } }
final class SlowImpl: Slow, Sendable {
    let name: String
    init(_ name: String) { self.name = name }
}
extension RoutableService where Destination == any Slow {
    static var slow: Self { Self(declaring: (any Slow).self) }
}

/// A custom-scoped pair that points at each other: a chat session and its message list.
protocol Session: AnyObject { var messages: (any MessageList)? { get set } }
protocol MessageList: AnyObject { var session: (any Session)? { get set } }
final class SessionImpl: Session { var messages: (any MessageList)? }
final class MessageListImpl: MessageList { var session: (any Session)? }
extension RoutableService where Destination == any Session {
    static var session: Self { Self(declaring: (any Session).self) }
}
extension RoutableService where Destination == any MessageList {
    static var messageList: Self { Self(declaring: (any MessageList).self) }
}

struct SharedInstanceGuaranteeTests {
    // MARK: No deadlock: factories that wait for other threads

    @Test func aSingletonFactoryMayWaitForAnotherThreadsLookupInAnotherRegistry() throws {
        let other = try sealedRegistry { registry in
            try registry.register(.slow.named("b")) { _ in SlowImpl("b") }.scope(.singleton)
        }
        let registry = try sealedRegistry { registry in
            try registry.register(.slow.named("a")) { _ in
                let seen = TestLocked<String?>(nil)
                let done = Signal()
                startThread {
                    seen.withLock { $0 = try? other.makeDestination(to: .slow.named("b")).name }
                    done.fire()
                }
                // Bounded: on an engine that deadlocks here, the wait runs out and the name says so.
                return SlowImpl(done.wait() ? "a+" + (seen.withLock { $0 } ?? "nothing") : "timed out")
            }.scope(.singleton)
        }
        finishesOnItsOwnThread(bound: 20) {
            #expect((try? registry.makeDestination(to: .slow.named("a")).name) == "a+b")
        }
    }

    @Test func aSingletonFactoryMayWaitForAnotherThreadsLookupOfAnotherRegistration() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.slow.named("b")) { _ in SlowImpl("b") }.scope(.singleton)
        }
        let outer = try sealedRegistry(parent: registry) { outer in
            try outer.register(.slow.named("a")) { _ in
                let seen = TestLocked<String?>(nil)
                let done = Signal()
                startThread {
                    seen.withLock { $0 = try? outer.makeDestination(to: .slow.named("b")).name }
                    done.fire()
                }
                return SlowImpl(done.wait() ? "a+" + (seen.withLock { $0 } ?? "nothing") : "timed out")
            }.scope(.singleton)
        }
        finishesOnItsOwnThread(bound: 20) {
            #expect((try? outer.makeDestination(to: .slow.named("a")).name) == "a+b")
        }
    }

    @Test func aTransientFactoryThatTouchedAWeakSingletonMayWaitForABackgroundLookup() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.slow.named("weak")) { _ in SlowImpl("weak") }.scope(.weakSingleton)
            try registry.register(.slow.named("other")) { _ in SlowImpl("other") }.scope(.singleton)
            try registry.register(.slow.named("outer")) { r in
                let held = try r.resolve(.slow.named("weak"))
                let seen = TestLocked<[String]>([])
                let done = Signal()
                startThread {
                    // Another shared instance nobody has built yet, and the weak one this lookup holds.
                    let other = try? registry.makeDestination(to: .slow.named("other"))
                    let again = try? registry.makeDestination(to: .slow.named("weak"))
                    seen.withLock { $0 = [other?.name ?? "nothing", again === held ? "same" : "another"] }
                    done.fire()
                }
                guard done.wait() else { return SlowImpl("timed out") }
                return SlowImpl(seen.withLock { $0 }.joined(separator: "+"))
            }
        }
        finishesOnItsOwnThread(bound: 20) {
            #expect((try? registry.makeDestination(to: .slow.named("outer")).name) == "other+same")
        }
    }

    @Test func aFactoryHoppingSynchronouslyToAQueueThatIsInsideALookupCompletes() throws {
        let queue = DispatchQueue(label: "busy")
        let yStarted = Signal()
        let registry = try sealedRegistry { registry in
            try registry.register(.slow.named("x")) { _ in SlowImpl("x") }.scope(.singleton)
            try registry.register(.slow.named("y")) { _ in
                yStarted.fire()
                queue.sync {}  // waits for the queue, which is inside a lookup of x
                return SlowImpl("y")
            }.scope(.singleton)
        }
        queue.async {
            yStarted.wait()
            _ = try? registry.makeDestination(to: .slow.named("x"))
        }
        finishesOnItsOwnThread(bound: 20) {
            #expect((try? registry.makeDestination(to: .slow.named("y")).name) == "y")
        }
    }

    @Test func readingALazyWhileALookupReadsItOnAnotherThreadNeitherDeadlocksNorBuildsTwice() throws {
        for _ in 0..<20 {
            let built = Counter()
            let registry = try sealedRegistry { registry in
                try registry.register(.slow.named("lazy")) { _ in
                    built.increment()
                    usleep(2_000)
                    return SlowImpl("lazy")
                }.scope(.singleton)
            }
            let lazy = try registry.lazy(.slow.named("lazy"))
            let user = try sealedRegistry(parent: registry) { child in
                try child.register(.slow.named("user")) { _ in
                    // Inside a shared build, then the Lazy: the order that inverts a Lazy-then-build lock.
                    usleep(3_000)
                    return SlowImpl("user of " + ((try? lazy.value.name) ?? "nothing"))
                }.scope(.singleton)
            }
            finishesOnItsOwnThread(bound: 20) {
                onThreads(2) { index in
                    if index == 0 {
                        usleep(1_000)
                        #expect((try? lazy.value.name) == "lazy")
                    } else {
                        #expect((try? user.makeDestination(to: .slow.named("user")).name) == "user of lazy")
                    }
                }
            }
            #expect(built.value == 1)
        }
    }

    @Test func differentSingletonsAreBuiltInParallelByEightThreads() throws {
        // Each factory waits until all eight are running at once: that only happens if the creations of
        // different registrations run in parallel (one lock around creation would let one in at a time).
        let running = Counter()
        let allRunning = Signal()
        let keys = (0..<8).map { RoutableService.slow.named("parallel\($0)") }
        let registry = try sealedRegistry { registry in
            for key in keys {
                try registry.register(key) { _ in
                    if running.increment() == keys.count {
                        for _ in keys { allRunning.fire() }
                    }
                    return SlowImpl(allRunning.wait(seconds: 10) ? "together" : "alone")
                }.scope(.singleton)
            }
        }
        let names = TestLocked<[String]>([])
        finishesOnItsOwnThread(bound: 30) {
            onThreads(keys.count) { index in
                let name = (try? registry.makeDestination(to: keys[index]).name) ?? "failed"
                names.withLock { $0.append(name) }
            }
        }
        #expect(names.withLock { $0 } == Array(repeating: "together", count: keys.count))
    }

    // MARK: Exactly once, re-entrancy included

    @Test func aSingletonFactoryLookingUpThroughTheRegistryIntoACycleBackToItselfRunsOnce() throws {
        let calls = Calls()
        let registry = RouteRegistry()
        try registry.register(.nodeA) { _ in
            calls.a.increment()
            // The registry, not `r`: a nested lookup that joins this one.
            return AImpl(b: try registry.makeDestination(to: .nodeB))
        }.scope(.singleton)
        try registry.register(.nodeB) { _ in BImpl() }.injecting(\.a, .nodeA)
        try registry.seal()
        let a = try registry.makeDestination(to: .nodeA)
        #expect(a.b?.a === a)
        #expect(try registry.makeDestination(to: .nodeA) === a)
        #expect(calls.a.value == 1)
        breakCycles(a)
    }

    @Test func aSingletonFactoryAskingTheRegistryForItselfIsACycleErrorNotARecursion() throws {
        let calls = Calls()
        let registry = RouteRegistry()
        try registry.register(.nodeA) { _ in
            calls.a.increment()
            return AImpl(b: try registry.makeDestination(to: .nodeA).b)
        }.scope(.singleton)
        try registry.seal()
        let error = #expect(throws: RouteError.self) { try registry.makeDestination(to: .nodeA) }
        #expect(error?.code == .circularDependency)
        #expect(error?.path == ["NodeA", "NodeA"])
        #expect(calls.a.value == 1)
    }

    @Test func aSingletonReadingItsOwnLazyOrProviderWhileBuildingIsACycleErrorAndRunsOnce() throws {
        let calls = Calls()
        let registry = try sealedRegistry { registry in
            try registry.register(.nodeA.named("lazy")) { r in
                calls.a.increment()
                return AImpl(b: try r.lazy(.nodeA.named("lazy")).value.b)
            }.scope(.singleton)
            try registry.register(.nodeA.named("provider")) { r in
                calls.b.increment()
                return AImpl(b: try r.provider(.nodeA.named("provider"))().b)
            }.scope(.singleton)
        }
        for key in [RoutableService.nodeA.named("lazy"), .nodeA.named("provider")] {
            let error = #expect(throws: RouteError.self) { try registry.makeDestination(to: key) }
            #expect(error?.code == .circularDependency)
        }
        #expect(calls.a.value == 1)
        #expect(calls.b.value == 1)
    }

    // MARK: Threads that really wait on each other

    @Test func twoThreadsEnteringAnInitializerCycleFromOppositeSidesGetTypedErrorsNotAHang() throws {
        for _ in 0..<10 {
            let aStarted = Signal()
            let bStarted = Signal()
            let calls = Calls()
            let overlapped = TestLocked<[Bool]>([])
            let registry = try sealedRegistry { registry in
                try registry.register(.nodeA) { r in
                    // The first build of each waits until the other has started on the other thread, so
                    // each thread owns one half of the cycle when it asks for the other half.
                    if calls.a.increment() == 1 {
                        aStarted.fire()
                        let seen = bStarted.wait(seconds: 2)
                        overlapped.withLock { $0.append(seen) }
                    }
                    return AImpl(b: try r.resolve(.nodeB))
                }.scope(.singleton)
                try registry.register(.nodeB) { r in
                    if calls.b.increment() == 1 {
                        bStarted.fire()
                        let seen = aStarted.wait(seconds: 2)
                        overlapped.withLock { $0.append(seen) }
                    }
                    return BImpl(a: try r.resolve(.nodeA))
                }.scope(.singleton)
            }
            let codes = TestLocked<[RouteError.Code]>([])
            finishesOnItsOwnThread(bound: 20) {
                onThreads(2) { index in
                    do {
                        _ =
                            try index == 0
                            ? registry.makeDestination(to: .nodeA) as AnyObject : registry.makeDestination(to: .nodeB)
                    } catch let error as RouteError {
                        codes.withLock { $0.append(error.code) }
                    } catch {}
                }
            }
            #expect(codes.withLock { $0 } == [.circularDependency, .circularDependency])
            // Both factories ran at once, one on each thread: each thread owned half of the cycle.
            #expect(overlapped.withLock { $0 } == [true, true])
        }
    }

    @Test func twoThreadsClosingAPropertyCycleOfSingletonsFromOppositeSidesShareOnePair() throws {
        for _ in 0..<20 {
            let calls = Calls()
            let registry = try sealedRegistry { registry in
                try registry.register(.nodeA) { _ in
                    calls.a.increment()
                    return AImpl(b: nil)
                }.scope(.singleton).injecting(\.b1, .nodeB)
                try registry.register(.nodeB) { _ in
                    calls.b.increment()
                    return BImpl()
                }.scope(.singleton).injecting(\.a, .nodeA)
            }
            let pairs = TestLocked<[String]>([])
            finishesOnItsOwnThread(bound: 20) {
                onThreads(2) { index in
                    if index == 0, let a = try? registry.makeDestination(to: .nodeA), let b = a.b1 {
                        pairs.withLock { $0.append("\(ObjectIdentifier(a)) \(ObjectIdentifier(b)) \(b.a === a)") }
                    } else if index == 1, let b = try? registry.makeDestination(to: .nodeB), let a = b.a {
                        pairs.withLock { $0.append("\(ObjectIdentifier(a)) \(ObjectIdentifier(b)) \(a.b1 === b)") }
                    }
                }
            }
            let seen = pairs.withLock { $0 }
            #expect(seen.count == 2)
            #expect(Set(seen).count == 1)
            #expect(seen.first?.hasSuffix("true") == true)
            #expect(calls.a.value == 1)
            #expect(calls.b.value == 1)
            let a = try registry.makeDestination(to: .nodeA)
            a.b1?.a = nil
        }
    }

    // MARK: Reset and close are atomic for a lookup

    @Test func resetRacingLookupsOfACustomScopedCycleNeverMixesGenerations() throws {
        let scope = CustomScope("chat")
        let registry = try sealedRegistry { registry in
            try registry.register(.session) { _ in
                // Between the session's cell and the message list's: widens the window in which a reset
                // lands in the middle of a lookup.
                usleep(50)
                return SessionImpl()
            }.scope(.custom(scope)).injecting(\.messages, .messageList)
            try registry.register(.messageList) { _ in MessageListImpl() }.scope(.custom(scope)).injecting(
                \.session, .session)
        }
        let mixed = Counter()
        let stop = TestLocked(false)
        // A generous bound: under ThreadSanitizer, with the whole suite running beside it on two cores, the
        // thousand lookups (each sleeping 50 µs) against a resetting thread have taken over 20 s.
        let finished = finishesOnItsOwnThread(bound: 90) {
            onThreads(2) { index in
                if index == 0 {
                    for _ in 0..<1_000 {
                        guard let session = try? registry.makeDestination(to: .session) else { continue }
                        if session.messages?.session !== session { mixed.increment() }
                    }
                    stop.withLock { $0 = true }
                } else {
                    while !stop.withLock({ $0 }) { scope.reset() }
                }
            }
        }
        #expect(mixed.value == 0)
        // The scenario's threads still run if it did not finish: what follows would race them.
        guard finished else { return }
        let session = try registry.makeDestination(to: .session)
        #expect(session.messages?.session === session)
        #expect(try registry.makeDestination(to: .messageList) === session.messages)
        scope.close()
    }

    // MARK: Keys cannot confuse types

    @Test func aKeyDeclaredWithASubclassMetatypeCannotReachAnotherTypesRegistration() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.animal) { _ in Dog() }
        }
        let animal = try registry.makeDestination(to: .animal)
        #expect(animal is Dog)
        let error = #expect(throws: RouteError.self) { try registry.makeDestination(to: .cat) }
        #expect(error?.code == .unregisteredKey)
        #expect(error?.key == "RoutableService<Cat>")
        #expect(RoutableService.animal != RoutableService<Animal>(declaring: Animal.self) ? false : true)
    }

    @Test func namedKeysAreEqualByTheirTextAndPrintIt() throws {
        #expect(RoutableService.slow.named("fast") == .slow.named("fast"))
        #expect(RoutableService.slow.named("fast") != .slow.named("fast "))
        let registry = try sealedRegistry { _ in }
        let error = #expect(throws: RouteError.self) { try registry.makeDestination(to: .slow.named("fast")) }
        #expect(error?.key == "RoutableService<Slow>[\"fast\"]")
    }
}

class Animal {}
final class Cat: Animal {}
final class Dog: Animal {}
extension RoutableService where Destination == Animal {
    /// Declared, carelessly, with a subclass metatype: the key is still `RoutableService<Animal>`.
    static var animal: Self { Self(declaring: Cat.self) }
}
extension RoutableService where Destination == Cat {
    static var cat: Self { Self(declaring: Cat.self) }
}
