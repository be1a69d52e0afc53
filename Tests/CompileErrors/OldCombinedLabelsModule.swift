// expected-error: 'register(_:configuration:scope:identifier:isDefault:dependencies:injections:prepare:didFinishPrepare:hooks:file:line:factory:)' is unavailable: the labels are modifiers now: register(.key, configuration: Config.init) { config, r in … } then .scope(.singleton), .identifier("…"), .asDefault(), .dependencies(…), .injecting(\.property, .key), .preparing { destination, r in … }, .didFinishPrepare { destination, r in … }, .hooks(…)
// expected-errors: 1
//
// Old labels combined on a module registration.

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

protocol CarConfig: ModuleConfiguration<any Car> {}
extension RoutableServiceModule<any CarConfig, any Car> {
    nonisolated static var carModule: Self { .init(declaring: Configuration.self, making: Destination.self) }
}
final class CarConfiguration: ModuleConfiguration<any Car>, CarConfig {}

func wire(_ registry: RouteRegistry) throws {
    try registry.register(
        .carModule, configuration: CarConfiguration.init, scope: .singleton,
        injections: [.property(\.radio, .radio)]
    ) { _, r in CarImpl(engine: try r.resolve(.engine)) }
}
