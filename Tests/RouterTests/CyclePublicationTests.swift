import Foundation
import Router
import Testing

// A cycle of singletons closed by properties (B.back is C, C.next is B) is one group: it is published as
// soon as both factories and both preparations are done, whole, whatever the lookup that built it does
// afterwards (fails, or suspends). Issue 44.

private final class CycleB: @unchecked Sendable {
    // @unchecked: written once by its preparation, before the group is published.
    var back: CycleC?
}
private final class CycleC: @unchecked Sendable {
    // @unchecked: written once by its preparation, before the group is published.
    var next: CycleB?
}
private final class CycleA: Sendable {
    let b: CycleB
    init(b: CycleB) { self.b = b }
}

extension RoutableService where Destination == CycleA {
    fileprivate static var cycleA: Self { Self(declaring: CycleA.self) }
}
extension RoutableService where Destination == CycleB {
    fileprivate static var cycleB: Self { Self(declaring: CycleB.self) }
}
extension RoutableService where Destination == CycleC {
    fileprivate static var cycleC: Self { Self(declaring: CycleC.self) }
}

@Suite struct CyclePublicationTests {
    /// Singletons B ⇄ C, counting their factories, and a transient A that resolves B (and with it the
    /// whole cycle), then fails (`async`: an async factory that fails after a suspension).
    private func failingAfterCycle(bMade: Counter, cMade: Counter, async: Bool) throws -> RouteRegistry {
        let registry = RouteRegistry()
        try registry.register(.cycleB) { _ in
            bMade.increment()
            return CycleB()
        }.scope(.singleton).injecting(\.back, .cycleC)
        try registry.register(.cycleC) { _ in
            cMade.increment()
            return CycleC()
        }.scope(.singleton).injecting(\.next, .cycleB)
        if async {
            try registry.registerAsync(.cycleA) { r async throws in
                _ = try r.resolve(.cycleB)
                await Task.yield()
                throw Boom()
            }
        } else {
            try registry.register(.cycleA) { r in
                _ = try r.resolve(.cycleB)
                throw Boom()
            }
        }
        try registry.seal()
        return registry
    }

    /// What the registry holds after the failed lookup: each of B and C built once, and the pair
    /// consistent (B's C is the registry's C, whose B is the registry's B).
    private func expectWholeGroupKept(_ registry: RouteRegistry, bMade: Counter, cMade: Counter) throws {
        let c = try registry.makeDestination(to: .cycleC)
        let b = try registry.makeDestination(to: .cycleB)
        #expect(b.back === c)
        #expect(c.next === b)
        #expect(bMade.value == 1)
        #expect(cMade.value == 1)
        b.back = nil
        c.next = nil
    }

    @Test func aLookupThatFailsAfterCompletingASingletonCycleKeepsTheWholeCycle() throws {
        let (bMade, cMade) = (Counter(), Counter())
        let registry = try failingAfterCycle(bMade: bMade, cMade: cMade, async: false)
        #expect(throws: RouteError.self) { _ = try registry.makeDestination(to: .cycleA) }
        try expectWholeGroupKept(registry, bMade: bMade, cMade: cMade)
    }

    @Test func anAsyncLookupThatFailsAfterCompletingASingletonCycleKeepsTheWholeCycle() async throws {
        let (bMade, cMade) = (Counter(), Counter())
        let registry = try failingAfterCycle(bMade: bMade, cMade: cMade, async: true)
        await #expect(throws: RouteError.self) { _ = try await registry.makeDestinationAsync(to: .cycleA) }
        try expectWholeGroupKept(registry, bMade: bMade, cMade: cMade)
    }

    /// B's second preparation fails the first time, after B ⇄ C closed (C's preparation set C.next to B); a
    /// transient T swallows the failure and succeeds. The group never completed: it is dropped whole, and
    /// the next lookup builds B and C again, consistent.
    @Test func aCycleWhoseBuildFailsIsDroppedWholeEvenWhenTheLookupGoesOn() throws {
        let (bMade, cMade) = (Counter(), Counter())
        let bPrepared = Counter()
        let registry = RouteRegistry()
        try registry.register(.cycleB) { _ in
            bMade.increment()
            return CycleB()
        }.scope(.singleton).injecting(\.back, .cycleC)
            .preparing { _, _ in if bPrepared.increment() == 1 { throw Boom() } }
        try registry.register(.cycleC) { _ in
            cMade.increment()
            return CycleC()
        }.scope(.singleton).injecting(\.next, .cycleB)
        try registry.register(.cycleA) { r in
            _ = try? r.resolve(.cycleB)
            return CycleA(b: CycleB())
        }
        try registry.seal()
        _ = try registry.makeDestination(to: .cycleA)
        let c = try registry.makeDestination(to: .cycleC)
        let b = try registry.makeDestination(to: .cycleB)
        #expect(b.back === c)
        #expect(c.next === b)
        #expect(bMade.value == 2)
        #expect(cMade.value == 2)
        b.back = nil
        c.next = nil
    }

    /// An async lookup builds the cycle B ⇄ C, then suspends until `release` fires; meanwhile a synchronous
    /// lookup of B in another task (whose thread the pool needs: it may not wait for a suspended holder)
    /// gets the published B, the one the async lookup got, instead of `heldByAsyncLookup`.
    @Test func aSingletonCycleAnAsyncLookupCompletedIsPublishedWhileTheLookupIsSuspended() throws {
        let (bMade, cMade) = (Counter(), Counter())
        let built = Counter()
        let release = Signal()
        let registry = RouteRegistry()
        try registry.register(.cycleB) { _ in
            bMade.increment()
            return CycleB()
        }.scope(.singleton).injecting(\.back, .cycleC)
        try registry.register(.cycleC) { _ in
            cMade.increment()
            return CycleC()
        }.scope(.singleton).injecting(\.next, .cycleB)
        try registry.registerAsync(.cycleA) { r async throws in
            let b = try r.resolve(.cycleB)
            built.increment()
            // Suspended on something else: a signal the test fires once the other task has looked B up.
            await withCheckedContinuation { (resumed: CheckedContinuation<Void, Never>) in
                startThread {
                    release.wait(seconds: 15)
                    resumed.resume()
                }
            }
            return CycleA(b: b)
        }
        try registry.seal()
        let fromAsync = TestLocked<ObjectIdentifier?>(nil)
        let fromTask = TestLocked<Result<ObjectIdentifier, RouteError>?>(nil)
        asyncScenarioFinishes(width: 2, bound: 30) {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    let made = try? await registry.makeDestinationAsync(to: .cycleA)
                    fromAsync.withLock { $0 = made.map { ObjectIdentifier($0.b) } }
                }
                while built.value == 0 { await Task.yield() }
                group.addTask {
                    defer { release.fire() }
                    do {
                        let b = try registry.makeDestination(to: .cycleB)
                        fromTask.withLock { $0 = .success(ObjectIdentifier(b)) }
                    } catch let error as RouteError {
                        fromTask.withLock { $0 = .failure(error) }
                    } catch {}
                }
            }
        }
        let owner = try #require(fromAsync.withLock { $0 })
        let seen = try #require(fromTask.withLock { $0 })
        #expect(throws: Never.self) { try seen.get() }
        #expect((try? seen.get()) == owner)
        #expect(bMade.value == 1)
        #expect(cMade.value == 1)
        let b = try registry.makeDestination(to: .cycleB)
        b.back?.next = nil
        b.back = nil
    }
}
