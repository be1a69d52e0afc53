// expected-error: call to main actor-isolated initializer 'init(time:)' in a synchronous nonisolated context [#ActorIsolatedCall]
// expected-errors: 1
// swiftc-flags: -default-isolation MainActor
//
// In a target whose default isolation is the main actor, a service declared without `nonisolated` (neither
// its protocol nor its class) has a main-actor initializer, which a plain factory cannot call.

import Router

protocol Clock: AnyObject, Sendable { func now() -> Int }
extension RoutableService<any Clock> {
    nonisolated static var clock: Self { .init(declaring: Destination.self) }
}

final class FixedClock: Clock {
    let time: Int
    init(time: Int) { self.time = time }
    func now() -> Int { time }
}

func wire(_ registry: RouteRegistry) throws {
    try registry.register(.clock) { _ in FixedClock(time: 42) }
}
