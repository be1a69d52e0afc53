import Router

// The parts several articles' examples take for granted: an engine, a radio, wheels and a car. A prelude
// takes them with the line `// include: CarParts`.
protocol Engine: AnyObject { var horsepower: Int { get } }
protocol Radio: AnyObject {}
protocol Wheel: AnyObject { var position: Int { get } }
protocol Car: AnyObject {
    var engine: any Engine { get }
    var radio: (any Radio)? { get set }
    var wheels: [any Wheel] { get }
}

extension RoutableService<any Engine> {
    nonisolated static var engine: Self { .init(declaring: Destination.self) }
}
extension RoutableService<any Radio> {
    nonisolated static var radio: Self { .init(declaring: Destination.self) }
}
extension RoutableService<any Wheel> {
    nonisolated static var wheel: Self { .init(declaring: Destination.self) }
}
extension RoutableService<any Car> {
    nonisolated static var car: Self { .init(declaring: Destination.self) }
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
