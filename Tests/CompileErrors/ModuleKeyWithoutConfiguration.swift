// expected-error: 'register(_:file:line:factory:)' is unavailable: a module key needs its configuration: register(.key, configuration: Config.init) { config, r in … }
// expected-errors: 1
//
// A module key registered like a service key, without its configuration.

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

protocol Cart: AnyObject {}
protocol CartModuleConfig: ModuleConfiguration<any Cart> {
    func constructCart(owner: String)
}
extension RoutableServiceModule<any CartModuleConfig, any Cart> {
    nonisolated static var cart: Self { .init(declaring: Configuration.self, making: Destination.self) }
}
final class CartImpl: Cart {}

func wire(_ registry: RouteRegistry) throws {
    try registry.register(.cart) { _ in CartImpl() }
}
