#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A pthread mutex on the heap. Router uses pthread locks rather than `Synchronization.Mutex` so that
/// ThreadSanitizer sees every lock: the futex-based `Mutex` is invisible to it on Linux, and a test run
/// under `--sanitize=thread` would report the state it guards as racy.
// @safe: the pointer is allocated and initialised in `init`, destroyed and freed in `deinit`, and never
// leaves the class; every use is a pthread call on it.
@safe final class PThreadMutex: @unchecked Sendable {
    // @unchecked: the mutex is only touched through pthread calls, which synchronise themselves.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init(recursive: Bool = false) {
        unsafe mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        unsafe pthread_mutexattr_init(&attributes)
        if recursive {
            unsafe pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        }
        unsafe pthread_mutex_init(mutex, &attributes)
        unsafe pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        unsafe pthread_mutex_destroy(mutex)
        unsafe mutex.deallocate()
    }

    func lock() { unsafe pthread_mutex_lock(mutex) }
    func unlock() { unsafe pthread_mutex_unlock(mutex) }
}

/// State guarded by a lock, read and written only inside ``withLock(_:)``.
// @safe: its one unsafe construct, `state`'s unchecked exclusivity, holds by the lock (see `state`).
@safe final class Locked<State>: @unchecked Sendable {
    // @unchecked: `state` is only reached inside `withLock`, which holds `mutex`.
    private let mutex = PThreadMutex()
    /// Unchecked exclusivity: every access is inside `withLock`, under a mutex that is not recursive, so two
    /// accesses can never overlap (a nested `withLock` on the same thread would deadlock before reaching it);
    /// the runtime's check cost about 120 instructions per async lookup (`AsyncLookupBinding`'s list).
    @exclusivity(unchecked) private var state: State

    init(_ state: State) {
        unsafe self.state = state
    }

    func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        mutex.lock()
        defer { mutex.unlock() }
        return try unsafe body(&state)
    }
}
