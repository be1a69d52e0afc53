import Router
import Testing

// The README's quick start (with names that do not clash with other tests), so its output cannot rot.

protocol ReadmeGreeter: AnyObject { func greet() -> String }

extension RoutableService where Destination == any ReadmeGreeter {
    static var readmeGreeter: Self { Self(declaring: (any ReadmeGreeter).self) }
}

final class EnglishGreeter: ReadmeGreeter { func greet() -> String { "Hello!" } }

struct GreetingModule: RouteModule {
    func register(in registry: RouteRegistry) throws {
        try registry.register(.readmeGreeter) { _ in EnglishGreeter() }
    }
}

struct ReadmeTests {
    @Test func quickStartPrintsHello() throws {
        let registry = try RouteRegistry(modules: [GreetingModule()])
        #expect(try registry.makeDestination(to: .readmeGreeter).greet() == "Hello!")
    }
}
