#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The bookkeeping lock of the creation protocol, and the condition threads wait on for another
/// transaction's instance.
///
/// It guards who builds which shared instance (``CreationCell/owner``), provisional instances, who waits
/// for whom, and transaction groups. It is never held while user code runs: factories and preparations
/// run outside it, so a factory may wait for another thread's lookup of any other registration.
enum CreationCoordinator {
    // nonisolated(unsafe): the pointers are set once, here, and only ever passed to pthread calls, which
    // synchronise themselves.
    nonisolated(unsafe) private static let state:
        (mutex: UnsafeMutablePointer<pthread_mutex_t>, condition: UnsafeMutablePointer<pthread_cond_t>) = {
            let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
            pthread_mutex_init(mutex, nil)
            let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
            pthread_cond_init(condition, nil)
            return (mutex, condition)
        }()

    /// Runs `body` holding the lock. `body` must not call user code.
    static func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(state.mutex)
        defer { pthread_mutex_unlock(state.mutex) }
        return try body()
    }

    /// Waits until another thread calls ``wakeAll()``; call with the lock held.
    static func wait() {
        pthread_cond_wait(state.condition, state.mutex)
    }

    /// Wakes every waiting thread; call with the lock held.
    static func wakeAll() {
        pthread_cond_broadcast(state.condition)
    }
}
