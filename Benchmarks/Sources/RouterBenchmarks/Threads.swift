import Foundation
import Synchronization

/// Lets a non-Sendable value (a Swinject resolver) cross into a thread. The benchmark hands it only to
/// Swinject's synchronized resolver, which takes a lock around every lookup.
final class UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// What every thread of one s7 run shares: a start barrier and the per-thread results.
final class ThreadRun: Sendable {
    let ready = Atomic<Int>(0)
    let results = Mutex<[(start: UInt64, end: UInt64, checksum: UInt, failure: String?)]>([])
    let done = DispatchSemaphore(value: 0)
}

/// Runs `work(index)` on `threads` threads released together from a barrier; returns each thread's start,
/// end and checksum, or throws the first failure.
func runTogether(
    threads: Int, _ work: @escaping @Sendable (Int) throws -> UInt
) throws -> [(start: UInt64, end: UInt64, checksum: UInt)] {
    let run = ThreadRun()
    for index in 0..<threads {
        let thread = Thread {
            run.ready.add(1, ordering: .acquiringAndReleasing)
            while run.ready.load(ordering: .acquiring) < threads {}
            let start = nanos()
            var sum: UInt = 0
            var failure: String?
            do {
                sum = try work(index)
            } catch {
                failure = "\(error)"
            }
            let end = nanos()
            run.results.withLock { $0.append((start, end, sum, failure)) }
            run.done.signal()
        }
        thread.stackSize = 1 << 23
        thread.start()
    }
    for _ in 0..<threads { run.done.wait() }
    let results = run.results.withLock { $0 }
    if let failure = results.compactMap(\.failure).first { throw BenchmarkError.unexpected(failure) }
    return results.map { ($0.start, $0.end, $0.checksum) }
}

/// Runs `work(iterations)` on `threads` threads at once and returns lookups per second over the wall time
/// from the first thread's start to the last thread's end.
func throughput(
    threads: Int, iterations: Int, checksum: inout UInt, _ work: @escaping @Sendable (Int) throws -> UInt
) throws -> Double {
    let results = try runTogether(threads: threads) { _ in try work(iterations) }
    for result in results { checksum = checksum &+ result.checksum }
    return Double(threads * iterations) / (Double(max(wall(results), 1)) / 1e9)
}

/// Runs `work(index)` once on each of `threads` threads released together, and returns the wall time in
/// nanoseconds from the first thread's start to the last thread's end (s9).
func wallTime(threads: Int, _ work: @escaping @Sendable (Int) throws -> UInt) throws -> Double {
    Double(max(wall(try runTogether(threads: threads, work)), 1))
}

/// From the first start to the last end.
private func wall(_ results: [(start: UInt64, end: UInt64, checksum: UInt)]) -> UInt64 {
    (results.map(\.end).max() ?? 0) - (results.map(\.start).min() ?? 0)
}
