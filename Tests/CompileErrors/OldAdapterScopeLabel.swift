// expected-error: 'adapt(_:to:scope:file:line:adapter:)' is unavailable: scope is a modifier now: adapt(.required, to: .provided) { $0 }.scope(.singleton)
// expected-errors: 1
//
// The old scope: label of an adapter.

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

func wire(_ registry: RouteRegistry) throws {
    try registry.adapt(.radio, to: .radio, scope: .singleton) { $0 }
}
