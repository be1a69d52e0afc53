import AccountFeature
import CartFeature
import CatalogFeature
import ChatFeature
import CheckoutFeature
import NotificationsFeature
import Router
import ShopApp
import ShopInterfaces

/// The bookshop's command loop. It knows only route keys, paths and the modules' protocols: every
/// screen is a destination a module registered, performed onto the navigation stack by a route.
final class Shell {
    private let registry: RouteRegistry
    private let navigator: Navigator
    private var lastResults: [Book] = []
    private var lastQuery = ""
    private var tracing = false
    private let write: (String) -> Void

    init(registry: RouteRegistry, write: @escaping (String) -> Void) {
        self.registry = registry
        self.write = write
        let stack = ScreenStack { screen in
            let user = try registry.makeDestination(to: .userSession).currentUser.map(Shell.echo) ?? "signed out"
            write("== \(screen.title) == \(user) | badge \(try registry.makeDestination(to: .badge).total)")
            write(screen.render())
        }
        navigator = Navigator(stack: stack)
        navigator.onStateChange = { [weak self] name, old, new in
            guard let self, tracing else { return }
            write("  [route \(name)] \(old) → \(new)")
        }
    }

    /// Removes every screen route, so that nothing the session showed outlives it.
    func close() {
        _ = try? navigator.backToRoot()
    }

    /// The longest line read as a command; a longer one (a paste gone wrong) is refused.
    static let maxLineLength = 1_000
    /// How much of a piece of input a reply quotes back.
    static let echoLength = 60

    /// Runs one command line; returns false when the user asked to quit.
    func run(_ line: String) -> Bool {
        // The UTF-8 count first: it is at least the character count, and costs nothing to read.
        if line.utf8.count > Self.maxLineLength, line.count > Self.maxLineLength {
            write(
                "That line is too long for a command (\(line.count) characters; at most \(Self.maxLineLength)): "
                    + "\"\(Self.echo(line))\".")
            return true
        }
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard let command = words.first?.lowercased() else { return true }
        let argument = words.dropFirst().joined(separator: " ")
        do {
            switch command {
            case "help": write(Help.commandList)
            case "login": try login(argument)
            case "logout": try logout()
            case "search": try search(argument)
            case "add": try add(argument)
            case "cart": try navigator.show(registry.route(to: .cartScreen), name: "cart", as: { $0 })
            case "checkout": try navigator.show(registry.route(to: .checkoutScreen), name: "checkout", as: { $0 })
            case "badge": write("Badge: \(try registry.makeDestination(to: .badge))")
            case "chat": try navigator.show(registry.route(to: .chatScreen), name: "chat", as: { $0 })
            case "open": try open(argument)
            case "back": write(try navigator.back())
            case "home": write(try home())
            case "screens": write(screens())
            case "trace": trace(argument)
            case "graph": write(try graph(dot: argument == "--dot"))
            case "validate": write(try registry.validate().description)
            case "quit", "exit":
                write("Bye.")
                return false
            default: write("Unknown command \"\(Self.echo(command))\". Type help to see the commands.")
            }
        } catch let error as RouteError {
            write(error.shopMessage?.description ?? error.description)
        } catch let message as any ShopMessage {
            write(message.description)
        } catch {
            write("Failed: \(error)")
        }
        return true
    }

    // MARK: Commands

    private func login(_ name: String) throws {
        guard !name.isEmpty else { return write("login needs a name, e.g. login ann.") }
        let session = try registry.makeDestination(to: .userSession)
        if let current = session.currentUser {
            return write("Already signed in as \(Self.echo(current)); logout first.")
        }
        _ = session.signIn(name)
        write("Signed in as \(Self.echo(name)).")
    }

    private func logout() throws {
        let session = try registry.makeDestination(to: .userSession)
        guard session.currentUser != nil else { return write("Nobody is signed in.") }
        try navigator.backToRoot()
        lastResults = []
        if let name = session.signOut() { write("Signed out \(Self.echo(name)).") }
    }

    private func search(_ text: String) throws {
        guard !text.isEmpty else { return write("search needs some text, e.g. search swift.") }
        lastResults = try registry.makeDestination(to: .catalog).search(text)
        lastQuery = text
        let route = try registry.route(to: .searchScreen) { $0.constructSearchResults(query: text) }
        try navigator.show(route, name: "search", as: { $0 })
    }

    private func add(_ argument: String) throws {
        guard let user = try registry.makeDestination(to: .userSession).currentUser else {
            return write(SignInNeeded().description)
        }
        guard !lastResults.isEmpty else {
            return write(
                lastQuery.isEmpty
                    ? "Search first, then add a result: search swift, add 1."
                    : "The last search found nothing to add; search again.")
        }
        guard let number = Int(argument) else {
            // A whole number too large for an Int is a result that does not exist, not a word.
            let digits = argument.first == "-" || argument.first == "+" ? argument.dropFirst() : argument[...]
            if !digits.isEmpty && digits.allSatisfy({ $0.isASCII && $0.isNumber }) {
                return write(
                    "There is no result \(Self.echo(argument)); the last search found \(countOf(lastResults.count, "book"))."
                )
            }
            return write("add needs a result number, e.g. add 1.")
        }
        guard lastResults.indices.contains(number - 1) else {
            return write("There is no result \(number); the last search found \(countOf(lastResults.count, "book")).")
        }
        let book = lastResults[number - 1]
        let cart = try registry.makeDestination(to: .cart) { $0.constructCart(owner: user) }
        cart.add(book)
        write(
            "Added \"\(book.title)\" to \(Self.echo(user))'s cart (\(countOf(cart.items.count, "book")), "
                + "\(Money.format(cart.totalCents))).")
    }

    private func open(_ path: String) throws {
        guard !path.isEmpty else { return write("open needs a path, e.g. open books/3 or open cart.") }
        try navigator.show(registry.route(path: path, as: (any Screen).self), name: path)
    }

    private func home() throws -> String {
        let count = try navigator.backToRoot()
        return count == 0 ? "Already at \(navigator.stack.rootTitle)." : "Back to \(navigator.stack.rootTitle)."
    }

    private func screens() -> String {
        let lines = navigator.shown.enumerated().map { index, entry in
            "  \(index + 1). \(entry.title) (route \(entry.name): \(entry.state))"
        }
        return (["Screens, bottom first:", "  0. \(navigator.stack.rootTitle)"] + lines).joined(separator: "\n")
    }

    private func trace(_ argument: String) {
        switch argument {
        case "on": tracing = true
        case "off": tracing = false
        default: tracing.toggle()
        }
        write("Route tracing is \(tracing ? "on" : "off").")
    }

    private func graph(dot: Bool) throws -> String {
        let graph = try registry.dependencyGraph()
        let text = dot ? graph.dot : graph.textTree
        return text.hasSuffix("\n") ? String(text.dropLast()) : text
    }

    // MARK: Helpers

    /// `input` as a reply quotes it: its first ``echoLength`` characters, then "…" if there were more.
    private static func echo(_ input: String) -> String {
        guard input.utf8.count > Self.echoLength, input.count > Self.echoLength else { return input }
        return input.prefix(Self.echoLength) + "…"
    }

    private func countOf(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}
