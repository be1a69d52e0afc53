// expected-error: 'registerAsync(_:arguments:_:file:line:factory:)' is unavailable: the async factory takes the resolver first, then one value per argument type: { r, first, second async throws in … }
// expected-errors: 1
//
// An async arguments factory that leaves out the resolver.

import Router

protocol Greeting: AnyObject {}
extension RoutableService<any Greeting> {
    nonisolated static var greeting: Self { .init(declaring: Destination.self) }
}
final class GreetingImpl: Greeting {
    init(text: String) {}
}

func wire(_ registry: RouteRegistry) throws {
    try registry.registerAsync(.greeting, arguments: String.self, Int.self) { name, times async in
        GreetingImpl(text: String(repeating: name, count: times))
    }
}
