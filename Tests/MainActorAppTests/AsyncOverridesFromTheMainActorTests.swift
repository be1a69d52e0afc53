import Router
import Testing

// The async `withOverrides` as a main-actor test writes it: the overrides closure and the operation are
// main-actor closures, and the operation awaits lookups. It must compile in a main-actor target, run on the
// caller's executor, and keep the overrides to the task that installed them.

protocol Welcomer: AnyObject {
    var greeting: String { get }
}
extension RoutableService<any Welcomer> {
    nonisolated static var welcomer: Self { .init(declaring: Destination.self) }
}
final class EnglishWelcomer: Welcomer {
    let greeting = "Hello"
}
final class FakeWelcomer: Welcomer {
    let greeting = "Fake"
}

struct AsyncOverridesFromTheMainActorTests {
    func greeterRegistry() throws -> RouteRegistry {
        let registry = RouteRegistry()
        try registry.registerOnMainActor(.welcomer) { _ in EnglishWelcomer() }
        try registry.seal()
        return registry
    }

    @Test func theAsyncWithOverridesRunsFromMainActorCode() async throws {
        let registry = try greeterRegistry()
        var seen: [String] = []  // main-actor state the operation mutates
        let greeting = try await registry.withOverrides { overrides in
            try overrides.registerOnMainActor(.welcomer) { _ in FakeWelcomer() }
        } operation: {
            MainActor.assertIsolated()
            let welcomer = try await registry.makeDestinationAsync(to: .welcomer)
            seen.append(welcomer.greeting)
            return welcomer.greeting
        }
        #expect(greeting == "Fake")
        #expect(seen == ["Fake"])
        #expect(try registry.makeDestination(to: .welcomer).greeting == "Hello")
    }

    @Test nonisolated func theAsyncWithOverridesRunsFromAPlainAsyncContext() async throws {
        let registry = RouteRegistry()
        try registry.register(.plainClock) { _ in SystemClockValue(name: "system") }
        try registry.seal()
        let name = try await registry.withOverrides { overrides in
            try overrides.register(.plainClock) { _ in SystemClockValue(name: "fake") }
        } operation: {
            try await registry.makeDestinationAsync(to: .plainClock).name
        }
        #expect(name == "fake")
        #expect(try registry.makeDestination(to: .plainClock).name == "system")
    }
}

nonisolated struct SystemClockValue: Sendable {
    let name: String
}
extension RoutableService<SystemClockValue> {
    nonisolated static var plainClock: Self { .init(declaring: Destination.self) }
}
