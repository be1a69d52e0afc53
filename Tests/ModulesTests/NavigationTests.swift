import CatalogFeature
import Router
import ShopApp
import ShopInterfaces
import ShopTestSupport
import Testing

/// A screen that keeps itself alive, to show the leak detector at work.
protocol LeakingScreen: Screen {}

extension RoutableService where Destination == any LeakingScreen {
    /// The leaking screen, under its own key.
    static var leakyScreen: Self { Self(declaring: (any LeakingScreen).self) }
}

/// A deliberately leaking screen: it holds itself, so removing its route does not release it.
final class LeakyScreen: LeakingScreen {
    var itself: LeakyScreen?
    let title = "Leaky"

    init() {
        itself = self
    }

    func render() -> String { "  I never leave." }
}

struct NavigationTests {
    func catalogWithLeakyScreen() throws -> RouteRegistry {
        try testRegistry([CatalogModule()]) { registry in
            try registry.register(.leakyScreen) { _ in LeakyScreen() }
        }
    }

    @Test func aScreenRouteGoesThroughEveryStateOnTheStack() throws {
        let registry = try testRegistry([CatalogModule()])
        let stack = ScreenStack()
        let route = try registry.route(path: "books/3", as: (any Screen).self)
        var states: [RouteState] = []
        route.stateDidChange = { _, new in states.append(new) }
        #expect(route.canPerform)
        #expect(!route.canRemove)
        var shown: String?
        try route.perform(presenter: stack, completion: { shown = (try? $0.get())?.title })
        #expect(shown == "Server-Side Swift")
        #expect(route.state == .routed)
        #expect(route.destination === stack.screens.first)
        #expect(route.canRemove && !route.canPerform)
        var removed = false
        try route.remove(completion: { removed = (try? $0.get()) != nil })
        #expect(removed)
        #expect(stack.screens.isEmpty)
        #expect(states == [.routing, .routed, .removing, .removed])
        // The route held its screen weakly: with the stack done with it, it is gone.
        #expect(route.destination == nil)
    }

    @Test func theNavigatorPushesReplacesAndGoesBack() throws {
        let registry = try testRegistry([CatalogModule()])
        let navigator = Navigator(stack: ScreenStack())
        #expect(try navigator.back() == "Already at Home.")
        let search = { (query: String) in
            try registry.route(to: .searchScreen) { $0.constructSearchResults(query: query) }
        }
        try navigator.show(search("swift"), name: "search", as: { $0 })
        try navigator.show(search("tale"), name: "search", as: { $0 })
        #expect(navigator.stack.screens.map(\.title) == ["Search \"tale\""])
        try navigator.show(registry.route(path: "books/9", as: (any Screen).self), name: "books/9")
        #expect(navigator.shown.map(\.state) == [.routed, .routed])
        #expect(try navigator.back() == "Left Terminal Tales; back to Search \"tale\".")
        try navigator.show(registry.route(path: "books/1", as: (any Screen).self), name: "books/1")
        #expect(try navigator.backToRoot() == 2)
        #expect(navigator.stack.screens.isEmpty)
        #expect(try navigator.back() == "Already at Home.")
    }

    @Test func aScreenKeptAliveAfterBackIsReportedAsALeak() async throws {
        let registry = try catalogWithLeakyScreen()
        let log = ErrorLog()
        registry.errorHandler = { log.record($0) }
        registry.leakCheckDelay = .milliseconds(20)
        let navigator = Navigator(stack: ScreenStack())
        try navigator.show(registry.route(to: .leakyScreen), name: "leaky", as: { $0 })
        weak let leaked = navigator.stack.screens.last
        #expect(try navigator.back() == "Left Leaky; back to Home.")
        await registry.waitForLeakChecks()
        let leaks = log.all.filter { $0.code == .destinationLeaked }
        #expect(leaks.count == 1)
        #expect(
            leaks.first?.description
                == "The destination LeakyScreen of RoutableService<LeakingScreen> was removed but is still "
                + "alive after 0.02 seconds. Hint: Look for a strong reference to it: a closure capturing it, a "
                + "delegate, a cache.")
        #expect(leaked != nil)
        (leaked as? LeakyScreen)?.itself = nil
        #expect(leaked == nil)
    }

    @Test func aReleasedScreenStaysSilent() async throws {
        let registry = try catalogWithLeakyScreen()
        let log = ErrorLog()
        registry.errorHandler = { log.record($0) }
        registry.leakCheckDelay = .milliseconds(20)
        let navigator = Navigator(stack: ScreenStack())
        try navigator.show(registry.route(path: "books/3", as: (any Screen).self), name: "books/3")
        let search = try registry.route(to: .searchScreen) { $0.constructSearchResults(query: "s") }
        try navigator.show(search, name: "s", as: { $0 })
        try navigator.backToRoot()
        await registry.waitForLeakChecks()
        #expect(log.all.isEmpty)
    }

    @Test func aScreenThatCannotBeDrawnLeavesTheRouteUnrouted() throws {
        struct Broken: Error {}
        let registry = try testRegistry([CatalogModule()])
        let navigator = Navigator(stack: ScreenStack { _ in throw Broken() })
        let route = try registry.route(path: "books/2", as: (any Screen).self)
        let error = #expect(throws: RouteError.self) { try navigator.show(route, name: "books/2") }
        #expect(error?.code == .destinationUnavailable)
        #expect(route.state == .unrouted)
        #expect(navigator.shown.isEmpty)
    }
}
