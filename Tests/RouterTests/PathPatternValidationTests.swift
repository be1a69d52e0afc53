import Router
import Testing

// Issue 16 item 7: malformed and overlapping path patterns are reported at sealing, naming the pattern.

struct PathPatternValidationTests {
    /// The problems sealing would report for `patterns`, all routed to a registered key.
    func problems(_ patterns: [String]) throws -> [String] {
        let registry = RouteRegistry()
        try registry.register(.engine) { _ in V8() }
        for pattern in patterns { try registry.register(path: pattern, to: .engine) }
        return try registry.validate().problems.map { "\($0.code) \($0.key): \($0.description)" }
    }

    @Test func aRepeatedParameterNameIsReported() throws {
        #expect(
            try problems(["users/:id/posts/:id(Int)"]) == [
                "invalidPath \"users/:id/posts/:id(Int)\": The path pattern \"users/:id/posts/:id(Int)\" names two parameters id. Hint: Give each parameter its own name."
            ])
    }

    @Test func anUnclosedTypeIsReported() throws {
        #expect(
            try problems(["books/:id(Int"]) == [
                "invalidPath \"books/:id(Int\": The path pattern \"books/:id(Int\" does not close the type of the parameter id: \"(Int\". Hint: Write parameters as :name or :name(Int)."
            ])
    }

    @Test func aQuestionMarkOrHashInAPatternIsReported() throws {
        #expect(
            try problems(["search?q=:text", "help#top"]) == [
                "invalidPath \"search?q=:text\": The path pattern \"search?q=:text\" contains \"?\", which ends the path part of a URL, so no path can match it. Hint: Remove it: query parameters (?name=value) reach PathParameters without being in the pattern.",
                "invalidPath \"help#top\": The path pattern \"help#top\" contains \"#\", which ends the path part of a URL, so no path can match it. Hint: Remove it: query parameters (?name=value) reach PathParameters without being in the pattern.",
            ])
    }

    @Test func anUnknownTypeAndANamelessParameterAreReportedTogether() throws {
        #expect(
            try problems(["a/:x(Float)/:"]) == [
                "invalidPath \"a/:x(Float)/:\": The path pattern \"a/:x(Float)/:\" gives the parameter x the unknown type Float. Hint: Use String, Int, Double or Bool.",
                "invalidPath \"a/:x(Float)/:\": The path pattern \"a/:x(Float)/:\" has a parameter without a name. Hint: Write parameters as :name or :name(Int).",
            ])
    }

    @Test func twoPatternsThatMatchTheSamePathsAreReported() throws {
        #expect(
            try problems(["books/:id(Int)", "books/:bookID(Int)", "books/:slug", "books/featured"]) == [
                "duplicateIdentifier \"books/:bookID(Int)\": The path patterns \"books/:id(Int)\" (for RoutableService<Engine> from RouteRegistry) and \"books/:bookID(Int)\" (for RoutableService<Engine> from RouteRegistry) match the same paths. Hint: Make the literal segments or the parameter types differ, or remove one of them."
            ])
    }

    @Test func wellFormedPatternsReportNothingAndSeal() throws {
        let registry = RouteRegistry()
        try registry.register(.engine) { _ in V8(horsepower: 1) }
        try registry.register(path: "engines/:id(Int)/:mode/:fast(Bool)/:ratio(Double)", to: .engine)
        try registry.seal()
        #expect(try registry.makeDestination(path: "engines/3/eco/true/0.5", as: (any Engine).self).horsepower == 1)
    }

    @Test func aNumberTooLargeForAnIntIsOutOfRangeNotMalformed() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8() }
            try registry.register(path: "engines/:id(Int)", to: .engine)
            try registry.register(path: "named/:id", to: .engine) { _, parameters in _ = try parameters.int("id") }
        }
        let typed = #expect(throws: RouteError.self) {
            try registry.makeDestination(path: "engines/99999999999999999999", as: (any Engine).self)
        }
        #expect(
            typed?.reason
                == "The path \"engines/99999999999999999999\" fits the pattern \"engines/:id(Int)\", but the parameter id is \"99999999999999999999\", which is out of range for an Int (-9223372036854775808 to 9223372036854775807)."
        )
        let untyped = #expect(throws: RouteError.self) {
            try registry.makeDestination(path: "named/-99999999999999999999", as: (any Engine).self)
        }
        #expect(
            untyped?.reason
                == "The parameter id of the path \"named/-99999999999999999999\" is \"-99999999999999999999\", which is out of range for an Int (-9223372036854775808 to 9223372036854775807)."
        )
        let word = #expect(throws: RouteError.self) {
            try registry.makeDestination(path: "named/abc", as: (any Engine).self)
        }
        #expect(word?.reason == "The parameter id of the path \"named/abc\" is \"abc\", which is not an Int.")
    }
}
