import Router
import Synchronization
import Testing

// Preparations of a main-actor destination, as an app target with default main-actor isolation writes
// them: `preparingOnMainActor` may set the screen's main-actor properties, which a `preparing` closure
// (not isolated) cannot, and a lookup from elsewhere fails before any of it runs.

protocol InboxScreen: AnyObject {
    var title: String { get }
    var steps: [String] { get }
}
extension RoutableService<any InboxScreen> {
    nonisolated static var inboxScreen: Self { .init(declaring: Destination.self) }
}
nonisolated protocol MailCounter: Sendable {
    var unread: Int { get }
}
extension RoutableService<any MailCounter> {
    nonisolated static var mailCounter: Self { .init(declaring: Destination.self) }
}
struct FixedMailCounter: MailCounter {
    let unread: Int
}
final class InboxViewModel: InboxScreen {
    var title = "Inbox"
    var steps: [String] = []
}

/// Counts preparations that ran, from any thread.
nonisolated final class RunCounter: Sendable {
    private let count = Atomic(0)
    func add() { count.add(1, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
}

func inboxRegistry(counting runs: RunCounter = RunCounter()) throws -> RouteRegistry {
    let registry = RouteRegistry()
    try registry.register(.mailCounter) { _ in FixedMailCounter(unread: 3) }
    try registry.registerOnMainActor(.inboxScreen, as: InboxViewModel.self) { _ in InboxViewModel() }
        .preparingOnMainActor(declaring: .property(.mailCounter)) { inbox, r in
            runs.add()
            inbox.title = "Inbox (\(try r.resolve(.mailCounter).unread))"
            inbox.steps.append("title")
        }
        .preparingOnMainActor { inbox, _ in
            runs.add()
            inbox.steps.append("second")
        }
    try registry.seal()
    return registry
}

struct MainActorPreparationTests {
    @Test func aMainActorPreparationSetsTheScreensPropertiesInTheOrderAdded() throws {
        let inbox = try inboxRegistry().makeDestination(to: .inboxScreen)
        #expect(inbox.title == "Inbox (3)")
        #expect(inbox.steps == ["title", "second"])
    }

    @Test func offTheMainActorItIsATypedErrorNamingTheKeyAndNoPreparationRuns() async throws {
        let runs = RunCounter()
        let registry = try inboxRegistry(counting: runs)
        let failure = await Task.detached { () -> RouteError? in
            do {
                _ = try registry.makeDestination(to: .inboxScreen)
                return nil
            } catch {
                return error as? RouteError
            }
        }.value
        #expect(failure?.code == .mainActorRequired)
        #expect(failure?.description.contains("InboxScreen") == true)
        #expect(runs.value == 0)
    }

    @Test func aNonisolatedFactoryWithAMainActorPreparationCountsAsMainActor() async throws {
        let registry = RouteRegistry()
        try registry.register(.mailCounter) { _ in FixedMailCounter(unread: 1) }
            .preparingOnMainActor { _, _ in }
        try registry.seal()
        #expect(try registry.makeDestination(to: .mailCounter).unread == 1)
        let code = await Task.detached { () -> RouteError.Code? in
            do {
                _ = try registry.makeDestination(to: .mailCounter)
                return nil
            } catch {
                return (error as? RouteError)?.code
            }
        }.value
        #expect(code == .mainActorRequired)
    }
}
