// expected-error: type 'RoutableService<any Gearbox>' has no member 'gearbox'
// expected-errors: 1
//
// Looking up a key for a protocol nobody declared routable.

import Router

protocol Engine: AnyObject {}
protocol Radio: AnyObject {}
protocol Car: AnyObject {
    var radio: (any Radio)? { get set }
}

extension RoutableService<any Engine> {
    nonisolated static var engine: Self { .init(declaring: Destination.self) }
}
extension RoutableService<any Radio> {
    nonisolated static var radio: Self { .init(declaring: Destination.self) }
}
extension RoutableService<any Car> {
    nonisolated static var car: Self { .init(declaring: Destination.self) }
}

final class EngineImpl: Engine {}
final class CarImpl: Car {
    let engine: any Engine
    var radio: (any Radio)?
    init(engine: any Engine) { self.engine = engine }
}

protocol Gearbox: AnyObject {}

func use(_ registry: RouteRegistry) throws {
    let gearbox: any Gearbox = try registry.makeDestination(to: .gearbox)
    _ = gearbox
}
