// expected-error: capture of 'garage' with non-Sendable type 'Garage' in a '@Sendable' closure [#SendableClosureCaptures]
// expected-errors: 1
//
// A factory that captures a value that is not Sendable.

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

final class Garage {
    var engines: [any Engine] = []
}

func wire(_ registry: RouteRegistry, garage: Garage) throws {
    try registry.register(.engine) { _ in garage.engines.first ?? EngineImpl() }
}
