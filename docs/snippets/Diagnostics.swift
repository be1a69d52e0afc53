import Router


// The parts the article's examples take for granted: an engine, a radio, wheels and a car.
// include: CarParts

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
