import Foundation
import Router
import Testing

// Async lookups run on the caller's executor: from main-actor code they may make main-actor screens, also
// from inside an async factory between its awaits; from elsewhere, the same lookups are a typed error.

protocol SearchScreen: AnyObject {
    var results: [String] { get }
}
extension RoutableService<any SearchScreen> {
    nonisolated static var searchScreen: Self { .init(declaring: Destination.self) }
}
final class SearchViewModel: SearchScreen {
    let results: [String]
    init(results: [String]) { self.results = results }
}

nonisolated protocol SearchIndex: Sendable {
    func query(_ text: String) async -> [String]
}
extension RoutableService<any SearchIndex> {
    nonisolated static var searchIndex: Self { .init(declaring: Destination.self) }
}
struct BookIndex: SearchIndex {
    func query(_ text: String) async -> [String] { ["\(text) 1", "\(text) 2"] }
}

/// A page an async factory makes: it awaits the index, then looks the main-actor screen up synchronously.
nonisolated protocol SearchPage: AnyObject {
    var screen: any SearchScreen { get }
    var found: [String] { get }
}
extension RoutableService<any SearchPage> {
    nonisolated static var searchPage: Self { .init(declaring: Destination.self) }
}
nonisolated final class SearchPageModel: SearchPage {
    let screen: any SearchScreen
    let found: [String]
    init(screen: any SearchScreen, found: [String]) {
        self.screen = screen
        self.found = found
    }
}

func searchRegistry() throws -> RouteRegistry {
    let registry = RouteRegistry()
    try registry.register(.searchIndex) { _ in BookIndex() }
    try registry.registerOnMainActor(.searchScreen) { _ in SearchViewModel(results: ["Dune"]) }
    try registry.registerAsync(.searchPage) { r in
        let found = await (try r.resolve(.searchIndex)).query("Dune")
        // Between awaits the factory runs where the lookup runs: on the main actor, when called from there.
        return SearchPageModel(screen: try r.resolve(.searchScreen), found: found)
    }
    try registry.seal()
    return registry
}

struct MainActorAsyncLookupTests {
    @Test func anAsyncLookupFromTheMainActorMakesAMainActorScreen() async throws {
        let screen = try await searchRegistry().makeDestinationAsync(to: .searchScreen)
        #expect(screen.results == ["Dune"])
    }

    @Test func anAsyncFactoryLookedUpFromTheMainActorMayMakeMainActorDependencies() async throws {
        let page = try await searchRegistry().makeDestinationAsync(to: .searchPage)
        #expect(page.found == ["Dune 1", "Dune 2"])
        #expect(page.screen.results == ["Dune"])
    }

    @Test func theSameAsyncLookupsFromElsewhereAreATypedError() async throws {
        let registry = try searchRegistry()
        let codes = await Task.detached { () -> [RouteError.Code?] in
            var codes: [RouteError.Code?] = []
            for lookUp in [0, 1] {
                do {
                    if lookUp == 0 {
                        _ = try await registry.makeDestinationAsync(to: .searchScreen)
                    } else {
                        _ = try await registry.makeDestinationAsync(to: .searchPage)
                    }
                    codes.append(nil)
                } catch {
                    codes.append((error as? RouteError)?.code)
                }
            }
            return codes
        }.value
        #expect(codes == [.mainActorRequired, .mainActorRequired])
    }
}

nonisolated protocol SearchCache: AnyObject, Sendable {}
extension RoutableService<any SearchCache> {
    nonisolated static var searchCache: Self { .init(declaring: Destination.self) }
}
final class SearchCacheImpl: SearchCache {}

/// Runs the jobs of the tasks that prefer it on one thread of its own, so that those tasks never wait for
/// the shared cooperative pool, which blocking tests elsewhere in the run (the demo's subprocesses) can
/// fill on a 2-core machine: a test of a hang must not hang for that reason.
nonisolated final class DedicatedThreadExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: `jobs` and `stopped` are read and written only with `condition` locked.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var stopped = false

    init() {
        Thread { [self] in runJobs() }.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Lets the thread end once its queue is empty.
    func stop() {
        condition.lock()
        stopped = true
        condition.signal()
        condition.unlock()
    }

    private func runJobs() {
        while true {
            condition.lock()
            while jobs.isEmpty && !stopped { condition.wait() }
            guard !jobs.isEmpty else {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}

/// Whether `semaphore` is signalled within `bound` seconds, awaited suspended: a thread of its own does
/// the timed wait, so that the bound is counted whether or not the cooperative pool has a free thread (the
/// caller resumes on one once it has).
nonisolated func isSignalled(_ semaphore: DispatchSemaphore, within bound: Int) async -> Bool {
    await withCheckedContinuation { continuation in
        Thread {
            continuation.resume(returning: semaphore.wait(timeout: .now() + .seconds(bound)) == .success)
        }.start()
    }
}

nonisolated struct MainActorAsyncSingletonTests {
    /// Tasks on the main actor and on two other threads race for one async singleton whose factory hops to
    /// the main actor while it builds: one build, one instance for all, and no task waits by blocking a
    /// thread (a blocked main actor would never let the factory's hop run).
    ///
    /// The race runs on the main actor and on threads of its own, never on the shared cooperative pool,
    /// which the suites running in parallel may hold for minutes. The test waits for it suspended, off the
    /// main actor (the suite is nonisolated, so that even the code Swift Testing generates around the test
    /// never needs the main actor, which a regression could block), for a generous bound counted on a thread
    /// of its own: a hang detector, not a speed test. (A `.timeLimit` also counted the time the test's task
    /// waited for a thread of the pool to return from the main actor: a starved pool read as a hang.)
    @Test @concurrent func anAsyncSingletonRacedFromTheMainActorAndElsewhereIsBuiltOnceWithoutAHang() async {
        let executors = [DedicatedThreadExecutor(), DedicatedThreadExecutor()]
        defer { for executor in executors { executor.stop() } }
        let done = DispatchSemaphore(value: 0)
        Task { @MainActor in
            defer { done.signal() }
            do {
                for _ in 0..<20 {
                    let builds = RunCounter()
                    let registry = RouteRegistry()
                    try registry.registerAsync(.searchCache) { _ in
                        builds.add()
                        await MainActor.run {}
                        return SearchCacheImpl()
                    }.scope(.singleton)
                    try registry.seal()
                    let elsewhere = (0..<4).map { index in
                        Task.detached(executorPreference: executors[index % 2]) {
                            try await registry.makeDestinationAsync(to: .searchCache)
                        }
                    }
                    let here = try await registry.makeDestinationAsync(to: .searchCache)
                    for task in elsewhere {
                        #expect(try await task.value === here)
                    }
                    #expect(builds.value == 1)
                }
            } catch {
                Issue.record(error)
            }
        }
        let bound = 300
        if !(await isSignalled(done, within: bound)) {
            Issue.record("The race did not finish within \(bound) s: it hangs.")
        }
    }
}
