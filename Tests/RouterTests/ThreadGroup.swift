import Synchronization
import Testing

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
        var threads: [SpawnedThread] = []
        for index in 0..<count {
            let thread = spawnThread { [self] in
                arrived.add(1, ordering: .acquiringAndReleasing)
                while arrived.load(ordering: .acquiring) < count {}
                body(index)
            }
            if let thread { threads.append(thread) }
        }
        for thread in threads { pthread_join(thread, nil) }
    }
}
