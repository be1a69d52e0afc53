import Foundation
import Router
import Testing

// Lookups on several threads that meet at shared instances, written as an app's launch code meets them:
// a slow singleton several screens need, singletons that point at each other, a failure in the middle
// of a cross-thread cycle. Each scenario runs under a hang detector and is repeated, because the
// interleaving it needs is likely, not certain; the interleaving explorer (CreationMachineExplorerTests)
// covers every interleaving of the protocol itself.

/// A node of the race scenarios: a name, and the nodes its properties point at.
protocol RaceNode: AnyObject, Sendable {
    var name: String { get }
    var next: (any RaceNode)? { get set }
    var label: String? { get set }
}

final class RaceNodeImpl: RaceNode, @unchecked Sendable {
    // @unchecked: `next` is written by the node's preparation before the node is published, and read
    // after the lookup that returned the node; the engine orders the two.
    let name: String
    var next: (any RaceNode)?
    var label: String?
    init(_ name: String) { self.name = name }
}

extension RoutableService where Destination == any RaceNode {
    static func race(_ name: String) -> Self { Self(declaring: (any RaceNode).self).named(name) }
}

struct CreationRaceTests {
    /// The pattern behind a false cycle: thread 1's transient needs slow singleton X, then singleton C;
    /// thread 2 builds C, which needs X. Waits run one way only (2 waits for 1, then 1 for 2 after X is
    /// published), so nothing is a cycle, and both lookups must succeed with one X and one C.
    @Test func twoLookupsThatWaitForEachOtherInTurnAreNotACycle() throws {
        for _ in 0..<20 {
            let xStarted = Signal()
            let releaseX = Signal()
            let xBuilt = Counter()
            let cBuilt = Counter()
            let registry = try sealedRegistry { registry in
                try registry.register(.race("x")) { _ in
                    xBuilt.increment()
                    xStarted.fire()
                    releaseX.wait()
                    return RaceNodeImpl("x")
                }.scope(.singleton)
                try registry.register(.race("c")) { r in
                    let node = RaceNodeImpl("c")
                    node.next = try r.resolve(.race("x"))
                    cBuilt.increment()
                    return node
                }.scope(.singleton)
                try registry.register(.race("y")) { r in
                    _ = try r.resolve(.race("x"))
                    let node = RaceNodeImpl("y")
                    node.next = try r.resolve(.race("c"))
                    return node
                }
            }
            let results = TestLocked<[String]>([])
            finishesOnItsOwnThread(bound: 30) {
                let done = Signal()
                startThread {
                    let outcome = Result { try registry.makeDestination(to: .race("y")) }
                    results.withLock { $0.append("y: " + describe(outcome)) }
                    done.fire()
                }
                xStarted.wait()
                let second = Signal()
                startThread {
                    let outcome = Result { try registry.makeDestination(to: .race("c")) }
                    results.withLock { $0.append("c: " + describe(outcome)) }
                    second.fire()
                }
                // Thread 2 is now (very likely) waiting for X; release X so that thread 1 goes on to C.
                Thread.sleep(forTimeInterval: 0.02)
                releaseX.fire()
                done.wait(seconds: 20)
                second.wait(seconds: 20)
            }
            #expect(results.withLock { $0.sorted() } == ["c: c", "y: y"])
            #expect(xBuilt.value == 1)
            #expect(cBuilt.value == 1)
        }
    }

    /// A property cycle whose two singletons are built on two threads merges the two lookups; one of them
    /// then fails. Whatever the other built after that must not stay owned by a finished lookup: later
    /// lookups of every registration involved finish (and build afresh what was forgotten).
    @Test func aFailedCrossThreadGroupLeavesNothingOwned() throws {
        for round in 0..<5 {
            let aIn = Gate()
            let bIn = Gate()
            let merged = Gate()
            let firstFailed = Gate()
            let failOnce = Counter()
            let registry = try sealedRegistry { registry in
                try registry.register(.race("a")) { _ in
                    aIn.fire()
                    bIn.wait()
                    return RaceNodeImpl("a")
                }.scope(.singleton).injecting(\.next, .race("b")).preparing { _, _ in
                    // Runs after `next` was set, that is after the two lookups merged.
                    merged.wait()
                    if failOnce.increment() == 1 { throw Boom() }
                }
                try registry.register(.race("b")) { _ in
                    bIn.fire()
                    aIn.wait()
                    return RaceNodeImpl("b")
                }.scope(.singleton).preparing { b, r in
                    b.next = try r.resolve(.race("a"))
                    merged.fire()
                    // Build another singleton once the other side has failed.
                    firstFailed.wait()
                    _ = try r.resolve(.race("d"))
                }
                try registry.register(.race("d")) { _ in RaceNodeImpl("d") }.scope(.singleton)
            }
            let finished = finishesOnItsOwnThread(bound: 30) {
                let bothDone = Signal()
                startThread {
                    _ = try? registry.makeDestination(to: .race("b"))
                    bothDone.fire()
                }
                _ = try? registry.makeDestination(to: .race("a"))
                firstFailed.fire()
                bothDone.wait(seconds: 20)
            }
            guard finished else { return }
            // Every registration is reachable again, from a thread that took no part.
            finishesOnItsOwnThread(bound: 20) {
                #expect((try? registry.makeDestination(to: .race("d")).name) == "d", "round \(round)")
                let a = try? registry.makeDestination(to: .race("a"))
                let b = try? registry.makeDestination(to: .race("b"))
                #expect(a?.name == "a" && b?.name == "b", "round \(round)")
                #expect(a?.next === b && b?.next === a, "round \(round)")
            }
        }
    }

    /// A cycle of three singletons linked by properties (a.next = b, b.next = c, c.next = a), each looked
    /// up first on a thread of its own: three lookups each wait for the next, which is a cycle of waits
    /// the engine must resolve by joining all three, not report as a circular dependency.
    @Test func aPropertyCycleEnteredFromThreeThreadsIsBuiltOnce() throws {
        for _ in 0..<10 {
            let names = ["a", "b", "c"]
            let built = Counter()
            let arrived = Counter()
            let allIn = Signal()
            let registry = try sealedRegistry { registry in
                for (index, name) in names.enumerated() {
                    let next = names[(index + 1) % names.count]
                    try registry.register(.race(name)) { _ in
                        built.increment()
                        // Every factory is running before any preparation asks for the next node.
                        if arrived.increment() == names.count { allIn.fire() }
                        allIn.wait(seconds: 2)
                        allIn.fire()
                        return RaceNodeImpl(name)
                    }.scope(.singleton).injecting(\.next, .race(next))
                }
            }
            let results = TestLocked<[String: String]>([:])
            finishesOnItsOwnThread(bound: 30) {
                onThreads(names.count) { index in
                    let outcome = Result { try registry.makeDestination(to: .race(names[index])) }
                    results.withLock { $0[names[index]] = describe(outcome) }
                }
            }
            #expect(results.withLock { $0 } == ["a": "a", "b": "b", "c": "c"])
            #expect(built.value == 3)
            let a = try registry.makeDestination(to: .race("a"))
            #expect(a.next?.next?.next === a)
        }
    }

    /// An initializer-only cycle a(b), b(c), c(a) of singletons, each looked up on a thread of its own
    /// once all three factories run: it cannot be built, and every lookup says so with
    /// `circularDependency` (not a factory failure, not a hang).
    @Test func aThreeThreadInitializerCycleIsACircularDependencyForEveryLookup() throws {
        for _ in 0..<10 {
            let names = ["a", "b", "c"]
            let arrived = Counter()
            let allIn = Gate()
            let registry = try sealedRegistry { registry in
                for (index, name) in names.enumerated() {
                    let next = names[(index + 1) % names.count]
                    try registry.register(.race(name)) { r in
                        if arrived.increment() == names.count { allIn.fire() }
                        allIn.wait(seconds: 2)
                        let node = RaceNodeImpl(name)
                        node.next = try r.resolve(.race(next))
                        return node
                    }.scope(.singleton)
                }
            }
            let results = TestLocked<[String: String]>([:])
            finishesOnItsOwnThread(bound: 30) {
                onThreads(names.count) { index in
                    let outcome = Result { try registry.makeDestination(to: .race(names[index])) }
                    results.withLock { $0[names[index]] = describe(outcome) }
                }
            }
            #expect(
                results.withLock { $0 } == [
                    "a": "circularDependency", "b": "circularDependency", "c": "circularDependency",
                ])
        }
    }

    /// A custom-scoped pair (a.next = b, b.next = a) looked up from both sides while the scope is reset:
    /// both lookups began in one generation, so both finish in it. Neither builds a second instance of
    /// the other's registration, and each returns a consistent pair.
    @Test func aResetDuringACrossThreadCycleDoesNotMixGenerations() throws {
        for _ in 0..<10 {
            let session = CustomScope("session")
            let bIn = Gate()
            let xAsked = Gate()
            let aBuilt = Counter()
            let registry = try sealedRegistry { registry in
                try registry.register(.race("a")) { _ in
                    aBuilt.increment()
                    return RaceNodeImpl("a")
                }.scope(.custom(session)).injecting(\.next, .race("b"))
                try registry.register(.race("b")) { _ in
                    bIn.fire()
                    // The lookup of a is (very likely) waiting for this b by now; reset under it.
                    xAsked.wait()
                    Thread.sleep(forTimeInterval: 0.02)
                    session.reset()
                    return RaceNodeImpl("b")
                }.scope(.custom(session)).injecting(\.next, .race("a"))
            }
            let results = TestLocked<[String: any RaceNode]>([:])
            finishesOnItsOwnThread(bound: 30) {
                let yDone = Gate()
                startThread {
                    if let b = try? registry.makeDestination(to: .race("b")) { results.withLock { $0["b"] = b } }
                    yDone.fire()
                }
                bIn.wait()
                xAsked.fire()
                if let a = try? registry.makeDestination(to: .race("a")) { results.withLock { $0["a"] = a } }
                yDone.wait(seconds: 20)
            }
            let (a, b) = results.withLock { ($0["a"], $0["b"]) }
            #expect(a?.next?.next === a, "a's b points back at a")
            #expect(b?.next?.next === b, "b's a points back at b")
            #expect(a === b?.next, "one a in the generation both lookups began in")
            #expect(aBuilt.value == 1)
        }
    }

    /// A singleton whose factory closes a property cycle (B's factory asks for A while A's preparation
    /// is asking for B) must not be visible to other threads before the lookup has prepared A: a reader
    /// that gets B sees A fully prepared through B.next.
    @Test func aSingletonClosingACycleInItsFactoryIsNotPublishedBeforeTheCycleIsPrepared() throws {
        for _ in 0..<20 {
            let bBuilt = Signal()
            let releaseA = Signal()
            let registry = try sealedRegistry { registry in
                try registry.register(.race("a")) { _ in RaceNodeImpl("a") }
                    .scope(.graph)
                    .preparing { a, r in
                        a.next = try r.resolve(.race("b"))
                        bBuilt.fire()
                        // A's preparation is still running: B must not be published yet.
                        releaseA.wait(seconds: 2)
                        a.label = "prepared"
                    }
                try registry.register(.race("b")) { r in
                    let b = RaceNodeImpl("b")
                    b.next = try r.resolve(.race("a"))
                    return b
                }.scope(.singleton)
            }
            let seen = TestLocked<String?>(nil)
            finishesOnItsOwnThread(bound: 30) {
                let done = Signal()
                startThread {
                    _ = try? registry.makeDestination(to: .race("a"))
                    done.fire()
                }
                bBuilt.wait()
                let reader = Signal()
                startThread {
                    // Either waits for the first lookup or builds B itself; never sees B half-made.
                    let b = try? registry.makeDestination(to: .race("b"))
                    seen.withLock { $0 = b?.next?.label }
                    reader.fire()
                }
                Thread.sleep(forTimeInterval: 0.02)
                releaseA.fire()
                done.wait(seconds: 20)
                reader.wait(seconds: 20)
            }
            #expect(seen.withLock { $0 } == "prepared")
        }
    }
}

/// A signal that stays open once fired: every wait after the first `open()` returns at once.
private final class Gate: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)

    func fire() { semaphore.signal() }

    /// Waits until the gate is open (at most `seconds`), and leaves it open.
    @discardableResult
    func wait(seconds: Double = 10) -> Bool {
        guard semaphore.wait(timeout: .now() + seconds) == .success else { return false }
        semaphore.signal()
        return true
    }
}

/// A lookup's outcome as a test compares it: the node's name, or the error's code.
private func describe(_ outcome: Result<any RaceNode, any Error>) -> String {
    switch outcome {
    case .success(let node): return node.name
    case .failure(let error as RouteError): return "\(error.code)"
    case .failure(let error): return "\(error)"
    }
}
