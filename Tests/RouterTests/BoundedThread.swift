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
    final class Job: @unchecked Sendable {
        // @unchecked: `body` and `done` are set before the thread starts and are themselves thread-safe.
        let body: @Sendable () -> Void
        let done = DispatchSemaphore(value: 0)
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    let job = Job(body)
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    if let stackSize { pthread_attr_setstacksize(&attributes, stackSize) }
    #if canImport(Darwin)
        var thread: pthread_t?
    #else
        var thread = pthread_t()
    #endif
    let context = Unmanaged.passRetained(job).toOpaque()
    let status = pthread_create(
        &thread, &attributes,
        { raw in
            #if canImport(Darwin)
                let job = Unmanaged<Job>.fromOpaque(raw).takeRetainedValue()
            #else
                guard let raw else { return nil }
                let job = Unmanaged<Job>.fromOpaque(raw).takeRetainedValue()
            #endif
            job.body()
            job.done.signal()
            return nil
        }, context)
    guard status == 0 else {
        Unmanaged<Job>.fromOpaque(context).release()
        Issue.record("pthread_create failed with \(status)", sourceLocation: sourceLocation)
        return false
    }
    #if canImport(Darwin)
        guard let thread else { return false }
    #endif
    if job.done.wait(timeout: .now() + .seconds(bound)) == .timedOut {
        pthread_detach(thread)
        Issue.record("The scenario did not finish within \(bound) s: it hangs.", sourceLocation: sourceLocation)
        return false
    }
    // Joining also tells ThreadSanitizer that everything the thread wrote happened before what follows.
    pthread_join(thread, nil)
    return true
}
