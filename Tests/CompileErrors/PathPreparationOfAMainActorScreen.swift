// expected-error: main actor-isolated property 'bookID' can not be mutated from a Sendable closure
// expected-errors: 1
// swiftc-flags: -default-isolation MainActor
//
// A path's `preparation` in `register(path:to:)` is a nonisolated `Sendable` closure, so it cannot set a
// main-actor screen's property from the path's parameters; `registerOnMainActor(path:to:)` can.

import Router

final class BookScreen {
    var bookID = 0
}
extension RoutableService<BookScreen> {
    nonisolated static var book: Self { .init(declaring: Destination.self) }
}

func wire(_ registry: RouteRegistry) throws {
    try registry.registerOnMainActor(.book) { _ in BookScreen() }
    try registry.register(path: "books/:id(Int)", to: .book) { screen, p in screen.bookID = try p.int("id") }
}
