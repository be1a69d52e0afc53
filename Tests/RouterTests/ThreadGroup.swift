import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Starts real threads that wait at a barrier, so they hit the registry at the same moment.
final class ThreadGroup: Sendable {
    let count: Int
    private let arrived = Atomic<Int>(0)

    init(count: Int) { self.count = count }

    func run(_ body: @escaping @Sendable (Int) -> Void) {
        final class Box: @unchecked Sendable {
            // @unchecked: written before the thread starts, read only by that thread.
            let body: () -> Void
            init(_ body: @escaping () -> Void) { self.body = body }
        }
        var threads: [pthread_t] = []
        for index in 0..<count {
            let box = Box { [self] in
                arrived.add(1, ordering: .acquiringAndReleasing)
                while arrived.load(ordering: .acquiring) < count {}
                body(index)
            }
            let context = Unmanaged.passRetained(box).toOpaque()
            #if canImport(Darwin)
                var thread: pthread_t?
            #else
                var thread = pthread_t()
            #endif
            let status = pthread_create(
                &thread, nil,
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
            precondition(status == 0, "pthread_create failed")
            #if canImport(Darwin)
                if let thread { threads.append(thread) }
            #else
                threads.append(thread)
            #endif
        }
        for thread in threads { pthread_join(thread, nil) }
    }
}
