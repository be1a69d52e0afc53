import AccountFeature
import Router
import ShopInterfaces
import ShopTestSupport
import Testing

/// Something a signed-in user owns, standing in for the other modules' per-user services.
private protocol Basket: AnyObject, Sendable {}
private final class TestBasket: Basket {}

extension RoutableService where Destination == any Basket {
    fileprivate static var basket: Self { Self(declaring: (any Basket).self) }
}

/// A screen only a signed-in user may see, standing in for the cart, checkout and chat screens.
private final class SecretScreen: Screen {
    let title = "Secret"
    func render() -> String { "  secret" }
}

extension RoutableService where Destination == any Screen {
    fileprivate static var secretScreen: Self { Self(declaring: (any Screen).self) }
}

struct AccountModuleTests {
    @Test func theSessionIsASingletonThatSignsInOnce() throws {
        let registry = try testRegistry([AccountModule(userScope: CustomScope("user"))])
        let session = try registry.makeDestination(to: .userSession)
        #expect(try registry.makeDestination(to: .userSession) === session)
        #expect(session.currentUser == nil)
        #expect(session.signIn("ann"))
        #expect(!session.signIn("bob"))
        #expect(session.currentUser == "ann")
        #expect(session.signOut() == "ann")
        #expect(session.signOut() == nil)
    }

    @Test func signingOutResetsTheUserScope() throws {
        let scope = CustomScope("user")
        let registry = try testRegistry([AccountModule(userScope: scope)]) { registry in
            try registry.register(.basket) { _ in TestBasket() }.scope(.custom(scope))
        }
        let session = try registry.makeDestination(to: .userSession)
        _ = session.signIn("ann")
        let first = try registry.makeDestination(to: .basket)
        #expect(scope.count == 1)
        _ = session.signOut()
        #expect(scope.count == 0)
        #expect(try registry.makeDestination(to: .basket) !== first)
    }

    @Test func theInterceptorCancelsEveryWayToAProtectedKeyUntilSignIn() throws {
        let registry = RouteRegistry()
        try registry.load(AccountModule(userScope: CustomScope("user")))
        try registry.register(.secretScreen) { _ in SecretScreen() }
        try registry.register(path: "secret/:page", to: .secretScreen)
        // A second path to the same screen: the interceptor knows the key, and no path.
        try registry.register(path: "vault", to: .secretScreen)
        registry.addInterceptor(
            SignInRequired(keys: [RouteKey(RoutableService<any Screen>.secretScreen)]) {
                [weak registry] in try registry?.makeDestinationIfRegistered(to: .userSession)
            })
        try registry.seal()
        for route in [
            try registry.route(to: .secretScreen), try registry.route(path: "secret/2?x=1", as: (any Screen).self),
            try registry.route(path: "vault", as: (any Screen).self),
        ] {
            let error = #expect(throws: RouteError.self) { try route.perform() }
            #expect(error?.code == .routeCancelled)
            #expect(error?.shopMessage as? SignInNeeded == SignInNeeded())
            #expect(route.state == .unrouted)
        }
        for path in ["secret/2", "vault"] {
            let error = #expect(throws: RouteError.self) {
                try registry.makeDestination(path: path, as: (any Screen).self)
            }
            #expect(error?.shopMessage as? SignInNeeded == SignInNeeded())
        }
        _ = try registry.makeDestination(to: .userSession).signIn("ann")
        #expect(try registry.route(to: .secretScreen).perform().title == "Secret")
        #expect(try registry.route(path: "secret/2", as: (any Screen).self).perform().title == "Secret")
        #expect(try registry.makeDestination(path: "vault", as: (any Screen).self).title == "Secret")
    }
}
