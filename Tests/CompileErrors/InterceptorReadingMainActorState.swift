// expected-error: main actor-isolated property 'isSignedIn' can not be referenced from a nonisolated autoclosure
// expected-errors: 1
// swiftc-flags: -default-isolation MainActor
//
// An interceptor is nonisolated (``RouteInterceptor`` inherits `Sendable`) and runs on whichever thread
// performs the route; a class it reads declared without `nonisolated` is on the main actor, even though it
// adopts `Sendable`.

import Router

final class SignInState: Sendable {
    var isSignedIn = false
}
struct SignInNeeded: Error {}
final class CartScreen {}
extension RoutableService<CartScreen> {
    nonisolated static var cartScreen: Self { .init(declaring: Destination.self) }
}

struct SignedInOnly: RouteInterceptor {
    let state: SignInState
    func beforePerform(_ context: RouteContext) throws {
        if context.leads(to: .cartScreen) && !state.isSignedIn { throw SignInNeeded() }
    }
}
