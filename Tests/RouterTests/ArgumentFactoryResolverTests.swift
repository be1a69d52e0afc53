import Router
import Testing

// A factory that takes runtime arguments resolves its own dependencies through `r`, written as a Swinject or
// ZIKRouter user writes it first: `{ r, id in Detail(id: id, repo: try r.resolve(.repo)) }`, with no type
// annotations. Every form is here, for zero to three arguments: plain, main-actor, and looked up from an
// async factory. (One and three arguments once failed to compile: "cannot use mutating member on immutable
// value: 'r' is a 'let' constant"; only two did.)

protocol Repository: AnyObject { var name: String { get } }
protocol Detail: AnyObject { var text: String { get } }

extension RoutableService<any Repository> {
    static var repository: Self { .init(declaring: (any Repository).self) }
}
extension RoutableService<any Detail> {
    static var detail: Self { .init(declaring: (any Detail).self) }
}

final class RepositoryImpl: Repository {
    let name = "repo"
}
final class DetailImpl: Detail {
    let text: String
    init(_ parts: [String], repository: any Repository) {
        text = (parts + [repository.name]).joined(separator: " ")
    }
}
@MainActor final class DetailScreen: Detail {
    nonisolated let text: String
    init(_ parts: [String], repository: any Repository) {
        text = (parts + [repository.name]).joined(separator: " ")
    }
}

/// A registry with the repository and a detail for each argument count, the factories resolving the
/// repository through `r`.
private func detailsRegistry() throws -> RouteRegistry {
    try sealedRegistry { registry in
        try registry.register(.repository) { _ in RepositoryImpl() }
        try registry.register(.detail) { r in DetailImpl([], repository: try r.resolve(.repository)) }
        try registry.register(.detail, arguments: String.self) { r, id in
            DetailImpl([id], repository: try r.resolve(.repository))
        }
        try registry.register(.detail, arguments: String.self, Int.self) { r, id, page in
            DetailImpl([id, "\(page)"], repository: try r.resolve(.repository))
        }
        try registry.register(.detail, arguments: String.self, Int.self, Bool.self) { r, id, page, draft in
            DetailImpl([id, "\(page)", "\(draft)"], repository: try r.resolve(.repository))
        }
        // A multi-statement body, where the closure's type is settled before its body is checked.
        try registry.register(.detail.named("long"), arguments: Int.self) { r, page in
            let repository = try r.resolve(.repository)
            return DetailImpl(["long", "\(page)"], repository: repository)
        }
    }
}

/// The same, made on the main actor.
private func screensRegistry() throws -> RouteRegistry {
    try sealedRegistry { registry in
        try registry.register(.repository) { _ in RepositoryImpl() }
        try registry.registerOnMainActor(.detail) { r in DetailScreen([], repository: try r.resolve(.repository)) }
        try registry.registerOnMainActor(.detail, arguments: String.self) { r, id in
            DetailScreen([id], repository: try r.resolve(.repository))
        }
        try registry.registerOnMainActor(.detail, arguments: String.self, Int.self) { r, id, page in
            DetailScreen([id, "\(page)"], repository: try r.resolve(.repository))
        }
        try registry.registerOnMainActor(.detail, arguments: String.self, Int.self, Bool.self) {
            r, id, page, draft in
            DetailScreen([id, "\(page)", "\(draft)"], repository: try r.resolve(.repository))
        }
    }
}

struct ArgumentFactoryResolverTests {
    @Test func factoriesWithZeroToThreeArgumentsResolveTheirDependenciesThroughTheResolver() throws {
        let registry = try detailsRegistry()
        #expect(try registry.makeDestination(to: .detail).text == "repo")
        #expect(try registry.makeDestination(to: .detail, arguments: "a").text == "a repo")
        #expect(try registry.makeDestination(to: .detail, arguments: "a", 2).text == "a 2 repo")
        #expect(try registry.makeDestination(to: .detail, arguments: "a", 2, true).text == "a 2 true repo")
        #expect(try registry.makeDestination(to: .detail.named("long"), arguments: 5).text == "long 5 repo")
    }

    @MainActor @Test func mainActorFactoriesWithZeroToThreeArgumentsResolveThroughTheResolver() throws {
        let registry = try screensRegistry()
        #expect(try registry.makeDestination(to: .detail).text == "repo")
        #expect(try registry.makeDestination(to: .detail, arguments: "a").text == "a repo")
        #expect(try registry.makeDestination(to: .detail, arguments: "a", 2).text == "a 2 repo")
        #expect(try registry.makeDestination(to: .detail, arguments: "a", 2, true).text == "a 2 true repo")
    }

    @Test func anAsyncFactoryResolvesArgumentFactoriesThatUseTheirResolver() async throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.repository) { _ in RepositoryImpl() }
            try registry.register(.detail, arguments: String.self) { r, id in
                DetailImpl([id], repository: try r.resolve(.repository))
            }
            try registry.register(.detail, arguments: String.self, Int.self) { r, id, page in
                DetailImpl([id, "\(page)"], repository: try r.resolve(.repository))
            }
            try registry.register(.detail, arguments: String.self, Int.self, Bool.self) { r, id, page, draft in
                DetailImpl([id, "\(page)", "\(draft)"], repository: try r.resolve(.repository))
            }
            try registry.registerAsync(.detail.named("summary")) { r in
                await Task.yield()
                let repository = try await r.resolveAsync(.repository)
                let parts = [
                    try r.resolve(.detail, arguments: "a").text,
                    try r.resolve(.detail, arguments: "b", 2).text,
                    try r.resolve(.detail, arguments: "c", 3, false).text,
                ]
                return DetailImpl(parts, repository: repository)
            }
        }
        let summary = try await registry.makeDestinationAsync(to: .detail.named("summary"))
        #expect(summary.text == "a repo b 2 repo c 3 false repo repo")
    }

    @Test func aProviderOfAnArgumentFactoryRunsItWithItsResolver() throws {
        let registry = try detailsRegistry()
        let details = try registry.provider(.detail, arguments: String.self)
        #expect(try details("x").text == "x repo")
    }
}
