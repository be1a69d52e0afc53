// expected-error: extra arguments at positions #2, #3 in call
// expected-errors: 5
//
// The old injections: label.

import Router

protocol Engine: AnyObject {}
protocol Radio: AnyObject {}
protocol Car: AnyObject {
    var radio: (any Radio)? { get set }
}

extension RoutableService<any Engine> {
    nonisolated static var engine: Self { .init() }
}
extension RoutableService<any Radio> {
    nonisolated static var radio: Self { .init() }
}
extension RoutableService<any Car> {
    nonisolated static var car: Self { .init() }
}

final class EngineImpl: Engine {}
final class CarImpl: Car {
    let engine: any Engine
    var radio: (any Radio)?
    init(engine: any Engine) { self.engine = engine }
}

func wire(_ registry: RouteRegistry) throws {
    try registry.register(.car, injections: [.property(\.radio, .radio)]) { r in
        CarImpl(engine: try r.resolve(.engine))
    }
}
