import Router
import Synchronization

// The parts the article's examples take for granted: an engine, a radio, wheels and a car.
// include: CarParts

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
