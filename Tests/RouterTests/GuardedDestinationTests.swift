import Router
import Testing

// Issue 45, item 1: an interceptor that guards a screen by its key guards every way a route reaches it:
// a route made from the key, from a path whose pattern routes to the key, the lookup by path, and the
// lookup by the registration's identifier. The interceptor below is RouteInterceptor's own doc example,
// word for word.

private protocol UserSession: Sendable {
    var isSignedIn: Bool { get }
}

private final class GuardSession: UserSession {
    let signedIn = TestLocked(false)
    var isSignedIn: Bool { signedIn.withLock { $0 } }
}

private struct NotSignedIn: Error {}

private enum CheckoutTag {}

extension RoutableService where Destination == any Screen {
    fileprivate static var checkoutScreen: Self { Self(declaring: (any Screen).self).tagged(CheckoutTag.self) }
}

private struct SignedInOnly: RouteInterceptor {
    let session: any UserSession
    func beforePerform(_ context: RouteContext) throws {
        if context.leads(to: .checkoutScreen) && !session.isSignedIn { throw NotSignedIn() }
    }
}

struct GuardedDestinationTests {
    private func shop(_ session: GuardSession) throws -> RouteRegistry {
        try sealedRegistry { registry in
            try registry.register(.screen) { _ in ScreenImpl(title: "home") }
            try registry.register(.checkoutScreen) { _ in ScreenImpl(title: "checkout") }.identifier("checkout")
            try registry.register(path: "checkout", to: .checkoutScreen)
            try registry.register(path: "checkout/:step(Int)", to: .checkoutScreen) { screen, parameters in
                screen.bookID = try parameters.int("step")
            }
            try registry.register(path: "home", to: .screen)
            registry.addInterceptor(SignedInOnly(session: session))
        }
    }

    /// Every way to reach the checkout screen, each returning what it made.
    private let ways: [(name: String, reach: (RouteRegistry) throws -> any Screen)] = [
        ("route(to:)", { try $0.route(to: .checkoutScreen).perform() }),
        ("route(path:)", { try $0.route(path: "checkout", as: (any Screen).self).perform() }),
        (
            "route(path:) untyped",
            { try $0.route(path: "checkout/2?tab=1").perform() as? any Screen ?? ScreenImpl(title: "none") }
        ),
        ("makeDestination(path:as:)", { try $0.makeDestination(path: "checkout/3", as: (any Screen).self) }),
        ("makeDestination(identifier:as:)", { try $0.makeDestination(identifier: "checkout", as: (any Screen).self) }),
    ]

    @Test func aGuardOnAKeyRefusesEveryWayToItsScreenWhileSignedOut() throws {
        let registry = try shop(GuardSession())
        for way in ways {
            let error = #expect(throws: RouteError.self, "\(way.name)") { try way.reach(registry) }
            #expect(error?.code == .routeCancelled, "\(way.name)")
            #expect(error?.underlyingError is NotSignedIn, "\(way.name)")
        }
        // What the guard does not name stays open.
        #expect(try registry.route(path: "home", as: (any Screen).self).perform().title == "home")
        #expect(try registry.makeDestination(path: "home", as: (any Screen).self).title == "home")
    }

    @Test func aGuardOnAKeyLetsEveryWayToItsScreenThroughWhenSignedIn() throws {
        let session = GuardSession()
        session.signedIn.withLock { $0 = true }
        let registry = try shop(session)
        for way in ways {
            #expect(try way.reach(registry).title == "checkout", "\(way.name)")
        }
    }

    @Test func aCancelledRouteFromAPathOrIdentifierNamesTheKeyItLeadsTo() throws {
        let registry = try shop(GuardSession())
        let byPath = #expect(throws: RouteError.self) { try registry.route(path: "checkout/2").perform() }
        #expect(
            byPath?.reason
                == "An interceptor cancelled the route to \"checkout/2\", which leads to RoutableService<Screen>[tag: CheckoutTag]: NotSignedIn()."
        )
        let byIdentifier = #expect(throws: RouteError.self) { try registry.makeDestination(identifier: "checkout") }
        #expect(
            byIdentifier?.reason
                == "An interceptor cancelled the route to identifier \"checkout\", which leads to RoutableService<Screen>[tag: CheckoutTag]: NotSignedIn()."
        )
        let byKey = #expect(throws: RouteError.self) { try registry.route(to: .checkoutScreen).perform() }
        #expect(
            byKey?.reason
                == "An interceptor cancelled the route to RoutableService<Screen>[tag: CheckoutTag]: NotSignedIn().")
    }

    @Test func aRouteFromAPathLeadsToTheKeyItsPatternRoutesTo() throws {
        let recorder = ContextRecorder()
        let registry = try sealedRegistry { registry in
            try registry.register(.checkoutScreen) { _ in ScreenImpl(title: "checkout") }.identifier("checkout")
            try registry.register(path: "checkout/:step(Int)", to: .checkoutScreen)
            try registry.register(.greeter, configuration: GreeterConfiguration.init) { config, _ in
                GreeterImpl(greeting: "Hello, \(config.name ?? "?")")
            }
            try registry.register(path: "hello/:name", to: .greeter) { config, parameters in
                config.constructGreeter(name: try parameters.string("name"))
            }
            registry.addInterceptor(recorder)
        }
        try registry.route(path: "checkout/2?tab=1", as: (any Screen).self).perform()
        _ = try registry.makeDestination(path: "hello/ann", as: (any Greeter).self)
        _ = try registry.makeDestination(identifier: "checkout", as: (any Screen).self)
        try registry.route(to: .greeter) { $0.constructGreeter(name: "bo") }.perform()
        let contexts = recorder.contexts
        try #require(contexts.count == 4)
        #expect(contexts[0].target == .path("checkout/2?tab=1"))
        #expect(contexts[0].destinationKey == RouteKey(.checkoutScreen))
        #expect(contexts[0].leads(to: .checkoutScreen))
        #expect(!contexts[0].leads(to: .screen))
        #expect(contexts[1].target == .path("hello/ann"))
        #expect(contexts[1].leads(to: .greeter))
        #expect(!contexts[1].leads(to: .checkoutScreen))
        #expect(contexts[2].target == .identifier("checkout"))
        #expect(contexts[2].leads(to: .checkoutScreen))
        #expect(contexts[2].path == nil)
        #expect(contexts[2].description == "perform identifier \"checkout\"")
        #expect(contexts[3].target == .key(RouteKey(.greeter)))
        #expect(contexts[3].destinationKey == RouteKey(.greeter))
    }

    @Test func aLookupByPathOrIdentifierRunsTheInterceptorsAroundIt() throws {
        let log = EventLog()
        let registry = try sealedRegistry { registry in
            try registry.register(.checkoutScreen) { _ in ScreenImpl(title: "checkout") }.identifier("checkout")
            try registry.register(path: "checkout", to: .checkoutScreen)
            registry.addInterceptor(RecordingInterceptor(name: "log", log: log))
        }
        _ = try registry.makeDestination(path: "checkout", as: (any Screen).self)
        _ = try registry.makeDestination(identifier: "checkout", as: (any Screen).self)
        // A lookup that asks for the wrong type fails after the interceptors let it through.
        #expect(throws: RouteError.self) { try registry.makeDestination(identifier: "checkout", as: Int.self) }
        #expect(
            log.events == [
                "log before perform \"checkout\"", "log after perform", "log success perform",
                "log before perform identifier \"checkout\"", "log after perform", "log success perform",
                "log before perform identifier \"checkout\"", "log after perform", "log error destinationTypeMismatch",
            ])
    }

    @Test func aCancelledLookupByPathOrIdentifierReachesTheErrorHandlerAndMakesNothing() throws {
        let made = Counter()
        let seen = TestLocked<[RouteError.Code]>([])
        let registry = try sealedRegistry { registry in
            try registry.register(.checkoutScreen) { _ in
                made.increment()
                return ScreenImpl(title: "checkout")
            }.identifier("checkout")
            try registry.register(path: "checkout", to: .checkoutScreen)
            registry.addInterceptor(SignedInOnly(session: GuardSession()))
            registry.errorHandler = { error in seen.withLock { $0.append(error.code) } }
        }
        #expect(throws: RouteError.self) { try registry.makeDestination(path: "checkout", as: (any Screen).self) }
        #expect(throws: RouteError.self) {
            try registry.makeDestination(identifier: "checkout", as: (any Screen).self)
        }
        #expect(made.value == 0)
        #expect(seen.withLock { $0 } == [.routeCancelled, .routeCancelled])
    }

    @Test func aLookupByKeyIsNotARouteAndRunsNoInterceptor() throws {
        let log = EventLog()
        let registry = try sealedRegistry { registry in
            try registry.register(.checkoutScreen) { _ in ScreenImpl(title: "checkout") }
            registry.addInterceptor(RecordingInterceptor(name: "log", log: log, veto: true))
        }
        #expect(try registry.makeDestination(to: .checkoutScreen).title == "checkout")
        #expect(log.events.isEmpty)
    }
}

// Issue 45, item 2: a lookup by path or identifier without `as:` compiled to "failed to produce diagnostic
// for expression"; it makes the destination as `Any`, as `route(path:)` makes a `Route<Any>`.
struct UntypedStringLookupTests {
    @Test func aLookupByPathWithoutATypeMakesTheDestinationAsAny() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.screen) { _ in ScreenImpl(title: "settings") }
            try registry.register(path: "settings", to: .screen)
        }
        let settings = try registry.makeDestination(path: "settings")
        #expect((settings as? any Screen)?.title == "settings")
    }

    @Test func aLookupByIdentifierWithoutATypeMakesTheDestinationAsAny() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.screen) { _ in ScreenImpl(title: "settings") }.identifier("settings")
        }
        let settings = try registry.makeDestination(identifier: "settings")
        #expect((settings as? any Screen)?.title == "settings")
    }
}
