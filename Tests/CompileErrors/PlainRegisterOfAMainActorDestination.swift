// expected-error: 'register(_:file:line:factory:)' is deprecated: the destination is a MainActorDestination, made on the main actor: register it with registerOnMainActor [#DeprecatedDeclaration]
// expected-errors: 1
// swiftc-flags: -default-isolation MainActor -warnings-as-errors
//
// A plain `register` of a type marked `MainActorDestination` is deprecated in favour of
// `registerOnMainActor` (a warning; an error with warnings as errors, as here). Without the marker the
// same line compiles silently: the compiler cannot see that the class is made on the main actor.

import Router

final class HomeViewModel: MainActorDestination {
    var names: [String] = []
}
extension RoutableService<HomeViewModel> {
    nonisolated static var home: Self { .init(declaring: Destination.self) }
}

func wire(_ registry: RouteRegistry) throws {
    try registry.register(.home) { _ in HomeViewModel() }
}
