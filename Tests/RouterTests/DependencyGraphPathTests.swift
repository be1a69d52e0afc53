import Router
import Testing

struct DependencyGraphPathTests {
    @Test func pathsAppearInTheGraphWithTheKeysTheyRouteTo() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.profileScreen) { _ in ProfileScreenImpl(user: "ann") }
            try registry.register(path: "profile", to: .profileScreen)
            try registry.register(path: "users/:name/profile", to: .profileScreen)
        }
        let graph = try registry.dependencyGraph()
        #expect(graph.paths.map(\.pattern) == ["profile", "users/:name/profile"])
        #expect(graph.paths.map(\.to) == [0, 0])
        #expect(graph.paths.first?.key == "RoutableService<ProfileScreen>")
        #expect(
            graph.textTree == """
                ProfileScreen (transient, RouteRegistry)
                Paths
                ├─ profile → ProfileScreen (transient, RouteRegistry)
                └─ users/:name/profile → ProfileScreen (transient, RouteRegistry)

                """)
        let dot = graph.dot.split(separator: "\n").map(String.init)
        #expect(dot.contains("  p1 [label=\"users/:name/profile\", shape=ellipse, color=blue];"))
        #expect(dot.contains("  p1 -> n0 [label=\"path\", color=blue];"))
    }

    @Test func aGraphWithoutPathsReadsAsBefore() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.profileScreen) { _ in ProfileScreenImpl(user: "ann") }
        }
        let graph = try registry.dependencyGraph()
        #expect(graph.paths.isEmpty)
        #expect(graph.textTree == "ProfileScreen (transient, RouteRegistry)\n")
        #expect(!graph.dot.contains("path"))
    }
}

private struct ProfileModule: RouteModule {
    func register(in registry: RouteRegistry) throws {
        try registry.register(.profileScreen) { _ in ProfileScreenImpl(user: "ann") }
    }
}

private struct ProfilePathsModule: RouteModule {
    func register(in registry: RouteRegistry) throws {
        try registry.register(path: "me", to: .profileScreen)
    }
}

struct DependencyGraphClusterTests {
    @Test func eachModulesRegistrationsAndPathsAreBoxedTogetherInTheDot() throws {
        let registry = try RouteRegistry(modules: [ProfileModule(), ProfilePathsModule()])
        let dot = try registry.dependencyGraph().dot.split(separator: "\n").map(String.init)
        #expect(dot.contains("  subgraph cluster_0 { label=\"ProfileModule\"; color=gray; n0; }"))
        #expect(dot.contains("  subgraph cluster_1 { label=\"ProfilePathsModule\"; color=gray; p0; }"))
        #expect(dot.contains("  p0 -> n0 [label=\"path\", color=blue];"))
    }
}
