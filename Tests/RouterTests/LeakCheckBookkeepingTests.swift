import Router
import Testing

// Issue 16 item 9: a leak check keeps nothing once it has run.

struct LeakCheckBookkeepingTests {
    /// Waits until no leak check is pending, for at most ten minutes: a hang detector, not a speed test.
    /// The checks are tasks, and on a two-core machine the suite's long synchronous tests can hold both
    /// of Swift concurrency's threads for minutes (the random-graph test runs 150 s under
    /// ThreadSanitizer), so the bound is far above any such wait; a normal run returns in milliseconds.
    static func settle(_ registry: RouteRegistry) async throws {
        let deadline = ContinuousClock.now + .seconds(600)
        while registry.pendingLeakChecks > 0 && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(2))
        }
    }

    @Test func finishedLeakChecksAreForgottenSoManyOpenAndBackPairsKeepNothing() async throws {
        let registry = try sealedRegistry { try $0.register(.screen) { _ in ScreenImpl(title: "Page") } }
        registry.leakCheckDelay = .milliseconds(1)
        let stack = ScreenStack()
        var pendingAfterEachBatch: [Int] = []
        for _ in 0..<4 {
            for _ in 0..<1_000 {
                let route = try registry.route(to: .screen)
                try route.perform(presenter: stack)
                try route.remove()
            }
            // Without waitForLeakChecks, which would forget them itself.
            try await Self.settle(registry)
            pendingAfterEachBatch.append(registry.pendingLeakChecks)
        }
        #expect(pendingAfterEachBatch == [0, 0, 0, 0])
    }

    @Test func aPendingCheckIsCountedAndStillReportsALeak() async throws {
        let registry = try sealedRegistry { try $0.register(.screen) { _ in ScreenImpl(title: "Leaky") } }
        registry.leakCheckDelay = .milliseconds(5)
        let log = EventLog()
        registry.errorHandler = { log.record($0.code.description) }
        let route = try registry.route(to: .screen)
        let kept = try route.perform()
        try route.remove()
        #expect(registry.pendingLeakChecks <= 1)
        await registry.waitForLeakChecks()
        #expect(registry.pendingLeakChecks == 0)
        #expect(log.events == ["destinationLeaked"])
        _ = kept
    }
}
