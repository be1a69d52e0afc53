import Router
import ShopInterfaces

/// The terminal counterpart of a navigation controller: it shows the screens routes perform and hides
/// the ones they remove. The root (Home) is not a screen and is never removed.
///
/// It is the `RoutePresenter` every screen route is performed with; ``Navigator`` keeps the routes.
public final class ScreenStack: RoutePresenter {
    /// The stack shows screens.
    public typealias Destination = any Screen

    /// Why the stack could not show or hide a screen.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong, as a sentence.
        public let description: String
    }

    /// The root's title.
    public let rootTitle: String
    /// The shown screens, bottom first (the root not included).
    public private(set) var screens: [any Screen] = []
    private let show: (any Screen) throws -> Void

    /// Makes an empty stack.
    /// - Parameters:
    ///   - rootTitle: The root's title (default `Home`).
    ///   - show: Draws a screen when it is presented; if it throws, the screen is not shown.
    public init(rootTitle: String = "Home", show: @escaping (any Screen) throws -> Void = { _ in }) {
        self.rootTitle = rootTitle
        self.show = show
    }

    /// The title of the top screen, or of the root.
    public var topTitle: String { screens.last?.title ?? rootTitle }

    /// Pushes `screen` (or presents it modally, as it asks) and draws it.
    /// - Parameters:
    ///   - screen: The screen a route made.
    ///   - completion: Called once: success when shown, the drawing error otherwise.
    public func present(_ screen: any Screen, completion: @escaping (Result<Void, any Error>) -> Void) {
        do {
            try show(screen)
            screens.append(screen)
            completion(.success(()))
        } catch {
            completion(.failure(error))
        }
    }

    /// Takes `screen` off the stack, wherever it is.
    /// - Parameters:
    ///   - screen: A screen this stack shows.
    ///   - completion: Called once: success when hidden, a ``Failure`` when the stack does not show it.
    public func dismiss(_ screen: any Screen, completion: @escaping (Result<Void, any Error>) -> Void) {
        guard let index = screens.lastIndex(where: { $0 === screen }) else {
            return completion(.failure(Failure(description: "\(screen.title) is not on the screen stack.")))
        }
        screens.remove(at: index)
        completion(.success(()))
    }
}

/// Performs screen routes onto a ``ScreenStack`` and removes them again: push, present as modal, back,
/// back to root. A screen of the same kind as the one on top replaces it.
///
/// Routes lead to the modules' own screen protocols (`Route<any CartScreen>`); the navigator performs
/// each on the stack of `any Screen` by widening its destination.
public final class Navigator {
    /// One shown route, its destination type erased to what the stack shows.
    private struct Shown {
        let name: String
        let route: AnyObject
        let state: () -> RouteState
        let screen: () -> (any Screen)?
        let canRemove: () -> Bool
        let remove: () throws -> Void
    }

    /// The stack the routes are performed on.
    public let stack: ScreenStack
    /// Called with a route's name, old and new state on every state change (for the `trace` command).
    public var onStateChange: ((_ name: String, _ old: RouteState, _ new: RouteState) -> Void)?
    private var routes: [Shown] = []

    /// Makes a navigator over `stack`.
    /// - Parameter stack: The stack to show screens on.
    public init(stack: ScreenStack) {
        self.stack = stack
    }

    /// The routes of the shown screens, bottom first, with the names they were shown under.
    public var shown: [(name: String, state: RouteState, title: String)] {
        routes.map { ($0.name, $0.state(), $0.screen()?.title ?? "(gone)") }
    }

    /// Performs `route` onto the stack. When the screen below the new one is of the same kind, its route
    /// is removed, so that the new screen replaces it.
    /// - Parameters:
    ///   - route: An unrouted route to a screen.
    ///   - name: What to call the route in traces, e.g. `cart` or `books/3`.
    /// - Returns: The title of the screen shown.
    /// - Throws: `RouteError`: a cancelled route, a destination that could not be made or shown.
    @discardableResult
    public func show(_ route: Route<any Screen>, name: String) throws -> String {
        try show(route, name: name, as: { $0 })
    }

    /// Performs a route to a narrower screen protocol onto the stack, e.g. a `Route<any CartScreen>`,
    /// widening its destination to `any Screen` with `widen` (write `{ $0 }`). When the screen below the
    /// new one is of the same kind, its route is removed, so that the new screen replaces it.
    /// - Parameters:
    ///   - route: An unrouted route to a screen.
    ///   - name: What to call the route in traces, e.g. `cart` or `books/3`.
    ///   - widen: Converts the destination to `any Screen`.
    /// - Returns: The title of the screen shown.
    /// - Throws: `RouteError`: a cancelled route, a destination that could not be made or shown.
    @discardableResult
    public func show<Destination>(
        _ route: Route<Destination>, name: String, as widen: @escaping (Destination) -> any Screen
    ) throws -> String {
        route.stateDidChange = { [weak self] old, new in self?.onStateChange?(name, old, new) }
        var failure: RouteError?
        var title = ""
        try route.perform(
            on: stack, as: widen,
            completion: { result in
                switch result {
                case .success(let screen): title = widen(screen).title
                case .failure(let error): failure = error
                }
            })
        if let failure { throw failure }
        let previous = routes.last
        routes.append(
            Shown(
                name: name, route: route, state: { route.state }, screen: { route.destination.map(widen) },
                canRemove: { route.canRemove }, remove: { try route.remove() }))
        if let previous, let below = previous.screen(), let top = route.destination.map(widen),
            ObjectIdentifier(type(of: below)) == ObjectIdentifier(type(of: top))
        {
            try previous.remove()
            routes.removeAll { $0.route === previous.route }
        }
        return title
    }

    /// Removes the top screen's route.
    /// - Returns: What happened, e.g. `Left Cart; back to Home.` or `Already at Home.`
    /// - Throws: `RouteError` when the route cannot be removed.
    public func back() throws -> String {
        guard let top = routes.last else { return "Already at \(stack.rootTitle)." }
        let leaving = top.screen()
        try top.remove()
        routes.removeLast()
        let verb = leaving?.isModal == true ? "Closed" : "Left"
        return "\(verb) \(leaving?.title ?? top.name); back to \(stack.topTitle)."
    }

    /// Removes every route, top first, back to the root.
    /// - Returns: How many screens were removed.
    /// - Throws: `RouteError` when a route cannot be removed; the ones above it are gone by then.
    @discardableResult
    public func backToRoot() throws -> Int {
        var removed = 0
        while let top = routes.last {
            routes.removeLast()
            if top.canRemove() {
                try top.remove()
                removed += 1
            }
        }
        return removed
    }
}
