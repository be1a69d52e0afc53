import Router
import Testing

/// A screen protocol narrower than the `Screen` the test stack presents.
protocol ProfileScreen: Screen {
    var user: String { get }
}

final class ProfileScreenImpl: ProfileScreen {
    let title = "Profile"
    var bookID: Int?
    let user: String
    init(user: String) { self.user = user }
}

extension RoutableService where Destination == any ProfileScreen {
    static var profileScreen: Self { Self(declaring: (any ProfileScreen).self) }
}

struct RouteWideningTests {
    func registry() throws -> RouteRegistry {
        try sealedRegistry { registry in
            try registry.register(.profileScreen) { _ in ProfileScreenImpl(user: "ann") }
            try registry.register(path: "profile", to: .profileScreen)
        }
    }

    @Test func aRouteToANarrowerProtocolIsShownAndRemovedByAWiderPresenter() throws {
        let stack = ScreenStack()
        let route: Route<any ProfileScreen> = try registry().route(to: .profileScreen)
        var states: [RouteState] = []
        route.stateDidChange = { _, new in states.append(new) }
        let profile = try route.perform(on: stack, as: { $0 })
        #expect(profile.user == "ann")
        #expect(route.state == .routed)
        #expect(stack.screens.count == 1)
        #expect(stack.screens.first === profile)
        #expect(route.destination?.user == "ann")
        try route.remove()
        #expect(stack.screens.isEmpty, "the removal reached the wide presenter")
        #expect(states == [.routing, .routed, .removing, .removed])
    }

    @Test func aWidenedRouteWaitsForThePresenterAndReportsItsFailure() throws {
        let stack = ScreenStack()
        stack.manual = true
        let route = try registry().route(to: .profileScreen)
        var shown: String?
        let profile = try route.perform(on: stack, as: { $0 }, completion: { shown = (try? $0.get())?.user })
        #expect(route.state == .routing)
        stack.finishShowing()
        #expect(route.state == .routed)
        #expect(shown == "ann")
        _ = profile
        let failing = ScreenStack()
        failing.failNext = true
        let other = try registry().route(to: .profileScreen)
        var failure: RouteError?
        _ = try other.perform(
            on: failing, as: { $0 },
            completion: {
                if case .failure(let error) = $0 { failure = error }
            })
        #expect(other.state == .unrouted)
        #expect(failure?.code == .destinationUnavailable)
    }

    @Test func aRouteWhosePresenterIsGoneRemovesAtOnce() throws {
        let route = try registry().route(to: .profileScreen)
        var stack: ScreenStack? = ScreenStack()
        let profile = try route.perform(on: try #require(stack), as: { $0 })
        stack = nil
        try route.remove()
        #expect(route.state == .removed)
        _ = profile
    }
}
