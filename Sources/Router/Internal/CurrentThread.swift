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
}
