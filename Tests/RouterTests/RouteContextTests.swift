import Router
import Testing

// What an interceptor is told about a route is a value, not text: the key a route was made from, or the
// path, so that no interceptor parses quotes (issue 26, item 9).

/// Keeps every context it is shown.
final class ContextRecorder: RouteInterceptor, @unchecked Sendable {
    // @unchecked: `contexts` is only reached inside `storage`'s lock.
    private let storage = TestLocked<[RouteContext]>([])
    var contexts: [RouteContext] { storage.withLock { $0 } }
    func beforePerform(_ context: RouteContext) throws { storage.withLock { $0.append(context) } }
}

struct RouteContextTests {
    func registry(_ recorder: ContextRecorder) throws -> RouteRegistry {
        try sealedRegistry { registry in
            try registry.register(.screen) { _ in ScreenImpl(title: "plain") }
            try registry.register(.bookScreen) { _ in ScreenImpl(title: "book") }
            try registry.register(path: "books/:id(Int)", to: .bookScreen)
            registry.addInterceptor(recorder)
        }
    }

    @Test func aRouteMadeFromAKeyTellsTheInterceptorThatKey() throws {
        let recorder = ContextRecorder()
        try registry(recorder).route(to: .bookScreen).perform()
        let context = try #require(recorder.contexts.first)
        #expect(context.target == .key(RouteKey(.bookScreen)))
        #expect(context.leads(to: .bookScreen))
        // Same protocol, other tag: another key.
        #expect(!context.leads(to: .screen))
        #expect(context.path == nil)
        #expect(context.description == "perform RoutableService<Screen>[tag: BookTag]")
    }

    @Test func aRouteMadeFromAPathTellsTheInterceptorThePathAsGiven() throws {
        let recorder = ContextRecorder()
        try registry(recorder).route(path: "books/3?tab=1", as: (any Screen).self).perform()
        let context = try #require(recorder.contexts.first)
        #expect(context.target == .path("books/3?tab=1"))
        #expect(context.path == "books/3")
        // The key the pattern routes to (issue 45): a guard on the key holds for the path.
        #expect(context.leads(to: .bookScreen))
        #expect(!context.leads(to: .screen))
        #expect(context.description == "perform \"books/3?tab=1\"")
    }

    @Test func routeKeysAreEqualExactlyWhenTheyNameTheSameKey() {
        #expect(RouteKey(.screen) == RouteKey(RoutableService<any Screen>.screen))
        #expect(RouteKey(.screen) != RouteKey(.bookScreen))
        #expect(RouteKey(.screen) != RouteKey(RoutableService<any Screen>.screen.named("other")))
        #expect(Set([RouteKey(.screen), RouteKey(.screen), RouteKey(.bookScreen)]).count == 2)
    }
}
