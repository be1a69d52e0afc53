import Router
import Testing

// Issue 26 item 7: input a user mistypes, and what the library says about it.

struct BadInputEdgeTests {
    func books() throws -> RouteRegistry {
        try sealedRegistry { registry in
            try registry.register(.bookScreen) { _ in ScreenImpl(title: "Book") }
            try registry.register(path: "books/:id(Int)", to: .bookScreen)
            try registry.register(path: "books/:id(Int)/reviews", to: .bookScreen)
        }
    }

    @Test func aPathLongerThanThePatternDoesNotFitItEvenWhenItsParameterIsMalformed() throws {
        for path in ["books/abc/def", "books/3/extra", "books/abc/comments"] {
            let error = #expect(throws: RouteError.self, "\(path)") {
                try books().makeDestination(path: path, as: (any Screen).self)
            }
            #expect(error?.code == .unknownPath, "\(path)")
            #expect(
                error?.reason == "No route is registered for the path \"\(path)\".", "\(path)")
        }
    }

    @Test func aPathOfThePatternsLengthWithAMalformedParameterStillNamesThePattern() throws {
        let short = #expect(throws: RouteError.self) {
            try books().makeDestination(path: "books/abc", as: (any Screen).self)
        }
        #expect(
            short?.reason
                == "The path \"books/abc\" fits the pattern \"books/:id(Int)\", but the parameter id is \"abc\", which is not an Int."
        )
        let long = #expect(throws: RouteError.self) {
            try books().makeDestination(path: "books/abc/reviews", as: (any Screen).self)
        }
        #expect(
            long?.reason
                == "The path \"books/abc/reviews\" fits the pattern \"books/:id(Int)/reviews\", but the parameter id is \"abc\", which is not an Int."
        )
    }

    @Test func aParameterWhoseNameIsNotANameIsReportedAtSealing() throws {
        for pattern in ["books/::id", "books/:id:page", "books/:a b", "books/:i)d"] {
            let registry = RouteRegistry()
            try registry.register(.bookScreen) { _ in ScreenImpl(title: "Book") }
            try registry.register(path: pattern, to: .bookScreen)
            let problems = try registry.validate().problems
            #expect(problems.map(\.code) == [.invalidPath], "\(pattern)")
            #expect(problems.first?.key == "\"\(pattern)\"")
            let error = #expect(throws: RouteError.self, "\(pattern)") { try registry.seal() }
            #expect(error?.code == .validationFailed)
        }
        let registry = RouteRegistry()
        try registry.register(.bookScreen) { _ in ScreenImpl(title: "Book") }
        try registry.register(path: "books/::id", to: .bookScreen)
        #expect(
            try registry.validate().problems.map(\.description) == [
                "The path pattern \"books/::id\" names a parameter \":id\", which is not a name: a name has letters, digits and _ only. Hint: Write parameters as :name or :name(Int), with one colon."
            ])
    }

    @Test func aLineFeedInAKeysNameIsEscapedInMessages() throws {
        let named = RoutableService<any Engine>.engine.named("first\nsecond\u{1B}[2J")
        #expect(named.description == "RoutableService<Engine>[\"first\\u{A}second\\u{1B}[2J\"]")
        let registry = try sealedRegistry { registry in
            try registry.register(.car) { r in CarImpl(engine: try r.resolve(named)) }
        }
        let error = #expect(throws: RouteError.self) { try registry.makeDestination(to: .car) }
        #expect(error?.key == "RoutableService<Engine>[\"first\\u{A}second\\u{1B}[2J\"]")
        #expect(error?.path == ["Car", "Engine[\"first\\u{A}second\\u{1B}[2J\"]"])
        #expect(error?.description.contains("\n") == false)
        #expect(error?.reason.contains("first\\u{A}second") == true)
    }

    @Test func aLineFeedInARegisteredKeysNameIsEscapedInTheValidationReport() throws {
        let registry = RouteRegistry()
        let named = RoutableService<any Engine>.engine.named("a\nb")
        try registry.register(named) { _ in V8() }
        try registry.register(named) { _ in V8() }
        try registry.register(.car) { r in CarImpl(engine: try r.resolve(named)) }
            .dependencies(.initializer(named))
        let report = try registry.validate()
        #expect(!report.isValid)
        // The report lists one problem per line: a name cannot add lines of its own.
        #expect(report.problems.allSatisfy { !$0.description.contains("\n") })
        #expect(report.problems.allSatisfy { $0.description.contains("[\"a\\u{A}b\"]") })
    }
}

struct ControlCharactersInRegisteredTextTests {
    @Test func aLineFeedInAnIdentifierRegisteredTwiceIsEscapedInTheReport() throws {
        let registry = RouteRegistry()
        try registry.register(.engine) { _ in V8() }.identifier("parts\nengine")
        try registry.register(.radio) { _ in RadioImpl() }.identifier("parts\nengine")
        let problems = try registry.validate().problems
        #expect(problems.map(\.code) == [.duplicateIdentifier])
        #expect(problems.allSatisfy { !$0.description.contains("\n") })
        #expect(problems.first?.reason.hasPrefix("The identifier \"parts\\u{A}engine\" is registered 2 times") == true)
    }
}
