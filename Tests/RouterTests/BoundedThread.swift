import Dispatch
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs `body` on a thread of its own and waits for it for at most `bound` seconds: a hang detector
/// for scenarios that could deadlock, not a speed test (the bound is far above any expected run time).
/// Records an issue and returns false when the thread did not finish in time (it is then left running).
///
/// - Parameters:
///   - stackSize: The new thread's stack size in bytes; the system default when nil.
///   - bound: How long to wait, in seconds.
///   - sourceLocation: Where to record the issue.
///   - body: The scenario.
/// - Returns: Whether the scenario finished within the bound.
@discardableResult
func finishesOnItsOwnThread(
    stackSize: Int? = nil, bound: Int = 10, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: @escaping @Sendable () -> Void
) -> Bool {
    let done = DispatchSemaphore(value: 0)
    guard
        let thread = spawnThread(
            stackSize: stackSize, sourceLocation: sourceLocation,
            {
                body()
                done.signal()
            })
    else { return false }
    if done.wait(timeout: .now() + .seconds(bound)) == .timedOut {
        pthread_detach(thread)
        Issue.record("The scenario did not finish within \(bound) s: it hangs.", sourceLocation: sourceLocation)
        return false
    }
    // Joining also tells ThreadSanitizer that everything the thread wrote happened before what follows.
    pthread_join(thread, nil)
    return true
}
