import Router

// The parts the article's examples take for granted: an engine, a radio, wheels and a car.
// include: CarParts

protocol Greeting: AnyObject { var text: String { get } }
extension RoutableService<any Greeting> {
    nonisolated static var greeting: Self { .init(declaring: Destination.self) }
}
final class GreetingImpl: Greeting {
    let text: String
    init(text: String) { self.text = text }
}

// Two nodes for the lazy edge of a cycle (see CircularDependencies.md).
protocol NodeA: AnyObject {}
protocol NodeB: AnyObject {}
extension RoutableService<any NodeA> {
    nonisolated static var nodeA: Self { .init(declaring: Destination.self) }
}
extension RoutableService<any NodeB> {
    nonisolated static var nodeB: Self { .init(declaring: Destination.self) }
}
final class LazyB: NodeB {
    let a: Lazy<any NodeA>
    init(a: Lazy<any NodeA>) { self.a = a }
}

// The article's lookups assume an engine is registered.
func setUp(_ registry: RouteRegistry) throws {
    try registry.register(.engine) { _ in V8() }
}
