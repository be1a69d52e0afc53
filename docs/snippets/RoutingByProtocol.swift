import Router

protocol Radio: AnyObject {}
extension RoutableService<any Radio> {
    nonisolated static var radio: Self { .init(declaring: Destination.self) }
}

final class V8: Engine {
    let horsepower: Int
    init(horsepower: Int = 400) { self.horsepower = horsepower }
}

/// A feature's module that replaces the engine for its part of the app.
struct ElectricEngineModule: RouteModule {
    func register(in registry: RouteRegistry) throws {
        try registry.register(.engine) { _ in V8(horsepower: 3) }
    }
}
