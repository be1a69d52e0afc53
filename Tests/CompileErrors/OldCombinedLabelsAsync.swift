// expected-error: 'registerAsync(_:scope:identifier:isDefault:dependencies:injections:prepare:didFinishPrepare:file:line:factory:)' is unavailable: the labels are modifiers now: registerAsync(.key) { r in … } then .scope(.singleton), .identifier("…"), .asDefault(), .dependencies(…), .injecting(\.property, .key), .preparing { destination, r in … }, .didFinishPrepare { destination, r in … }
// expected-errors: 1
//
// Old labels combined on an async registration.

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
    try registry.registerAsync(.car, scope: .singleton, injections: [.property(\.radio, .radio)]) { r in
        CarImpl(engine: try await r.resolveAsync(.engine))
    }
}
