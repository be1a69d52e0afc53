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
/// It guards the ``CreationMachine`` (who builds which shared instance, who waits for whom, groups, what
/// is held) and provisional instances. It is never held while user code runs: factories and preparations
/// run outside it, so a factory may wait for another thread's lookup of any other registration.
enum CreationCoordinator {
    // nonisolated(unsafe): the pointers are set once, here, and only ever passed to pthread calls, which
    // synchronise themselves.
    nonisolated(unsafe) private static let state:
        (mutex: UnsafeMutablePointer<pthread_mutex_t>, condition: UnsafeMutablePointer<pthread_cond_t>) = {
            let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
            unsafe pthread_mutex_init(mutex, nil)
            let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
            unsafe pthread_cond_init(condition, nil)
            return unsafe (mutex, condition)
        }()

    /// The creation protocol's state, for every registry: read and written only while holding the lock.
    // nonisolated(unsafe): read and written only between the lock and unlock in `run`, and in `wait`,
    // which is called only inside `run`.
    nonisolated(unsafe) private static var machine = EngineCreationMachine()

    /// Async lookups waiting for a transaction's instance, suspended: each resumes when the machine says
    /// its wait ended, as a waiting thread wakes.
    // nonisolated(unsafe): read and written only while holding the lock (in `park` and `wake`, which are
    // called only inside `run`).
    nonisolated(unsafe) private static var parked: [Parked] = []

    /// A suspended async lookup: its transaction, and the continuation that resumes it.
    private typealias Parked = (txn: Ref<CreationTransaction>, waiter: CheckedContinuation<Void, Never>)

    /// Runs `body` holding the lock, with the creation machine, then wakes the waiting threads and async
    /// lookups if the machine says a wait ended. `body` must not call user code.
    static func run<Result>(_ body: (inout EngineCreationMachine) throws -> Result) rethrows -> Result {
        unsafe pthread_mutex_lock(state.mutex)
        defer {
            #if DEBUG
                // A broken invariant is a bug of this library, never of the caller: stop where it happened.
                // Checked while the machine is small (the check walks all of it, and a chain of a thousand
                // shared instances in one lookup would make every event quadratic); the explorer checks
                // every state.
                if unsafe machine.size <= 64 {
                    let problems = unsafe machine.invariantViolations()
                    assert(problems.isEmpty, "creation machine: \(problems.joined(separator: "; "))")
                }
            #endif
            let resumed = unsafe wake(&machine)
            unsafe pthread_mutex_unlock(state.mutex)
            for waiter in resumed { waiter.resume() }
        }
        return unsafe try body(&machine)
    }

    /// Waits until another thread wakes the waiters; call inside ``run(_:)``, in a loop that looks at the
    /// machine again after each return. Wakes the others first if the machine says a wait ended (a merge
    /// may have done so just before this thread waits); when that resumes parked async lookups, it
    /// returns at once instead of waiting, having released the lock while it resumed them.
    static func wait(_ machine: inout EngineCreationMachine) {
        let resumed = wake(&machine)
        guard resumed.isEmpty else {
            // Resumed without the lock: a task executor may run the task before `resume` returns, and the
            // task may take the lock.
            unsafe pthread_mutex_unlock(state.mutex)
            for waiter in resumed { waiter.resume() }
            unsafe pthread_mutex_lock(state.mutex)
            return
        }
        unsafe pthread_cond_wait(state.condition, state.mutex)
    }

    /// Suspends the async lookup of `txn`, whose wait the machine just recorded, until the wait ends;
    /// call inside ``run(_:)``, with the continuation of the suspending task.
    static func park(_ txn: CreationTransaction, _ waiter: CheckedContinuation<Void, Never>) {
        unsafe parked.append((Ref(txn), waiter))
    }

    /// If the machine says a wait ended: wakes the waiting threads, and takes the parked async lookups
    /// whose wait ended off the list, for the caller to resume once it released the lock.
    private static func wake(_ machine: inout EngineCreationMachine) -> [CheckedContinuation<Void, Never>] {
        guard machine.takeWake() else { return [] }
        unsafe pthread_cond_broadcast(state.condition)
        guard unsafe !parked.isEmpty else { return [] }
        var resumed: [CheckedContinuation<Void, Never>] = []
        var still: [Parked] = []
        for entry in unsafe parked {
            if machine.isWaiting(entry.txn) { still.append(entry) } else { resumed.append(entry.waiter) }
        }
        unsafe parked = still
        return resumed
    }
}
