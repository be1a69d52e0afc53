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

    /// Runs `body` holding the lock, with the creation machine, then wakes the waiting threads if the
    /// machine says a wait ended. `body` must not call user code.
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
            if unsafe machine.takeWake() { unsafe pthread_cond_broadcast(state.condition) }
            unsafe pthread_mutex_unlock(state.mutex)
        }
        return unsafe try body(&machine)
    }

    /// Waits until another thread wakes the waiters; call inside ``run(_:)``. Wakes the others first if
    /// the machine says a wait ended (a merge may have done so just before this thread waits).
    static func wait(_ machine: inout EngineCreationMachine) {
        if machine.takeWake() { unsafe pthread_cond_broadcast(state.condition) }
        unsafe pthread_cond_wait(state.condition, state.mutex)
    }
}
