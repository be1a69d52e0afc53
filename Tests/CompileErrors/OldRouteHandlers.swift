// expected-error: 'perform(presenter:preparation:onSuccess:onError:completion:isolation:)' is unavailable: onSuccess and onError are replaced by completion: perform(presenter:completion:), and a failure before presenting is also thrown
// expected-errors: 1
//
// A route performed with the handlers it had before `completion` was the only one.

import Router

protocol Screen: AnyObject {}

extension RoutableService<any Screen> {
    nonisolated static var screen: Self { .init(declaring: Destination.self) }
}

func show(_ registry: RouteRegistry) throws {
    let route = try registry.route(to: .screen)
    try route.perform(onSuccess: { screen in print(screen) }, onError: { error in print(error) })
}
