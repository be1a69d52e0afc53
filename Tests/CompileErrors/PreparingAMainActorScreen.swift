// expected-error: main actor-isolated property 'greeting' can not be mutated from a Sendable closure
// expected-errors: 1
// swiftc-flags: -default-isolation MainActor
//
// A `preparing` closure is a nonisolated `Sendable` closure, even after `registerOnMainActor`, so it cannot
// set a main-actor screen's properties.

import Router

final class InboxScreen {
    var greeting = ""
}
extension RoutableService<InboxScreen> {
    nonisolated static var inboxScreen: Self { .init(declaring: Destination.self) }
}

func wire(_ registry: RouteRegistry) throws {
    try registry.registerOnMainActor(.inboxScreen) { _ in InboxScreen() }
        .preparing { screen, _ in screen.greeting = "Hello" }
}
