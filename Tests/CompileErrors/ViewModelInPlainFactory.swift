// expected-error: call to main actor-isolated initializer 'init(clock:)' in a synchronous nonisolated context [#ActorIsolatedCall]
// expected-errors: 1
// swiftc-flags: -default-isolation MainActor
//
// In a target whose default isolation is the main actor, a view model with an initializer of its own is
// made only on the main actor, so a plain factory cannot call it.

import Router

nonisolated protocol Clock: AnyObject, Sendable {
    func now() -> Int
}
extension RoutableService<any Clock> {
    nonisolated static var clock: Self { .init(declaring: Destination.self) }
}

final class BellViewModel {
    let time: Int
    init(clock: any Clock) { time = clock.now() }
}
extension RoutableService<BellViewModel> {
    nonisolated static var bell: Self { .init(declaring: Destination.self) }
}

func wire(_ registry: RouteRegistry) throws {
    try registry.register(.bell) { r in BellViewModel(clock: try r.resolve(.clock)) }
}
