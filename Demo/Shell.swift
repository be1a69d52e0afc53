import Modules
import Router

/// The bookshop's command loop. It knows only route keys and the modules' protocols.
final class Shell {
    private let registry: RouteRegistry
    private let modules: [any DescribedModule]
    private var navigator = Navigator()
    private var lastResults: [Book] = []
    private var lastQuery = ""
    private let write: (String) -> Void

    init(registry: RouteRegistry, modules: [any DescribedModule], write: @escaping (String) -> Void) {
        self.registry = registry
        self.modules = modules
        self.write = write
    }

    /// Runs one command line; returns false when the user asked to quit.
    func run(_ line: String) -> Bool {
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
            case "cart": try showCart()
            case "checkout": try checkout()
            case "badge": write("Badge: \(try badge())")
            case "chat": try chat()
            case "back": write(navigator.back())
            case "graph": write(GraphPrinter.tree(modules))
            case "quit", "exit":
                write("Bye.")
                return false
            default: write("Unknown command \"\(command)\". Type help to see the commands.")
            }
        } catch let failure as CheckoutFailure {
            write(failure.description)
        } catch let error as RouteError {
            write("Routing failed: \(error.description)")
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
            return write("Already signed in as \(current); logout first.")
        }
        _ = session.signIn(name)
        write("Signed in as \(name).")
    }

    private func logout() throws {
        guard let name = try registry.makeDestination(to: .userSession).signOut() else {
            return write("Nobody is signed in.")
        }
        lastResults = []
        navigator.popToRoot()
        write("Signed out \(name).")
    }

    private func search(_ text: String) throws {
        guard !text.isEmpty else { return write("search needs some text, e.g. search swift.") }
        let catalog = try registry.makeDestination(to: .catalog)
        lastResults = catalog.search(text)
        lastQuery = text
        try show(Screen(kind: .search, title: "Search \"\(text)\"", isModal: false))
        if lastResults.isEmpty {
            write("  No titles contain \"\(text)\".")
        }
        for (index, book) in lastResults.enumerated() {
            write("  \(index + 1). \(book.title), \(book.author), \(Money.format(book.priceCents))")
        }
    }

    private func add(_ argument: String) throws {
        guard let user = try signedInUser() else { return }
        guard !lastResults.isEmpty else {
            return write(
                lastQuery.isEmpty
                    ? "Search first, then add a result: search swift, add 1."
                    : "The last search found nothing to add; search again.")
        }
        guard let number = Int(argument) else {
            return write("add needs a result number, e.g. add 1.")
        }
        guard lastResults.indices.contains(number - 1) else {
            return write("There is no result \(number); the last search found \(countOf(lastResults.count, "book")).")
        }
        let book = lastResults[number - 1]
        let cart = try registry.makeDestination(to: .cart) { $0.constructCart(owner: user) }
        cart.add(book)
        write(
            "Added \"\(book.title)\" to \(user)'s cart (\(countOf(cart.items.count, "book")), "
                + "\(Money.format(cart.totalCents))).")
    }

    private func showCart() throws {
        guard let user = try signedInUser() else { return }
        let cart = try registry.makeDestination(to: .cart) { $0.constructCart(owner: user) }
        try show(Screen(kind: .cart, title: "Cart", isModal: false))
        guard !cart.items.isEmpty else { return write("  Your cart is empty.") }
        for (index, book) in cart.items.enumerated() {
            write("  \(index + 1). \(book.title), \(Money.format(book.priceCents))")
        }
        write("  Total: \(Money.format(cart.totalCents))")
    }

    private func checkout() throws {
        guard try signedInUser() != nil else { return }
        let checkout = try registry.makeDestination(to: .checkout)
        let receipt = try checkout.placeOrder()
        try show(Screen(kind: .checkout, title: "Order #\(receipt.orderNumber)", isModal: false))
        write(
            "  Paid \(Money.format(receipt.totalCents)) for \(countOf(receipt.titles.count, "book")) "
                + "(\(receipt.confirmation)). Thank you, \(receipt.customer)!")
    }

    private func chat() throws {
        guard try signedInUser() != nil else { return }
        let session = try registry.makeDestination(to: .chatSession)
        let list = try registry.makeDestination(to: .messageList)
        try show(Screen(kind: .chat, title: "Chat", isModal: true))
        for message in list.messages {
            write("  \(message.sender): \(message.text)")
        }
        let linked = session.messageList === list && list.session === session
        write("  (one chat session and one message list, linked both ways: \(linked ? "yes" : "no"))")
        session.markAllRead()
    }

    // MARK: Helpers

    private func signedInUser() throws -> String? {
        if let user = try registry.makeDestination(to: .userSession).currentUser { return user }
        write("Sign in first: login NAME.")
        return nil
    }

    private func badge() throws -> BadgeSummary {
        BadgeSummary(try registry.makeDestinations(to: .badgeCounter))
    }

    /// Shows a screen and prints its header: title, user and badge.
    private func show(_ screen: Screen) throws {
        navigator.show(screen)
        let user = try registry.makeDestination(to: .userSession).currentUser ?? "signed out"
        write("== \(screen.title) == \(user) | badge \(try badge().total)")
    }

    private func countOf(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}
