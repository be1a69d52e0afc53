import Dispatch
import Foundation
import Testing

/// A task executor with `width` threads of its own: async scenarios that could block threads run on it,
/// so that they see a pool of a known width (as the cooperative pool is on a small machine) whatever
/// the other tests running in parallel do, and so that a scenario that blocks all of its threads cannot
/// starve the rest of the test run.
final class FixedPool: TaskExecutor, @unchecked Sendable {
    // @unchecked: `jobs` and `stopping` are only reached while holding `condition`.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var stopping = false

    init(width: Int) {
        for index in 0..<width {
            let thread = Thread { [self] in work() }
            thread.name = "FixedPool \(index)"
            thread.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Lets the threads end once no job is left.
    func shutDown() {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
    }

    private func work() {
        while true {
            condition.lock()
            while jobs.isEmpty && !stopping { condition.wait() }
            if jobs.isEmpty {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}

/// Runs an async scenario on a ``FixedPool`` of `width` threads and waits for it for at most `bound`
/// seconds: a hang detector, not a speed test. A scenario that blocks every thread of its pool is
/// reported as a hang (and its threads are left blocked).
@discardableResult
func asyncScenarioFinishes(
    width: Int = 2, bound: Int = 20, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: @escaping @Sendable () async -> Void
) -> Bool {
    let pool = FixedPool(width: width)
    let done = DispatchSemaphore(value: 0)
    Task(executorPreference: pool) {
        await body()
        done.signal()
    }
    if done.wait(timeout: .now() + .seconds(bound)) == .timedOut {
        Issue.record(
            "The scenario did not finish within \(bound) s on a pool of \(width) threads: it hangs.",
            sourceLocation: sourceLocation)
        return false
    }
    pool.shutDown()
    return true
}
