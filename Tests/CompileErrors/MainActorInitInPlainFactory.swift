// expected-error: call to main actor-isolated initializer 'init()' in a synchronous nonisolated context [#ActorIsolatedCall]
// expected-errors: 1
//
// A main-actor initializer called from a plain factory closure.

import Router

@MainActor protocol Screen: AnyObject {}
extension RoutableService<any Screen> {
    nonisolated static var profileScreen: Self { .init(declaring: Destination.self) }
}

@MainActor final class ProfileScreen: Screen {
    init() {}
}

func wire(_ registry: RouteRegistry) throws {
    try registry.register(.profileScreen) { _ in ProfileScreen() }
}
