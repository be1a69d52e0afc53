// expected-error: type 'ReferenceWritableKeyPath<ProfilePresenter, Optional<any ProfileView>>' does not conform to the 'Sendable' protocol
// expected-errors: 2
// swiftc-flags: -default-isolation MainActor
//
// Swinject's `initCompleted`, mapped to `.injecting(\.view, .profileView)`, for a main-actor presenter:
// a module is nonisolated, and no key path to a main-actor property can be formed there (nor a `Sendable`
// one anywhere); `.injectingOnMainActor(.profileView) { presenter, view in presenter.view = view }` can.

import Router

protocol ProfileView: AnyObject {}
extension RoutableService<any ProfileView> {
    nonisolated static var profileView: Self { .init(declaring: Destination.self) }
}
final class ProfilePresenter {
    weak var view: (any ProfileView)?
}
extension RoutableService<ProfilePresenter> {
    nonisolated static var profilePresenter: Self { .init(declaring: Destination.self) }
}

struct ProfileModule: RouteModule {
    func register(in registry: RouteRegistry) throws {
        try registry.registerOnMainActor(.profilePresenter) { _ in ProfilePresenter() }
            .injecting(\.view, .profileView)
    }
}
