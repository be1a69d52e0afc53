// expected-error: converting function value of type '@MainActor @Sendable (any Clock) -> BellViewModel' to '@Sendable (any Clock) throws -> BellViewModel' loses global actor 'MainActor'
// expected-errors: 1
// swiftc-flags: -default-isolation MainActor
//
// A view model's main-actor initializer auto-wired with the plain form, whose initializer is nonisolated.

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
    try registry.register(.bell, initializer: BellViewModel.init)
}
