// expected-error: 'injecting' is unavailable: injecting sets a property of a class: make the protocol class-bound (: AnyObject)
// expected-errors: 1
//
// Property injection into a destination that is not a class.

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

protocol Dashboard {
    var radio: (any Radio)? { get set }
}
struct DashboardImpl: Dashboard {
    var radio: (any Radio)?
}
extension RoutableService<any Dashboard> {
    nonisolated static var dashboard: Self { .init(declaring: Destination.self) }
}

func wire(_ registry: RouteRegistry) throws {
    try registry.register(.dashboard) { _ in DashboardImpl() }
        .injecting(\.radio, .radio)
}
