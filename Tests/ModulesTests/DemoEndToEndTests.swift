import Foundation
import Testing

/// Runs the real executable and compares its whole output, line for line.
@Suite(.serialized)
struct DemoEndToEndTests {
    func expectTranscript(
        _ lines: [String], _ expected: String, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let run = try await DemoRunner.run(lines)
        #expect(run.output == expected + "\n", sourceLocation: sourceLocation)
        #expect(run.errors == "", sourceLocation: sourceLocation)
        #expect(run.status == 0, sourceLocation: sourceLocation)
    }

    @Test func controlCharactersTypedInAreShownEscaped() async throws {
        // ESC sequences that would clear the screen, reset the terminal and set its title.
        try await expectTranscript(
            ["search \u{1B}]0;pwned\u{07}x", "open \u{1B}[2Jbooks", "login \u{1B}c", "bogus\u{1B}[H", "quit"],
            """
            == Search "\\u{1B}]0;pwned\\u{7}x" == signed out | badge 1
              No titles contain "\\u{1B}]0;pwned\\u{7}x".
            No route is registered for the path "\\u{1B}[2Jbooks". Hint: Registered patterns: "books/:id(Int)", "cart", "chat".
            Signed in as \\u{1B}c.
            Unknown command "bogus\\u{1B}[h". Type help to see the commands.
            Bye.
            """)
    }

    @Test func signInFindABookBuyItAndOpenTheChat() async throws {
        try await expectTranscript(
            ["login ann", "badge", "search swift", "add 1", "cart", "badge", "checkout", "chat", "badge", "quit"],
            """
            Signed in as ann.
            Badge: 1 (cart 0, orders 0, news 0, chat 1)
            == Search "swift" == ann | badge 1
              1. Swift Concurrency by Example, Mira Holt, $39.00
              2. The Swift Programming Primer, Owen Park, $29.00
              3. Server-Side Swift, Lena Voss, $35.00
              4. Swiftly Through the Alps, Anna Berg, $18.00
            Added "Swift Concurrency by Example" to ann's cart (1 book, $39.00).
            == Cart == ann | badge 2
              1. Swift Concurrency by Example, $39.00
              Total: $39.00
            Badge: 2 (cart 1, orders 0, news 0, chat 1)
            == Order #1 == ann | badge 2
              Paid $39.00 for 1 book (TX-1001). Thank you, ann!
            == Chat == ann | badge 2
              support: Hi ann, how can we help?
              (one chat session and one message list, linked both ways: yes)
            Badge: 1 (cart 0, orders 1, news 0, chat 0)
            Bye.
            """)
    }

    @Test func theBriefsScriptWithErrorsAfterSigningOut() async throws {
        let run = try await DemoRunner.run([
            "help", "login ann", "search swift", "add 1", "cart", "badge", "checkout", "chat", "logout", "checkout",
            "bogus", "quit",
        ])
        #expect(run.status == 0)
        #expect(run.output.hasPrefix("Commands:\n  help            show this list\n"))
        #expect(run.output.contains("\n  open PATH       open a screen by path: books/3, cart, chat\n"))
        #expect(
            run.output.hasSuffix(
                """
                Signed out ann.
                Sign in first: login NAME.
                Unknown command "bogus". Type help to see the commands.
                Bye.

                """))
    }

    @Test func mistakesPrintAMessageAndTheAppGoesOn() async throws {
        try await expectTranscript(
            [
                "bogus", "login", "checkout", "cart", "add 1", "chat", "logout", "login bob", "login amy", "add 1",
                "search", "search cobol", "add 1", "search tale", "add 999", "add two", "checkout", "back", "back",
            ],
            """
            Unknown command "bogus". Type help to see the commands.
            login needs a name, e.g. login ann.
            Sign in first: login NAME.
            Sign in first: login NAME.
            Sign in first: login NAME.
            Sign in first: login NAME.
            Nobody is signed in.
            Signed in as bob.
            Already signed in as bob; logout first.
            Search first, then add a result: search swift, add 1.
            search needs some text, e.g. search swift.
            == Search "cobol" == bob | badge 1
              No titles contain "cobol".
            The last search found nothing to add; search again.
            == Search "tale" == bob | badge 1
              1. Terminal Tales, Sam Ortiz, $15.00
              2. A Tale of Two Modules, Eva Lind, $12.00
            There is no result 999; the last search found 2 books.
            add needs a result number, e.g. add 1.
            Your cart is empty; search for a book and add it first.
            Left Search "tale"; back to Home.
            Already at Home.
            """)
    }

    @Test func signingOutReleasesTheCartAndTheChat() async throws {
        try await expectTranscript(
            ["login ann", "search modules", "add 1", "chat", "logout", "login ann", "cart", "badge", "back"],
            """
            Signed in as ann.
            == Search "modules" == ann | badge 1
              1. A Tale of Two Modules, Eva Lind, $12.00
            Added "A Tale of Two Modules" to ann's cart (1 book, $12.00).
            == Chat == ann | badge 2
              support: Hi ann, how can we help?
              (one chat session and one message list, linked both ways: yes)
            Signed out ann.
            Signed in as ann.
            == Cart == ann | badge 1
              Your cart is empty.
            Badge: 1 (cart 0, orders 0, news 0, chat 1)
            Left Cart; back to Home.
            """)
    }

    @Test func aPaymentOverTheCardLimitIsDeclined() async throws {
        try await expectTranscript(
            ["login cy", "search s", "add 5", "add 5", "add 5", "add 5", "add 5", "checkout", "cart"],
            """
            Signed in as cy.
            == Search "s" == cy | badge 1
              1. Swift Concurrency by Example, Mira Holt, $39.00
              2. The Swift Programming Primer, Owen Park, $29.00
              3. Server-Side Swift, Lena Voss, $35.00
              4. Swiftly Through the Alps, Anna Berg, $18.00
              5. Dependency Injection Principles, Karl Dunn, $42.00
              6. Patterns of Large Programs, Ines Roth, $45.00
              7. Terminal Tales, Sam Ortiz, $15.00
              8. Linux for Builders, Noor Haddad, $27.00
              9. Clean Interfaces, Paul Meyer, $33.00
              10. A Tale of Two Modules, Eva Lind, $12.00
            Added "Dependency Injection Principles" to cy's cart (1 book, $42.00).
            Added "Dependency Injection Principles" to cy's cart (2 books, $84.00).
            Added "Dependency Injection Principles" to cy's cart (3 books, $126.00).
            Added "Dependency Injection Principles" to cy's cart (4 books, $168.00).
            Added "Dependency Injection Principles" to cy's cart (5 books, $210.00).
            Payment declined: $210.00 is over cy's card limit of $200.00. Your cart is unchanged.
            == Cart == cy | badge 6
              1. Dependency Injection Principles, $42.00
              2. Dependency Injection Principles, $42.00
              3. Dependency Injection Principles, $42.00
              4. Dependency Injection Principles, $42.00
              5. Dependency Injection Principles, $42.00
              Total: $210.00
            """)
    }

    static let graph = """
        SearchResultsScreen via SearchScreenConfig (transient, CatalogModule)
        └─ initializer → Catalog (singleton, CatalogModule)
        BookScreen via BookScreenConfig (transient, CatalogModule)
        └─ initializer → Catalog (singleton, CatalogModule) (shown above)
        CartScreen (transient, CartModule)
        ├─ initializer → UserSession (singleton, AccountModule)
        └─ initializer → Cart via CartModuleConfig (custom(user), CartModule)
        CheckoutScreen (transient, CheckoutModule)
        └─ initializer → Checkout (transient, CheckoutModule)
           ├─ initializer → UserSession (singleton, AccountModule) (shown above)
           ├─ initializer → Cart via CartModuleConfig (custom(user), CartModule) (shown above)
           ├─ lazy → PaymentProcessing (transient, ShopWiringModule)
           │  └─ initializer → PaymentGateway (singleton, PaymentsModule)
           └─ initializer → OrderHistory (custom(user), CheckoutModule)
        BadgeSummary (transient, NotificationsModule)
        ├─ many → BadgeCounter (transient, CartModule) [1 of 4]
        │  ├─ initializer → UserSession (singleton, AccountModule) (shown above)
        │  └─ initializer → Cart via CartModuleConfig (custom(user), CartModule) (shown above)
        ├─ many → BadgeCounter (transient, CheckoutModule) [2 of 4]
        │  ├─ initializer → UserSession (singleton, AccountModule) (shown above)
        │  └─ initializer → OrderHistory (custom(user), CheckoutModule) (shown above)
        ├─ many → BadgeCounter (transient, NotificationsModule) [3 of 4]
        │  └─ initializer → UserSession (singleton, AccountModule) (shown above)
        └─ many → BadgeCounter (transient, ChatModule) [4 of 4]
           ├─ initializer → UserSession (singleton, AccountModule) (shown above)
           └─ initializer → ChatSession (custom(user), ChatModule)
              ├─ initializer → UserSession (singleton, AccountModule) (shown above)
              └─ property → MessageList (custom(user), ChatModule)
                 └─ property → ChatSession (cycle)
        ChatScreen (transient, ChatModule)
        ├─ initializer → ChatSession (custom(user), ChatModule) (shown above)
        └─ initializer → MessageList (custom(user), ChatModule) (shown above)
        Paths
        ├─ books/:id(Int) → BookScreen via BookScreenConfig (transient, CatalogModule)
        ├─ cart → CartScreen (transient, CartModule)
        └─ chat → ChatScreen (transient, ChatModule)
        """

    @Test func theGraphCommandPrintsTheRegistrysDependencyTree() async throws {
        try await expectTranscript(["graph"], Self.graph)
        let argument = try await DemoRunner.run([], arguments: ["graph"])
        #expect(argument.output == Self.graph + "\n")
        #expect(argument.status == 0)
    }

    @Test func theGraphAsDot() async throws {
        let run = try await DemoRunner.run([], arguments: ["graph", "--dot"])
        #expect(run.status == 0)
        #expect(run.output.hasPrefix("digraph Router {\n"))
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.contains("  n18 [label=\"PaymentProcessing\\ntransient\"];"))
        #expect(lines.contains("  n18 -> n7 [label=\"initializer\"];"), "the adapter's edge to the gateway")
        #expect(lines.contains("  n9 -> n18 [label=\"lazy\", style=dotted];"), "checkout reaches payment lazily")
        #expect(lines.filter { $0.hasPrefix("  n13 -> ") && $0.hasSuffix("[label=\"many\", style=bold];") }.count == 4)
        #expect(lines.contains("  n14 -> n15 [label=\"property\", style=dashed];"))
        #expect(lines.contains("  p0 [label=\"books/:id(Int)\", shape=ellipse, color=blue];"))
        #expect(lines.contains("  p0 -> n3 [label=\"path\", color=blue];"), "the book path reaches the book screen")
        #expect(lines.contains("  p1 -> n6 [label=\"path\", color=blue];"), "the cart path reaches the cart screen")
        #expect(run.output.hasSuffix("}\n"))
        #expect(try await DemoRunner.run(["graph --dot"]).output == run.output)
    }

    @Test func theGraphDrawnAsSVGWithGraphviz() async throws {
        let candidates = ["/usr/bin/dot", "/usr/local/bin/dot"]
        guard candidates.contains(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            return  // Graphviz is not installed here; .ci/run installs it
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("demo-graph-\(getpid()).svg")
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try await DemoRunner.run([], arguments: ["graph", "--svg", file.path])
        #expect(run.status == 0)
        #expect(run.output == "Wrote \(file.path).\n")
        let svg = try String(contentsOf: file, encoding: .utf8)
        #expect(svg.contains("<svg"))
        #expect(svg.contains("books/:id(Int)"), "the picture shows the path patterns")
        #expect(svg.contains("CartScreen"))
        let missing = try await DemoRunner.run([], arguments: ["graph", "--svg"])
        #expect(missing.status == 1)
        #expect(missing.errors == "graph --svg needs a file: graph --svg graph.svg\n")
    }

    @Test func helpAndValidateArguments() async throws {
        let help = try await DemoRunner.run([], arguments: ["--help"])
        #expect(help.status == 0)
        #expect(help.output.hasPrefix("Usage: Demo [graph [--dot | --svg FILE] | validate | --help]\n"))
        #expect(help.output.contains("  quit            leave (Ctrl-D works too)\n"))
        for command in ["open PATH", "back", "home", "screens", "trace [on|off]", "graph [--dot]", "validate"] {
            #expect(help.output.contains("\n  \(command) "), "--help lists \(command)")
        }
        let validate = try await DemoRunner.run([], arguments: ["validate"])
        #expect(validate.status == 0)
        #expect(validate.output == "No problems found.\n")
        let wrong = try await DemoRunner.run([], arguments: ["--nope"])
        #expect(wrong.status == 1)
        #expect(wrong.output == "")
        #expect(wrong.errors.hasPrefix("Unknown argument \"--nope\".\nUsage: Demo"))
    }

    @Test func endOfInputExitsCleanlyWithoutAPrompt() async throws {
        try await expectTranscript(["login ann", "", "   "], "Signed in as ann.")
        let empty = try await DemoRunner.run([])
        #expect(empty.output == "")
        #expect(empty.status == 0)
    }

    @Test func aHugeBadCommandIsEchoedShortened() async throws {
        // 20 MB on one line, as a paste gone wrong: the reply quotes its start, not the whole of it.
        let huge = String(repeating: "x", count: 20 << 20)
        let long = "bogus" + String(repeating: "y", count: 200)
        let run = try await DemoRunner.run([huge, long, "login " + long, "login ann", "logout", "quit"])
        let sixty = "bogus" + String(repeating: "y", count: 55)
        // Measured first, so that a failure does not print 20 MB either.
        try #require(run.output.utf8.count < 2_000, "the reply is \(run.output.utf8.count) bytes")
        #expect(
            run.output == """
                That line is too long for a command (20971520 characters; at most 1000): "\(String(repeating: "x", count: 60))…".
                Unknown command "\(sixty)…". Type help to see the commands.
                Signed in as \(sixty)….
                Already signed in as \(sixty)…; logout first.
                Signed out \(sixty)….
                Bye.

                """)
        #expect(run.errors == "")
        #expect(run.status == 0)
    }

    @Test func aResultNumberTooLargeForAnIntIsNoSuchResult() async throws {
        try await expectTranscript(
            ["login ann", "search tale", "add 99999999999999999999", "add -99999999999999999999", "add 2x", "quit"],
            """
            Signed in as ann.
            == Search "tale" == ann | badge 1
              1. Terminal Tales, Sam Ortiz, $15.00
              2. A Tale of Two Modules, Eva Lind, $12.00
            There is no result 99999999999999999999; the last search found 2 books.
            There is no result -99999999999999999999; the last search found 2 books.
            add needs a result number, e.g. add 1.
            Bye.
            """)
    }

    @Test func openingScreensByPath() async throws {
        try await expectTranscript(
            [
                "back", "open books/3", "back", "back", "open nowhere", "open books/abc", "open books/99", "open",
                "quit",
            ],
            """
            Already at Home.
            == Server-Side Swift == signed out | badge 1
              by Lena Voss, $35.00, catalog number 3
            Left Server-Side Swift; back to Home.
            Already at Home.
            No route is registered for the path "nowhere". Hint: Registered patterns: "books/:id(Int)", "cart", "chat".
            The path "books/abc" fits the pattern "books/:id(Int)", but the parameter id is "abc", which is not an Int. Hint: Give the parameter id as an Int, as in "books/1".
            There is no book 99 in the catalog.
            open needs a path, e.g. open books/3 or open cart.
            Bye.
            """)
    }

    @Test func theInterceptorGuardsTheCartAndChatPathsUntilSignIn() async throws {
        try await expectTranscript(
            ["open cart", "open chat", "login amy", "open cart", "open books/12", "screens", "home", "home"],
            """
            Sign in first: login NAME.
            Sign in first: login NAME.
            Signed in as amy.
            == Cart == amy | badge 1
              Your cart is empty.
            == A Tale of Two Modules == amy | badge 1
              by Eva Lind, $12.00, catalog number 12
            Screens, bottom first:
              0. Home
              1. Cart (route cart: routed)
              2. A Tale of Two Modules (route books/12: routed)
            Back to Home.
            Already at Home.
            """)
    }

    @Test func tracingShowsEveryRouteStateAndModalsClose() async throws {
        try await expectTranscript(
            ["login ann", "trace on", "chat", "open books/1", "back", "back", "trace off", "back"],
            """
            Signed in as ann.
            Route tracing is on.
              [route chat] unrouted → routing
            == Chat == ann | badge 1
              support: Hi ann, how can we help?
              (one chat session and one message list, linked both ways: yes)
              [route chat] routing → routed
              [route books/1] unrouted → routing
            == Swift Concurrency by Example == ann | badge 0
              by Mira Holt, $39.00, catalog number 1
              [route books/1] routing → routed
              [route books/1] routed → removing
              [route books/1] removing → removed
            Left Swift Concurrency by Example; back to Chat.
              [route chat] routed → removing
              [route chat] removing → removed
            Closed Chat; back to Home.
            Route tracing is off.
            Already at Home.
            """)
    }

    @Test func theBriefsWalkThrough() async throws {
        try await expectTranscript(
            [
                "login ann", "search swift", "add 1", "open books/3", "back", "cart", "checkout", "badge", "chat",
                "graph", "open nowhere", "logout", "quit",
            ],
            """
            Signed in as ann.
            == Search "swift" == ann | badge 1
              1. Swift Concurrency by Example, Mira Holt, $39.00
              2. The Swift Programming Primer, Owen Park, $29.00
              3. Server-Side Swift, Lena Voss, $35.00
              4. Swiftly Through the Alps, Anna Berg, $18.00
            Added "Swift Concurrency by Example" to ann's cart (1 book, $39.00).
            == Server-Side Swift == ann | badge 2
              by Lena Voss, $35.00, catalog number 3
            Left Server-Side Swift; back to Search "swift".
            == Cart == ann | badge 2
              1. Swift Concurrency by Example, $39.00
              Total: $39.00
            == Order #1 == ann | badge 2
              Paid $39.00 for 1 book (TX-1001). Thank you, ann!
            Badge: 2 (cart 0, orders 1, news 0, chat 1)
            == Chat == ann | badge 2
              support: Hi ann, how can we help?
              (one chat session and one message list, linked both ways: yes)
            \(Self.graph)
            No route is registered for the path "nowhere". Hint: Registered patterns: "books/:id(Int)", "cart", "chat".
            Signed out ann.
            Bye.
            """)
    }
}
