// expected-error: 'register(_:initializer:file:line:)' is unavailable: the initializer must make the key's type: does the class adopt the key's protocol?
// expected-errors: 1
//
// Auto-wiring an initializer of a class that does not adopt the key's protocol.

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

final class Truck {
    init(engine: any Engine) {}
}

func wire(_ registry: RouteRegistry) throws {
    try registry.register(.car, initializer: Truck.init)
}
