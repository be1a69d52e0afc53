import Router
import Testing

// "A screen for an id, needing a service", as an app target isolated to the main actor writes it: the
// factory takes the id and resolves the service through `r`, with no type annotations, for zero to three
// arguments, in the plain, main-actor and async forms. (One and three arguments once failed with "cannot
// use mutating member on immutable value: 'r' is a 'let' constant".)

nonisolated protocol ArticleStore: AnyObject, Sendable {
    func title(_ id: String) -> String
}
extension RoutableService<any ArticleStore> {
    nonisolated static var articleStore: Self { .init(declaring: Destination.self) }
}
final class MemoryArticleStore: ArticleStore {
    func title(_ id: String) -> String { "Article \(id)" }
}

/// A service made off the main actor for an id.
nonisolated final class ArticleLoader: Sendable {
    let text: String
    init(text: String) { self.text = text }
}
extension RoutableService<ArticleLoader> {
    nonisolated static var articleLoader: Self { .init(declaring: Destination.self) }
}

/// A main-actor view model made for an id.
final class ArticleViewModel {
    let text: String
    init(text: String) { self.text = text }
}
extension RoutableService<ArticleViewModel> {
    nonisolated static var articleViewModel: Self { .init(declaring: Destination.self) }
}

struct ArticleScreensModule: RouteModule {
    func register(in registry: RouteRegistry) throws {
        try registry.register(.articleStore) { _ in MemoryArticleStore() }.scope(.singleton)

        try registry.register(.articleLoader) { r in ArticleLoader(text: try r.resolve(.articleStore).title("-")) }
        try registry.register(.articleLoader, arguments: String.self) { r, id in
            ArticleLoader(text: try r.resolve(.articleStore).title(id))
        }
        try registry.register(.articleLoader, arguments: String.self, Int.self) { r, id, page in
            ArticleLoader(text: try r.resolve(.articleStore).title(id) + " p\(page)")
        }
        try registry.register(.articleLoader, arguments: String.self, Int.self, Bool.self) { r, id, page, draft in
            ArticleLoader(text: try r.resolve(.articleStore).title(id) + " p\(page)" + (draft ? " draft" : ""))
        }

        try registry.registerOnMainActor(.articleViewModel) { r in
            ArticleViewModel(text: try r.resolve(.articleStore).title("-"))
        }
        try registry.registerOnMainActor(.articleViewModel, arguments: String.self) { r, id in
            ArticleViewModel(text: try r.resolve(.articleStore).title(id))
        }
        try registry.registerOnMainActor(.articleViewModel, arguments: String.self, Int.self) { r, id, page in
            ArticleViewModel(text: try r.resolve(.articleStore).title(id) + " p\(page)")
        }
        try registry.registerOnMainActor(.articleViewModel, arguments: String.self, Int.self, Bool.self) {
            r, id, page, draft in
            ArticleViewModel(text: try r.resolve(.articleStore).title(id) + " p\(page)" + (draft ? " draft" : ""))
        }

        try registry.registerAsync(.articleLoader.named("prefetched")) { r in
            let store = try await r.resolveAsync(.articleStore)
            let first = try r.resolve(.articleLoader, arguments: "1")
            let second = try r.resolve(.articleLoader, arguments: "2", 3, true)
            return ArticleLoader(text: [store.title("0"), first.text, second.text].joined(separator: ", "))
        }
    }
}

struct ArgumentFactoriesUsingTheResolverTests {
    @Test func plainFactoriesWithZeroToThreeArgumentsUseTheirResolver() async throws {
        let registry = try RouteRegistry(modules: [ArticleScreensModule()])
        let texts = try await Task.detached {
            [
                try registry.makeDestination(to: .articleLoader).text,
                try registry.makeDestination(to: .articleLoader, arguments: "7").text,
                try registry.makeDestination(to: .articleLoader, arguments: "7", 2).text,
                try registry.makeDestination(to: .articleLoader, arguments: "7", 2, true).text,
            ]
        }.value
        #expect(texts == ["Article -", "Article 7", "Article 7 p2", "Article 7 p2 draft"])
    }

    @Test func mainActorFactoriesWithZeroToThreeArgumentsUseTheirResolver() throws {
        let registry = try RouteRegistry(modules: [ArticleScreensModule()])
        #expect(try registry.makeDestination(to: .articleViewModel).text == "Article -")
        #expect(try registry.makeDestination(to: .articleViewModel, arguments: "7").text == "Article 7")
        #expect(try registry.makeDestination(to: .articleViewModel, arguments: "7", 2).text == "Article 7 p2")
        #expect(
            try registry.makeDestination(to: .articleViewModel, arguments: "7", 2, false).text == "Article 7 p2")
    }

    @Test func anAsyncFactoryUsesItsResolverForArgumentKeys() async throws {
        let registry = try RouteRegistry(modules: [ArticleScreensModule()])
        let loader = try await registry.makeDestinationAsync(to: .articleLoader.named("prefetched"))
        #expect(loader.text == "Article 0, Article 1, Article 2 p3 draft")
    }
}
