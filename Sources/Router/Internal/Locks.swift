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
        return unsafe try body(&state)
    }
}

/// State guarded by a lock, with a condition that threads holding the lock wait on: the creation
/// protocol's machine and its parked async lookups (``CreationCoordinator``).
///
/// `@safe`: the mutex and condition are allocated and initialised in `init` and never freed (a monitor
/// lives for the process, as a `static let`); `state` is reached only inside ``withLock(_:)``, whose body
/// gets a ``Held`` proof that it holds the lock. Waiting and unlocking for a moment take that proof, which
/// cannot leave the body (it is borrowed and not copyable), so no code waits or unlocks without holding
/// the lock, and the state is touched only by the thread that holds it (while a thread waits, others
/// change the state; it reads it again when it wakes).
@safe final class Monitor<State>: @unchecked Sendable {
    // @unchecked: `state` is only reached inside `withLock`, which holds `mutex`.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    /// Unchecked exclusivity: as `Locked.state`, every access is inside `withLock`, under the mutex.
    @exclusivity(unchecked) private var state: State

    /// The proof, lent to ``withLock(_:)``'s body, that the calling thread holds the lock.
    struct Held: ~Copyable {
        fileprivate init() {}
    }

    init(_ state: State) {
        unsafe mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        unsafe pthread_mutex_init(mutex, nil)
        unsafe condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
        unsafe pthread_cond_init(condition, nil)
        unsafe self.state = state
    }

    /// Runs `body` on the state, holding the lock.
    func withLock<Result>(_ body: (inout State, borrowing Held) throws -> Result) rethrows -> Result {
        unsafe pthread_mutex_lock(mutex)
        defer { unsafe pthread_mutex_unlock(mutex) }
        let held = Held()
        return unsafe try body(&state, held)
    }

    /// Releases the lock until another thread calls ``broadcast(_:)``, then takes it again.
    func wait(_ held: borrowing Held) {
        unsafe pthread_cond_wait(condition, mutex)
    }

    /// Wakes every thread waiting in ``wait(_:)``.
    func broadcast(_ held: borrowing Held) {
        unsafe pthread_cond_broadcast(condition)
    }

    /// Runs `body` without the lock (it must not touch the state), then takes the lock again.
    func unlocked(_ held: borrowing Held, _ body: () -> Void) {
        unsafe pthread_mutex_unlock(mutex)
        body()
        unsafe pthread_mutex_lock(mutex)
    }
}
