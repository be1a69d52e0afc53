/// A screen on the terminal navigation stack.
struct Screen: Equatable {
    /// What kind of screen it is; a new screen of the same kind replaces the top one.
    enum Kind: Equatable {
        case home, search, cart, checkout, chat
    }

    let kind: Kind
    let title: String
    let isModal: Bool

    static let home = Screen(kind: .home, title: "Home", isModal: false)
}

/// The terminal counterpart of a navigation controller: push, present as modal, pop, back to root.
struct Navigator {
    private(set) var stack: [Screen] = [.home]

    var top: Screen { stack.last ?? .home }

    /// Pushes `screen`, or replaces the top screen when it is of the same kind.
    mutating func show(_ screen: Screen) {
        if stack.count > 1, top.kind == screen.kind {
            stack[stack.count - 1] = screen
        } else {
            stack.append(screen)
        }
    }

    /// Pops the top screen; returns the message to print.
    mutating func back() -> String {
        guard stack.count > 1, let leaving = stack.popLast() else { return "Already at Home." }
        let verb = leaving.isModal ? "Closed" : "Left"
        return "\(verb) \(leaving.title); back to \(top.title)."
    }

    mutating func popToRoot() {
        stack = [.home]
    }
}
