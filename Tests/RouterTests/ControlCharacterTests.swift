import Router
import Testing

// Issue 16 item 8: input cannot put terminal control sequences into a message.

/// Whether `text` has a C0 control other than a line feed, DEL or a C1 control.
private func hasControlCharacters(_ text: String) -> Bool {
    text.unicodeScalars.contains { ($0.value < 0x20 && $0.value != 0x0A) || (0x7F...0x9F).contains($0.value) }
}

struct ControlCharacterTests {
    /// Clears the screen and sets the terminal title.
    static let hostile = "x\u{1B}[2J\u{1B}]0;pwned\u{07}\u{9B}31m\ny"

    @Test func theHelperEscapesC0DelAndC1ControlsAndIsIdempotent() {
        let shown = RouteError.displayable(Self.hostile)
        #expect(shown == "x\\u{1B}[2J\\u{1B}]0;pwned\\u{7}\\u{9B}31m\\u{A}y")
        #expect(RouteError.displayable(shown) == shown)
        #expect(RouteError.displayable("a\nb\u{7F}", keepingNewlines: true) == "a\nb\\u{7F}")
        #expect(RouteError.displayable("Größe → ok") == "Größe → ok")
    }

    @Test func anUnknownPathIsShownEscaped() throws {
        let registry = try sealedRegistry { _ in }
        let error = #expect(throws: RouteError.self) {
            try registry.makeDestination(path: Self.hostile, as: (any Engine).self)
        }
        #expect(error?.key == "\"x\\u{1B}[2J\\u{1B}]0;pwned\\u{7}\\u{9B}31m\\u{A}y\"")
        #expect(
            error?.description
                == "No route is registered for the path \"x\\u{1B}[2J\\u{1B}]0;pwned\\u{7}\\u{9B}31m\\u{A}y\". Hint: Register one with register(path:to:)."
        )
    }

    @Test func anUnknownIdentifierIsShownEscaped() throws {
        let registry = try sealedRegistry { _ in }
        let error = #expect(throws: RouteError.self) {
            try registry.makeDestination(identifier: Self.hostile, as: (any Engine).self)
        }
        #expect(error.map { hasControlCharacters($0.description) } == false)
        #expect(error?.reason.contains("\n") == false)
        #expect(error?.reason.hasPrefix("No router is registered for the identifier \"x\\u{1B}[2J") == true)
    }

    @Test func aMalformedPathParameterIsShownEscaped() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8() }
            try registry.register(path: "engines/:id(Int)", to: .engine)
        }
        let error = #expect(throws: RouteError.self) {
            try registry.makeDestination(path: "engines/\u{1B}c", as: (any Engine).self)
        }
        #expect(
            error?.reason
                == "The path \"engines/\\u{1B}c\" fits the pattern \"engines/:id(Int)\", but the parameter id is \"\\u{1B}c\", which is not an Int."
        )
    }

    @Test func aKeyNameAndAnyErrorMadeByUsersAreEscaped() throws {
        let registry = try sealedRegistry { _ in }
        let error = #expect(throws: RouteError.self) {
            try registry.makeDestination(to: .engine.named("\u{1B}]2;title\u{07}"))
        }
        #expect(error.map { hasControlCharacters($0.description) } == false)
        #expect(error?.key == "RoutableService<Engine>[\"\\u{1B}]2;title\\u{7}\"]")
        let made = RouteError(
            .factoryFailed, key: "k\u{1B}", path: ["a\u{1B}", "b"], reason: "r\u{1B}\nnext line", hint: "h\u{1B}")
        #expect(made.key == "k\\u{1B}")
        #expect(made.path == ["a\\u{1B}", "b"])
        #expect(made.reason == "r\\u{1B}\nnext line")
        #expect(made.hint == "h\\u{1B}")
    }
}
