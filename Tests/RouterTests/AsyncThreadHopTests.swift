import Foundation
import Router
import Testing

// An async lookup may resume on another thread after every await, also inside an async factory: what the
// factory then resolves synchronously is measured against the stack of the thread it runs on, not the
// stack of the thread the lookup started on (a false "would overflow the stack", or no guard at all).

/// Runs every job of the tasks that prefer it on a thread of its own, so that each resumption after an
/// await is on a different thread. The threads stay until ``finish()``, so that none of their stacks is
/// reused for the next one: each is somewhere else in memory.
final class ThreadPerJobExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: `done` is a semaphore, which synchronises itself.
    private let done = DispatchSemaphore(value: 0)
    private let started = Counter()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        started.increment()
        let thread = Thread { [done] in
            job.runSynchronously(on: executor)
            done.wait()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Lets every thread the executor started end.
    func finish() {
        for _ in 0..<started.value { done.signal() }
    }
}

struct AsyncThreadHopTests {
    @Test func anAsyncFactoryResolvesAfterAnAwaitOnAnotherThreadWithItsOwnStackGuard() async throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8(horsepower: 300) }
            try registry.registerAsync(.car) { r in
                var engines: [any Engine] = []
                // Each await resumes on a new thread; each lookup after it checks that thread's stack.
                for _ in 0..<4 {
                    await Task.yield()
                    engines.append(try r.resolve(.engine))
                }
                #expect(engines.count == 4)
                return CarImpl(engine: engines[3])
            }
        }
        let executor = ThreadPerJobExecutor()
        defer { executor.finish() }
        let horsepower = try await Task(executorPreference: executor) {
            try await registry.makeDestinationAsync(to: .car).engine.horsepower
        }.value
        #expect(horsepower == 300)
    }
}
