// expected-error: 'register(_:scope:identifier:isDefault:dependencies:injections:prepare:didFinishPrepare:hooks:exclusive:file:line:factory:)' is unavailable: the labels are modifiers now: register(.key) { r in … } then .scope(.singleton), .identifier("…"), .asDefault(), .dependencies(…), .injecting(\.property, .key), .preparing { destination, r in … }, .didFinishPrepare { destination, r in … }, .hooks(…), .exclusive()
// expected-errors: 1
//
// Old labels combined, as most 0.1.0 call sites wrote them: scope: with injections: and prepare:.

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
    try registry.register(
        .car, scope: .singleton, isDefault: true, injections: [.property(\.radio, .radio)],
        prepare: { car, r in car.radio = try r.resolve(.radio) },
        factory: { r in CarImpl(engine: try r.resolve(.engine)) })
}
