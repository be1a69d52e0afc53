import Router

// What the wishlist module of "Adding an eighth module" uses: in the demo, ShopInterfaces and its own target.
struct Book: Sendable { let title: String }
protocol Wishlist: AnyObject { var books: [Book] { get } }
protocol WishlistScreen: AnyObject {}
protocol BadgeCounter: AnyObject { var count: Int { get } }
protocol UserSession: AnyObject { var currentUser: String? { get } }
struct SignInNeeded: Error {}

extension RoutableService<any Wishlist> {
    nonisolated static var wishlist: Self { .init(declaring: Destination.self) }
}
extension RoutableService<any WishlistScreen> {
    nonisolated static var wishlistScreen: Self { .init(declaring: Destination.self) }
}
extension RoutableService<any BadgeCounter> {
    nonisolated static var badgeCounter: Self { .init(declaring: Destination.self) }
}
extension RoutableService<any UserSession> {
    nonisolated static var userSession: Self { .init(declaring: Destination.self) }
}

final class KeptBooks: Wishlist { var books: [Book] = [] }
final class WishlistBadge: BadgeCounter {
    let count: Int
    init(count: Int) { self.count = count }
}
final class WishlistPage: WishlistScreen {
    let books: [Book]
    init(books: [Book]) { self.books = books }
}
