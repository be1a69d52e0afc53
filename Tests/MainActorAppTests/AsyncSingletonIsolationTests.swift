import Foundation
import Router
import Synchronization
import Testing

// An async singleton looked up from main-actor code builds where the lookup runs: a main-actor factory
// its async factory reaches runs on the main actor (before, the singleton's build ran on the global
// executor while the lookup believed it was on the main actor).

nonisolated protocol IsolationProbePage: AnyObject, Sendable {}
extension RoutableService<any IsolationProbePage> {
    nonisolated static var isolationProbePage: Self { .init(declaring: Destination.self) }
}
final class IsolationProbePageModel: IsolationProbePage {}

/// Where the main-actor factory ran: 1 on the main queue (where the main actor's jobs run), 2 elsewhere.
nonisolated let screenFactoryThread = Atomic<Int>(0)
nonisolated let mainQueueMark = DispatchSpecificKey<Int>()

/// Whether the caller runs on the main queue, where the main actor's jobs run.
nonisolated func onMainQueue() -> Bool { DispatchQueue.getSpecific(key: mainQueueMark) == 1 }

protocol IsolationProbeScreen: AnyObject {}
extension RoutableService<any IsolationProbeScreen> {
    nonisolated static var isolationProbeScreen: Self { .init(declaring: Destination.self) }
}
final class IsolationProbeScreenModel: IsolationProbeScreen {}

struct AsyncSingletonIsolationTests {
    @Test func anAsyncSingletonLookedUpFromTheMainActorBuildsItsMainActorDependencyThere() async throws {
        let registry = RouteRegistry()
        try registry.registerOnMainActor(.isolationProbeScreen) { _ in
            screenFactoryThread.store(onMainQueue() ? 1 : 2, ordering: .relaxed)
            return IsolationProbeScreenModel()
        }
        try registry.registerAsync(.isolationProbePage) { r in
            await Task.yield()
            _ = try r.resolve(.isolationProbeScreen)
            return IsolationProbePageModel()
        }.scope(.singleton)
        try registry.seal()
        DispatchQueue.main.setSpecific(key: mainQueueMark, value: 1)
        #expect(onMainQueue(), "the test itself runs on the main queue")
        let page = try await registry.makeDestinationAsync(to: .isolationProbePage)
        #expect(screenFactoryThread.load(ordering: .relaxed) == 1, "the main-actor factory ran off the main thread")
        #expect(try await registry.makeDestinationAsync(to: .isolationProbePage) === page)
    }
}
