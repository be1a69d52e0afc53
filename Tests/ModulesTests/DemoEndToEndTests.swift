import Testing

/// Runs the real executable and compares its whole output, line for line.
@Suite(.serialized)
struct DemoEndToEndTests {
    func expectTranscript(
        _ lines: [String], _ expected: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let run = try DemoRunner.run(lines)
        #expect(run.output == expected + "\n", sourceLocation: sourceLocation)
        #expect(run.errors == "", sourceLocation: sourceLocation)
        #expect(run.status == 0, sourceLocation: sourceLocation)
    }

    @Test func signInFindABookBuyItAndOpenTheChat() throws {
        try expectTranscript(
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

    @Test func theBriefsScriptWithErrorsAfterSigningOut() throws {
        let run = try DemoRunner.run([
            "help", "login ann", "search swift", "add 1", "cart", "badge", "checkout", "chat", "logout", "checkout",
            "bogus", "quit",
        ])
        #expect(run.status == 0)
        #expect(run.output.hasPrefix("Commands:\n  help         show this list\n"))
        #expect(
            run.output.hasSuffix(
                """
                Signed out ann.
                Sign in first: login NAME.
                Unknown command "bogus". Type help to see the commands.
                Bye.

                """))
    }

    @Test func mistakesPrintAMessageAndTheAppGoesOn() throws {
        try expectTranscript(
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

    @Test func signingOutReleasesTheCartAndTheChat() throws {
        try expectTranscript(
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

    @Test func aPaymentOverTheCardLimitIsDeclined() throws {
        try expectTranscript(
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

    @Test func theGraphCommandPrintsEveryModule() throws {
        let run = try DemoRunner.run(["graph"])
        #expect(run.status == 0)
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.first == "Bookshop (8 modules)")
        #expect(lines.filter { $0.hasPrefix("├── ") || $0.hasPrefix("└── ") }.count == 8)
        #expect(lines.contains("│   ├── provides RoutableServiceModule<CartModuleConfig> [custom(user)]"))
        #expect(lines.last == "    └── uses RoutableService<PaymentGateway>")
        #expect(try DemoRunner.run([], arguments: ["graph"]).output == run.output)
    }

    @Test func theGraphAsDot() throws {
        let run = try DemoRunner.run([], arguments: ["graph", "--dot"])
        #expect(run.status == 0)
        #expect(run.output.hasPrefix("digraph Bookshop {\n"))
        #expect(run.output.contains("\"ShopWiringModule\" -> \"RoutableService<PaymentGateway>\" [style=dashed"))
        #expect(run.output.hasSuffix("}\n"))
    }

    @Test func helpAndValidateArguments() throws {
        let help = try DemoRunner.run([], arguments: ["--help"])
        #expect(help.status == 0)
        #expect(help.output.hasPrefix("Usage: Demo [graph [--dot] | validate | --help]\n"))
        #expect(help.output.contains("  quit         leave (Ctrl-D works too)\n"))
        let validate = try DemoRunner.run([], arguments: ["validate"])
        #expect(validate.status == 0)
        #expect(validate.output == "No problems found.\n")
        let wrong = try DemoRunner.run([], arguments: ["--nope"])
        #expect(wrong.status == 1)
        #expect(wrong.output == "")
        #expect(wrong.errors.hasPrefix("Unknown argument \"--nope\".\nUsage: Demo"))
    }

    @Test func endOfInputExitsCleanlyWithoutAPrompt() throws {
        try expectTranscript(["login ann", "", "   "], "Signed in as ann.")
        let empty = try DemoRunner.run([])
        #expect(empty.output == "")
        #expect(empty.status == 0)
    }
}
