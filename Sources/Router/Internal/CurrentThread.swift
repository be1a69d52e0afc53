#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The identity of the running thread, for telling a re-entrant call (made by the same thread, which
/// must not wait for itself) from a concurrent one (made by another thread, which may wait).
enum CurrentThread {
    /// A number unique among the threads alive now; never 0.
    static var id: UInt {
        #if canImport(Darwin)
            UInt(bitPattern: pthread_self())
        #else
            UInt(pthread_self())
        #endif
    }

    /// Whether an executor may need this thread to run a task: it is running one now (a thread of the
    /// cooperative pool, or of any task executor), or it is the main thread (the main actor's executor).
    /// A thread for which this is true must not block waiting for a task that may be suspended.
    static var mayBeNeededByTasks: Bool {
        if unsafe withUnsafeCurrentTask(body: { unsafe $0 != nil }) { return true }
        #if canImport(Darwin)
            return pthread_main_np() != 0
        #elseif canImport(Glibc) || canImport(Musl)
            guard let threadID = Self.threadID else { return false }
            return threadID() == getpid()
        #else
            return false
        #endif
    }

    #if canImport(Glibc) || canImport(Musl)
        /// `gettid`, which the C library has but the Swift module does not export (it needs `_GNU_SOURCE`):
        /// found by name, then called through its C signature. The main thread's id is the process's.
        private static let threadID: (@convention(c) () -> pid_t)? = {
            guard let symbol = unsafe dlsym(nil, "gettid") else { return nil }
            // Sound: the symbol is the C library's `pid_t gettid(void)`, whose C signature is this type.
            return unsafe unsafeBitCast(symbol, to: (@convention(c) () -> pid_t).self)
        }()
    #endif
}
