import Router


// The parts the article's examples take for granted: an engine, a radio, wheels and a car.
protocol Engine: AnyObject { var horsepower: Int { get } }
protocol Radio: AnyObject {}
protocol Wheel: AnyObject { var position: Int { get } }
protocol Car: AnyObject {
    var engine: any Engine { get }
    var radio: (any Radio)? { get set }
    var wheels: [any Wheel] { get }
}

extension RoutableService<any Engine> {
    nonisolated static var engine: Self { .init() }
}
extension RoutableService<any Radio> {
    nonisolated static var radio: Self { .init() }
}
extension RoutableService<any Wheel> {
    nonisolated static var wheel: Self { .init() }
}
extension RoutableService<any Car> {
    nonisolated static var car: Self { .init() }
}

final class V8: Engine {
    let horsepower: Int
    init(horsepower: Int = 400) { self.horsepower = horsepower }
}
final class RadioImpl: Radio {}
final class WheelImpl: Wheel {
    let position: Int
    init(position: Int) { self.position = position }
}
final class CarImpl: Car {
    let engine: any Engine
    var radio: (any Radio)?
    let wheels: [any Wheel]
    init(engine: any Engine, wheels: [any Wheel] = []) {
        self.engine = engine
        self.wheels = wheels
    }
}

/// The app's modules, as a test of the wiring would load them.
enum AppModules {
    static let all: [any RouteModule] = []
}

/// A logger that is safe to use from a handler on any thread: it keeps nothing.
struct Logger: Sendable {
    func error(_ message: String) {}
}
let logger = Logger()

// The registry the article describes: a car with an engine singleton, four wheels and a radio.
func setUp(_ registry: RouteRegistry) throws {
    try registry.register(.engine) { _ in V8() }.scope(.singleton)
    for position in 1...4 {
        try registry.register(.wheel) { _ in WheelImpl(position: position) }
    }
    try registry.register(.radio) { _ in RadioImpl() }
    try registry.register(.car) { r in
        CarImpl(engine: try r.resolve(.engine), wheels: try r.resolveAll(.wheel))
    }.dependencies(.initializer(.engine), .many(.wheel)).injecting(\.radio, .radio)
}
