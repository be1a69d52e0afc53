import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a scenario that could hang on a thread of its own and waits for it with a generous bound: a hang
/// detector, not a speed test. A scenario still running after `seconds` is recorded as a failure and left
/// behind (its thread is leaked), so one hang fails one test instead of the whole suite.
///
/// - Parameters:
///   - stackSize: The scenario thread's stack size; nil for the platform default.
///   - seconds: How long to wait before calling it a hang.
///   - sourceLocation: Where a hang is reported.
///   - scenario: The code under test.
/// - Returns: Whether the scenario finished.
@discardableResult
func finishesWithoutHanging(
    stackSize: Int? = nil, seconds: Double = 20, sourceLocation: SourceLocation = #_sourceLocation,
    _ scenario: @escaping @Sendable () -> Void
) -> Bool {
    let done = DispatchSemaphore(value: 0)
    startThread(stackSize: stackSize) {
        scenario()
        done.signal()
    }
    if done.wait(timeout: .now() + seconds) == .timedOut {
        Issue.record("The scenario did not finish within \(seconds) s: it hangs.", sourceLocation: sourceLocation)
        return false
    }
    return true
}

/// Starts a detached thread with the given stack size (nil for the default) running `body`.
func startThread(stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) {
    final class Box: @unchecked Sendable {
        // @unchecked: written before the thread starts, read only by that thread.
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    if let stackSize { pthread_attr_setstacksize(&attributes, stackSize) }
    pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    let context = Unmanaged.passRetained(Box(body)).toOpaque()
    #if canImport(Darwin)
        var thread: pthread_t?
    #else
        var thread = pthread_t()
    #endif
    let status = pthread_create(
        &thread, &attributes,
        { raw in
            #if canImport(Darwin)
                let box = Unmanaged<Box>.fromOpaque(raw).takeRetainedValue()
            #else
                guard let raw else { return nil }
                let box = Unmanaged<Box>.fromOpaque(raw).takeRetainedValue()
            #endif
            box.body()
            return nil
        }, context)
    if status != 0 {
        Unmanaged<Box>.fromOpaque(context).release()
        Issue.record("pthread_create failed with \(status)")
    }
}

/// A one-shot signal between threads, with a bound on the wait so a broken scenario cannot hang a test.
final class Signal: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)

    func fire() { semaphore.signal() }

    /// Waits for `fire()`; returns false after `seconds`.
    @discardableResult
    func wait(seconds: Double = 10) -> Bool {
        semaphore.wait(timeout: .now() + seconds) == .success
    }
}
