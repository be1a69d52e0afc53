// expected-error: main actor-isolated static property 'homeScreen' can not be referenced from a nonisolated context
// expected-errors: 1
// swiftc-flags: -default-isolation MainActor
//
// A module is nonisolated even in a target whose default isolation is the main actor (`RouteModule` is
// `Sendable`, and a type adopting a protocol that inherits `Sendable` is not put on the main actor), so its
// `register(in:)` cannot name a key member declared without `nonisolated`, even a main-actor screen's.

import Router

final class HomeViewModel {
    var names: [String] = []
}
extension RoutableService<HomeViewModel> {
    static var homeScreen: Self { .init(declaring: Destination.self) }
}

struct HomeModule: RouteModule {
    func register(in registry: RouteRegistry) throws {
        try registry.registerOnMainActor(.homeScreen) { _ in HomeViewModel() }
    }
}
