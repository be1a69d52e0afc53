// expected-error: main actor-isolated static property 'clock' can not be referenced from a Sendable closure
// expected-errors: 1
// swiftc-flags: -default-isolation MainActor
//
// In a target whose default isolation is the main actor, a key member declared without `nonisolated` is
// main-actor isolated, and a factory, which is a nonisolated Sendable closure, cannot name it.

import Router

nonisolated protocol Clock: AnyObject, Sendable { func now() -> Int }
extension RoutableService<any Clock> {
    static var clock: Self { .init(declaring: Destination.self) }
}

nonisolated final class FixedClock: Clock {
    let time: Int
    init(time: Int) { self.time = time }
    func now() -> Int { time }
}

nonisolated final class Alarm {
    let clock: any Clock
    init(clock: any Clock) { self.clock = clock }
}
extension RoutableService<Alarm> {
    nonisolated static var alarm: Self { .init(declaring: Destination.self) }
}

func wire(_ registry: RouteRegistry) throws {
    try registry.register(.clock) { _ in FixedClock(time: 42) }
    try registry.register(.alarm) { r in Alarm(clock: try r.resolve(.clock)) }
}
