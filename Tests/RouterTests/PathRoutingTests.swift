import Router
import Testing

struct PathRoutingTests {
    func registry() throws -> RouteRegistry {
        try sealedRegistry { registry in
            try registry.register(.screen) { _ in ScreenImpl(title: "Profile") }
            try registry.register(.bookScreen) { _ in ScreenImpl(title: "Book") }
            try registry.register(path: "settings/profile", to: .screen)
            try registry.register(path: "books/:id(Int)", to: .bookScreen) { screen, parameters in
                screen.bookID = try parameters.int("id")
            }
            try registry.register(path: "books/featured", to: .bookScreen)
        }
    }

    @Test func aLiteralPathReachesItsRouter() throws {
        #expect(try registry().makeDestination(path: "settings/profile", as: (any Screen).self).title == "Profile")
    }

    @Test func typedParametersAreHandedToTheDestination() throws {
        let screen = try registry().makeDestination(path: "books/42", as: (any Screen).self)
        #expect(screen.bookID == 42)
    }

    @Test func aLiteralSegmentWinsOverAParameter() throws {
        let screen = try registry().makeDestination(path: "books/featured", as: (any Screen).self)
        #expect(screen.bookID == nil)
    }

    @Test func queryParametersAreAvailable() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.screen) { _ in ScreenImpl(title: "Search") }
            try registry.register(path: "search", to: .screen) { screen, parameters in
                screen.bookID = try parameters.int("page")
                #expect(parameters["q"] == "swift")
            }
        }
        #expect(try registry.makeDestination(path: "search?q=swift&page=3", as: (any Screen).self).bookID == 3)
    }

    @Test func aMalformedParameterNamesThePattern() throws {
        let error = #expect(throws: RouteError.self) {
            try registry().makeDestination(path: "books/abc", as: (any Screen).self)
        }
        #expect(error?.code == .invalidPath)
        #expect(
            error?.reason
                == "The path \"books/abc\" fits the pattern \"books/:id(Int)\", but the parameter id is \"abc\", which is not an Int."
        )
    }

    @Test func aMissingParameterNamesThePattern() throws {
        let error = #expect(throws: RouteError.self) {
            try registry().makeDestination(path: "books", as: (any Screen).self)
        }
        #expect(
            error?.reason == "The path \"books\" fits the pattern \"books/:id(Int)\", but the parameter id is missing.")
    }

    @Test func anUnknownPathListsThePatterns() throws {
        let error = #expect(throws: RouteError.self) {
            try registry().makeDestination(path: "nowhere", as: (any Screen).self)
        }
        #expect(error?.code == .unknownPath)
        #expect(
            error?.description
                == "No route is registered for the path \"nowhere\". Hint: Registered patterns: \"settings/profile\", \"books/:id(Int)\", \"books/featured\"."
        )
    }

    @Test func aPatternWithAnUnknownTypeIsReportedAtSealing() throws {
        let registry = RouteRegistry()
        try registry.register(.screen) { _ in ScreenImpl(title: "") }
        try registry.register(path: "books/:id(Integer)", to: .screen)
        let problems = try registry.validate().problems
        #expect(
            problems.map(\.description) == [
                "The path pattern \"books/:id(Integer)\" gives the parameter id the unknown type Integer. Hint: Use String, Int, Double or Bool."
            ])
        #expect(problems.first?.code == .invalidPath)
        #expect(problems.first?.key == "\"books/:id(Integer)\"")
        #expect(throws: RouteError.self) { try registry.seal() }
    }

    @Test func aPathCanBePerformedAsARoute() throws {
        let stack = ScreenStack()
        let route = try registry().route(path: "books/7", as: (any Screen).self)
        let screen = try route.perform(presenter: stack)
        #expect(screen.bookID == 7)
        #expect(stack.screens.count == 1)
        #expect(route.state == .routed)
    }

    @Test func duplicatePatternsAndMissingTargetsAreReportedAtSealing() throws {
        let registry = RouteRegistry()
        try registry.register(.screen) { _ in ScreenImpl(title: "") }
        try registry.register(path: "a/:x", to: .screen)
        try registry.register(path: "a/:x", to: .screen)
        try registry.register(path: "b", to: .bookScreen)
        #expect(try registry.validate().problems.map(\.code) == [.duplicateIdentifier, .unregisteredKey])
    }
}
