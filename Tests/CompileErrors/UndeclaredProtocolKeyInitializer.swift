// expected-error: 'init()' is unavailable: declare the protocol routable in 'extension RoutableService<any P> { nonisolated static var p: Self { .init(declaring: Destination.self) } }', then use the key '.p'
// expected-errors: 1
//
// Making a key for a protocol nobody declared routable with the generic initializer, anywhere in the app.

import Router

protocol Engine: AnyObject {}
extension RoutableService<any Engine> {
    nonisolated static var engine: Self { .init(declaring: Destination.self) }
}

protocol Gearbox: AnyObject {}
final class GearboxImpl: Gearbox {}

func wire(_ registry: RouteRegistry) throws {
    try registry.register(RoutableService<any Gearbox>()) { _ in GearboxImpl() }
}
