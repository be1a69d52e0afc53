/// The commands, as `help` and `--help` list them.
enum Help {
    static let commands: [(usage: String, summary: String)] = [
        ("help", "show this list"),
        ("login NAME", "sign in as NAME"),
        ("logout", "sign out; your cart, orders and chat are released"),
        ("search TEXT", "find books whose title contains TEXT"),
        ("add N", "add result N of the last search to your cart"),
        ("cart", "show your cart"),
        ("checkout", "pay for your cart and show the receipt"),
        ("badge", "show the notification badge"),
        ("chat", "open the support chat"),
        ("open PATH", "open a screen by path: books/3, cart, chat"),
        ("back", "go back one screen"),
        ("home", "go back to the home screen"),
        ("screens", "list the open screens and the state of their routes"),
        ("trace [on|off]", "print every route state change"),
        ("graph [--dot]", "print the dependency graph, as DOT with --dot"),
        ("validate", "print the registry's validation report"),
        ("quit", "leave (Ctrl-D works too)"),
    ]

    static var commandList: String {
        let width = commands.map(\.usage.count).max() ?? 0
        let lines = commands.map { command in
            "  " + command.usage + String(repeating: " ", count: width - command.usage.count + 2) + command.summary
        }
        return (["Commands:"] + lines).joined(separator: "\n")
    }

    static var usage: String {
        """
        Usage: Demo [graph [--dot | --svg FILE] | validate | --help]
          (no argument)   run the bookshop; reads commands from standard input
          graph           print the dependency graph as a text tree, or as DOT with --dot;
                          with --svg FILE, draw it into FILE with Graphviz's dot
          validate        print the registry's validation report; exits 1 on problems
          --help          show this help

        \(commandList)
        """
    }
}
