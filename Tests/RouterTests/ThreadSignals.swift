import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A thread the tests started, to join or detach.
typealias SpawnedThread = pthread_t

/// Starts a joinable thread with the given stack size (nil for the default) running `body`; nil, with an
/// issue recorded, when the system refuses. The one place the tests create threads.
func spawnThread(
    stackSize: Int? = nil, sourceLocation: SourceLocation = #_sourceLocation, _ body: @escaping @Sendable () -> Void
) -> SpawnedThread? {
    final class Box: @unchecked Sendable {
        // @unchecked: written before the thread starts, read only by that thread.
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    if let stackSize { pthread_attr_setstacksize(&attributes, stackSize) }
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
    guard status == 0 else {
        Unmanaged<Box>.fromOpaque(context).release()
        Issue.record("pthread_create failed with \(status)", sourceLocation: sourceLocation)
        return nil
    }
    return thread
}

/// Starts a detached thread with the given stack size (nil for the default) running `body`: for threads a
/// factory starts and waits for through a ``Signal``. (Scenarios that could hang run under
/// `finishesOnItsOwnThread`.)
func startThread(stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) {
    if let thread = spawnThread(stackSize: stackSize, body) { pthread_detach(thread) }
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
