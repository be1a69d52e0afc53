import Foundation
import Router
import Synchronization

// Protocols and keys shared by the tests. Each protocol is declared routable the way users do it.

protocol Engine: AnyObject { var horsepower: Int { get } }
protocol Wheel: AnyObject { var position: Int { get } }
protocol Radio: AnyObject {}
protocol Car: AnyObject {
    var engine: any Engine { get }
    var radio: (any Radio)? { get set }
}
protocol Unregistered: AnyObject {}

enum Diesel {}
enum Electric {}

extension RoutableService where Destination == any Engine {
    static var engine: Self { Self(declaring: (any Engine).self) }
}
extension RoutableService where Destination == any Wheel {
    static var wheel: Self { Self(declaring: (any Wheel).self) }
}
extension RoutableService where Destination == any Radio {
    static var radio: Self { Self(declaring: (any Radio).self) }
}
extension RoutableService where Destination == any Car {
    static var car: Self { Self(declaring: (any Car).self) }
}
extension RoutableService where Destination == any Unregistered {
    static var unregistered: Self { Self(declaring: (any Unregistered).self) }
}

final class V8: Engine {
    let horsepower: Int
    init(horsepower: Int = 400) { self.horsepower = horsepower }
}
final class WheelImpl: Wheel {
    let position: Int
    init(position: Int) { self.position = position }
}
final class RadioImpl: Radio {}
final class CarImpl: Car {
    let engine: any Engine
    var radio: (any Radio)?
    var log: [String] = []
    init(engine: any Engine) { self.engine = engine }
}

/// Counts calls from any thread.
final class Counter: Sendable {
    private let storage = Atomic<Int>(0)
    var value: Int { storage.load(ordering: .relaxed) }
    @discardableResult
    func increment() -> Int { storage.add(1, ordering: .relaxed).newValue }
}

/// Records events from factories and hooks, in order.
final class EventLog: Sendable {
    private let storage = TestLocked<[String]>([])
    var events: [String] { storage.withLock { $0 } }
    func record(_ event: String) { storage.withLock { $0.append(event) } }
}

struct Boom: Error, CustomStringConvertible {
    var description: String { "boom" }
}

/// A sealed registry made from one closure of registrations.
func sealedRegistry(
    parent: RouteRegistry? = nil, maxDepth: Int = 1_000, _ body: (RouteRegistry) throws -> Void
) throws -> RouteRegistry {
    let registry = RouteRegistry(parent: parent, maxDepth: maxDepth)
    try body(registry)
    try registry.seal()
    return registry
}

/// Runs `body` on `count` threads released together, and waits for all of them.
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let group = ThreadGroup(count: count)
    group.run(body)
}

/// State behind an `NSLock`. The tests use it instead of `Synchronization.Mutex` because ThreadSanitizer
/// sees pthread locks (which `NSLock` is built on) and not the futex-based `Mutex`.
final class TestLocked<State>: @unchecked Sendable {
    // @unchecked: `state` is only reached inside `withLock`, which holds `lock`.
    private let lock = NSLock()
    private var state: State

    init(_ state: State) { self.state = state }

    func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}
