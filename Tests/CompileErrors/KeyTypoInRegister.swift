// expected-error: type 'RoutableService<EngineImpl>' has no member 'engien'
// expected-errors: 1
//
// A misspelt key as the registered key.

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
    try registry.register(.engien) { _ in EngineImpl() }
}
