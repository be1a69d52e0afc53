import Router
import Synchronization

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

final class GreeterImpl: Greeter {
    let greeting: String
    init(greeting: String) { self.greeting = greeting }
}

/// What the hooks record, in order; safe to call from any thread.
final class Log: Sendable {
    private let entries = Mutex<[String]>([])
    func record(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
}
let log = Log()

// The greeter module of the article's first blocks, for the blocks that look it up.
func setUp(_ registry: RouteRegistry) throws {
    try registry.register(.engine) { _ in V8() }
    try registry.register(.radio) { _ in RadioImpl() }
    try registry.register(.greeter, configuration: GreeterConfiguration.init) { config, _ in
        let name = try config.require(config.name, setBy: "constructGreeter(name:)")
        return GreeterImpl(greeting: "Hello, \(name)\(config.punctuation)")
    }
}
