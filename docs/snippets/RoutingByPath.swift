import Router

protocol Screen: AnyObject {}
protocol ProfileScreen: Screen {}
protocol BookScreen: Screen { var bookID: Int? { get set } }

extension RoutableService<any ProfileScreen> {
    nonisolated static var profileScreen: Self { .init(declaring: Destination.self) }
}
extension RoutableService<any BookScreen> {
    nonisolated static var bookScreen: Self { .init(declaring: Destination.self) }
}

final class ProfilePage: ProfileScreen {}
final class BookPage: BookScreen { var bookID: Int? }

// The screens the article's paths lead to.
func setUp(_ registry: RouteRegistry) throws {
    try registry.register(.profileScreen) { _ in ProfilePage() }
    try registry.register(.bookScreen) { _ in BookPage() }
}
