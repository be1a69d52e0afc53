import Router
import Testing

// Issue 14 item 6 and issue 16 item 10: `seal()` racing registrations, other seals and a child's seal.

/// What one thread of a race saw, collected under a lock and checked once the threads are joined
/// (an `#expect` on a thread of its own would not be attributed to the test).
final class RaceLog: Sendable {
    private let storage = TestLocked<(landed: [String], rejected: [String], problems: [String])>(([], [], []))
    var landed: [String] { storage.withLock { $0.landed } }
    var rejected: [String] { storage.withLock { $0.rejected } }
    var problems: [String] { storage.withLock { $0.problems } }
    func land(_ name: String) { storage.withLock { $0.landed.append(name) } }
    func reject(_ name: String) { storage.withLock { $0.rejected.append(name) } }
    func problem(_ text: String) { storage.withLock { $0.problems.append(text) } }
}

struct SealingRaceTests {
    static let rounds = 200

    /// Runs `body` for each round, each on a thread of its own watched by a hang detector, and stops at
    /// the first round that hangs.
    static func repeatRounds(
        sourceLocation: SourceLocation = #_sourceLocation, _ body: @escaping @Sendable (Int) -> Void
    ) {
        for round in 0..<rounds {
            guard finishesOnItsOwnThread(sourceLocation: sourceLocation, { body(round) }) else { return }
        }
    }

    @Test func aRegistrationRacingSealEitherLandsInTheSealedTableOrThrowsRegistrationAfterSeal() {
        let log = RaceLog()
        let registrars = 2
        let perThread = 25
        Self.repeatRounds { round in
            let registry = RouteRegistry()
            let roundLog = RaceLog()
            ThreadGroup(count: registrars + 1).run { index in
                if index == 0 {
                    do { try registry.seal() } catch { roundLog.problem("seal threw \(error)") }
                    return
                }
                for number in 0..<perThread {
                    let name = "r\(index)-\(number)"
                    do {
                        try registry.register(.engine.named(name)) { _ in V8(horsepower: number) }
                        roundLog.land(name)
                    } catch let error as RouteError where error.code == .registrationAfterSeal {
                        roundLog.reject(name)
                    } catch {
                        roundLog.problem("register \(name) threw \(error)")
                    }
                }
            }
            for problem in roundLog.problems { log.problem("round \(round): \(problem)") }
            if !registry.isSealed { log.problem("round \(round): not sealed") }
            if roundLog.landed.count + roundLog.rejected.count != registrars * perThread {
                log.problem("round \(round): \(roundLog.landed.count) landed, \(roundLog.rejected.count) rejected")
            }
            for name in roundLog.landed {
                do {
                    _ = try registry.makeDestination(to: .engine.named(name))
                    log.land(name)
                } catch {
                    log.problem("round \(round): \(name) registered without error but missing: \(error)")
                }
            }
            for name in roundLog.rejected {
                if (try? registry.makeDestinationIfRegistered(to: .engine.named(name))) != nil {
                    log.problem("round \(round): \(name) was rejected but is in the table")
                }
                log.reject(name)
            }
        }
        #expect(log.problems == [])
        #expect(log.landed.count + log.rejected.count == Self.rounds * registrars * perThread)
    }

    @Test func twoThreadsSealingAtOnceBothReturnAndBuildTheEagerSingletonOnce() {
        let log = RaceLog()
        Self.repeatRounds { round in
            let built = Counter()
            let registry = RouteRegistry()
            do {
                try registry.register(.engine) { _ in
                    built.increment()
                    return V8()
                }.scope(.eagerSingleton)
            } catch {
                log.problem("round \(round): register threw \(error)")
            }
            ThreadGroup(count: 2).run { _ in
                do { try registry.seal() } catch { log.problem("round \(round): seal threw \(error)") }
                // Whichever call returns first, the registry is sealed by then.
                if !registry.isSealed { log.problem("round \(round): seal returned before sealing") }
            }
            if built.value != 1 {
                log.problem("round \(round): the eager singleton was built \(built.value) times")
            }
        }
        #expect(log.problems == [])
    }

    @Test func aChildSealingWhileItsParentSealsSeesTheSealedParentOrGetsNotSealed() {
        let log = RaceLog()
        let outcomes = TestLocked<(sawParent: Int, notSealed: Int)>((0, 0))
        Self.repeatRounds { round in
            let parent = RouteRegistry()
            let child = RouteRegistry(parent: parent)
            do {
                try parent.register(.engine) { _ in V8(horsepower: round) }.scope(.singleton)
                try child.register(.car) { r in
                    CarImpl(engine: try r.resolve(.engine))
                }.dependencies(.initializer(.engine))
            } catch {
                log.problem("round \(round): register threw \(error)")
            }
            ThreadGroup(count: 2).run { index in
                if index == 0 {
                    do { try parent.seal() } catch { log.problem("round \(round): parent seal threw \(error)") }
                    return
                }
                do {
                    try child.seal()
                    outcomes.withLock { $0.sawParent += 1 }
                } catch let error as RouteError where error.code == .notSealed {
                    outcomes.withLock { $0.notSealed += 1 }
                } catch {
                    log.problem("round \(round): child seal threw \(error)")
                }
            }
            do {
                // After `notSealed` the child is still open and seals now that the parent has.
                try child.seal()
                let car = try child.makeDestination(to: .car)
                if car.engine !== (try parent.makeDestination(to: .engine)) {
                    log.problem("round \(round): the child made its own engine")
                }
            } catch {
                log.problem("round \(round): after the race: \(error)")
            }
        }
        #expect(log.problems == [])
        let seen = outcomes.withLock { $0 }
        #expect(seen.sawParent + seen.notSealed == Self.rounds)
    }

    @Test func sealingFromAnEagerSingletonsFactoryOnTheSealingThreadIsStillSealInProgress() throws {
        let registry = RouteRegistry()
        try registry.register(.radio) { [weak registry] _ in
            try registry?.seal()
            return RadioImpl()
        }.scope(.eagerSingleton)
        let error = #expect(throws: RouteError.self) { try registry.seal() }
        #expect(error?.code == .sealInProgress)
        #expect(
            error?.reason
                == "Sealing built the eager singleton RoutableService<Radio>, and it failed: seal() was called while the registry was already sealing."
        )
        #expect(!registry.isSealed)
    }
}
