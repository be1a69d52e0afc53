import Router
import Testing

// The registry reads its error handler for every failed lookup. Reading it must give back the closure that
// was set, not a new wrapper around it: when each read wrapped the stored closure again (and stored the
// wrapper back), every failure added frames to every later call, and a process with a handler died of a
// stack overflow after about 45,000 failed lookups.
struct ErrorHandlerRepeatedFailureTests {
    @Test func theErrorHandlerHearsEachOfAHundredThousandFailedLookups() {
        let heard = TestLocked(0)
        let failed = TestLocked(0)
        finishesOnItsOwnThread(bound: 300) {
            let registry = RouteRegistry()
            registry.errorHandler = { _ in heard.withLock { $0 += 1 } }
            do {
                try registry.seal()
            } catch {
                return
            }
            for _ in 0..<100_000 {
                do {
                    _ = try registry.makeDestination(to: .engine)
                } catch {
                    failed.withLock { $0 += 1 }
                }
            }
        }
        #expect(failed.withLock { $0 } == 100_000)
        #expect(heard.withLock { $0 } == 100_000)
    }
}
