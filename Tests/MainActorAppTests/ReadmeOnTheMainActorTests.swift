import Router
import Testing

// This target is built with `.defaultIsolation(MainActor.self)`, the default of new app targets: the
// README's quick start, as written there, must compile and run in it.

protocol Greeter: AnyObject { func greet() -> String }

// 1. Declare the protocol routable. This extension is what makes `.greeter` exist:
//    a key for an undeclared protocol does not compile. (`nonisolated` lets factories use the key
//    in app targets whose default isolation is the main actor.)
extension RoutableService where Destination == any Greeter {
    nonisolated static var greeter: Self { Self(declaring: (any Greeter).self) }
}

final class EnglishGreeter: Greeter { func greet() -> String { "Hello!" } }

// 2. Register routers in a module.
struct GreetingModule: RouteModule {
    func register(in registry: RouteRegistry) throws {
        try registry.register(.greeter) { _ in EnglishGreeter() }
    }
}

struct ReadmeOnTheMainActorTests {
    @Test func theReadmeQuickStartRunsInATargetIsolatedToTheMainActor() throws {
        // 3. Seal the registry, then make destinations by protocol.
        let registry = try RouteRegistry(modules: [GreetingModule()])
        #expect(try registry.makeDestination(to: .greeter).greet() == "Hello!")
    }
}
