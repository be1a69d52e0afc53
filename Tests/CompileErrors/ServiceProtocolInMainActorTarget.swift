// expected-error: main actor-isolated instance method 'now()' cannot be called from outside of the actor
// expected-errors: 1
// swiftc-flags: -default-isolation MainActor
//
// In a target whose default isolation is the main actor, a service protocol declared without `nonisolated`
// has main-actor requirements, which code off the main actor cannot call (the class being nonisolated does
// not help: callers see the protocol).

import Router

protocol Clock: AnyObject, Sendable { func now() -> Int }
extension RoutableService<any Clock> {
    nonisolated static var clock: Self { .init(declaring: Destination.self) }
}

nonisolated final class FixedClock: Clock {
    let time: Int
    init(time: Int) { self.time = time }
    func now() -> Int { time }
}

func timeOffTheMainActor(_ registry: RouteRegistry) async throws -> Int {
    try await Task.detached { try registry.makeDestination(to: .clock).now() }.value
}
