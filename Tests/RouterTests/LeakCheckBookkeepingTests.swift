import Router
import Testing

// Issue 16 item 9: a leak check keeps nothing once it has run.

struct LeakCheckBookkeepingTests {
    /// Waits until no leak check is pending, for at most a minute: a hang detector, not a speed test (the
    /// checks are tasks, and a loaded two-core machine running the suite in parallel can starve them).
    static func settle(_ registry: RouteRegistry) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
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
