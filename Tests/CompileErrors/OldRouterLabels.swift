// expected-error: 'register(router:for:identifier:isDefault:dependencies:file:line:)' is unavailable: the labels are modifiers now: register(router: R.self, for: .key) then .identifier("…"), .asDefault(), .dependencies(…)
// expected-errors: 1
//
// Old labels of a router class registration.

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

final class CarRouter: ServiceRouter<any Car, ModuleConfiguration<any Car>> {}

func wire(_ registry: RouteRegistry) throws {
    try registry.register(router: CarRouter.self, for: .car, identifier: "garage/car", isDefault: true)
}
