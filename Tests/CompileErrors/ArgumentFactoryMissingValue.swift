// expected-error: contextual closure type '@Sendable (inout Resolver, String, Int) throws -> any Greeting' expects 3 arguments, but 2 were used in closure body
// expected-errors: 1
//
// An arguments factory with one value fewer than the argument types.

import Router

protocol Greeting: AnyObject {}
extension RoutableService<any Greeting> {
    nonisolated static var greeting: Self { .init(declaring: Destination.self) }
}
final class GreetingImpl: Greeting {
    init(text: String) {}
}

func wire(_ registry: RouteRegistry) throws {
    try registry.register(.greeting, arguments: String.self, Int.self) { r, name in
        GreetingImpl(text: name)
    }
}
