import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Starts a detached thread with the given stack size (nil for the default) running `body`: for threads a
/// factory starts and waits for through a ``Signal``. (Scenarios that could hang run under
/// `finishesOnItsOwnThread`.)
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
