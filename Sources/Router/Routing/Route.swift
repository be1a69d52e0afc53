/// A router performing one route: it makes the destination, shows it through an optional
/// ``RoutePresenter``, and can remove it again, reporting each state change.
///
/// ```swift
/// let route = try registry.route(to: .profileScreen)
/// route.stateDidChange = { old, new in print("\(old) → \(new)") }
/// try route.perform(presenter: screenStack)
/// // …
/// try route.remove()
/// ```
///
/// A route holds its destination weakly (a class destination lives as long as its presenter or caller
/// keeps it), so removing after the destination is gone fails with ``RouteError/Code/actionFailed``.
/// Value destinations are held strongly. The per-call handlers run once and are then released.
///
/// Misuse is a typed error: performing while routing is ``RouteError/Code/overRoute``; performing a
/// routed route, or removing one that is not routed, is ``RouteError/Code/actionFailed``.
///
/// A route to a narrower protocol can be shown by a presenter of a wider one with
/// ``perform(on:as:preparation:completion:isolation:)``:
///
/// ```swift
/// let route: Route<any CartScreen> = try registry.route(to: .cartScreen)
/// try route.perform(on: screenStack, as: { $0 })   // screenStack presents `any Screen`
/// ```
public final class Route<Destination> {
    /// Called with the old and the new state on every change.
    public var stateDidChange: ((_ old: RouteState, _ new: RouteState) -> Void)?

    /// The route's state.
    public private(set) var state: RouteState = .unrouted {
        didSet { if oldValue != state { stateDidChange?(oldValue, state) } }
    }

    private let registry: RouteRegistry
    /// What the route leads to, for interceptors and messages.
    private let target: RouteContext.Target
    /// The key whose destination the route makes, for interceptors.
    private let destinationKey: RouteKey
    private var key: String { target.description }
    /// Makes the destination; `onMainActor` says whether the performing caller is isolated to the main actor.
    private let make: (_ onMainActor: Bool, _ preparation: (Destination) throws -> Void) throws -> Destination
    private let hooks: (HookMoment, Destination) -> Void
    private weak var weakDestination: AnyObject?
    private var strongDestination: Destination?
    /// The presenter that showed the destination (held weakly), and how to hide it through that presenter.
    private var shownBy: ShownBy?

    init(
        registry: RouteRegistry, target: RouteContext.Target, destinationKey: RouteKey,
        make: @escaping (_ onMainActor: Bool, _ preparation: (Destination) throws -> Void) throws -> Destination,
        hooks: @escaping (HookMoment, Destination) -> Void
    ) {
        self.registry = registry
        self.target = target
        self.destinationKey = destinationKey
        self.make = make
        self.hooks = hooks
    }

    /// The destination of the last perform, while it is alive.
    public var destination: Destination? {
        if let strongDestination { return strongDestination }
        return weakDestination as? Destination
    }

    /// Whether ``perform(presenter:preparation:completion:isolation:)`` may be called now.
    public var canPerform: Bool { state == .unrouted || state == .removed }

    /// Whether ``remove(preparation:completion:)`` may be called now.
    public var canRemove: Bool { state == .routed && destination != nil }

    /// Makes the destination, runs the caller's preparation, the registration's hooks and the registry's
    /// interceptors, then shows it through `presenter` (or, without one, completes at once).
    ///
    /// **How to learn that it failed:** `completion` sees every outcome, once. A failure before the
    /// presenter is involved is also thrown, so `try` cannot skip it; a presenter's failure, which comes
    /// later, reaches `completion` only. (``stateDidChange`` reports states, not errors; the registry's
    /// error handler sees every failure, for diagnostics.)
    /// - Parameters:
    ///   - presenter: Shows the destination; the route is `routed` when it calls back. Held weakly.
    ///   - preparation: The caller's property and method injection.
    ///   - completion: Called once, with the destination when it is shown or the error when the route
    ///     failed, whether it failed before the presenter was involved (then the error is also thrown) or
    ///     while presenting.
    ///   - isolation: The caller's isolation; leave the default. Performed from main-actor code, the route
    ///     may make a main-actor destination (``RouteRegistry/registerOnMainActor(_:file:line:factory:)``).
    /// - Returns: The destination (presentation may still be in progress).
    /// - Throws: ``RouteError``: ``RouteError/Code/overRoute``, ``RouteError/Code/actionFailed``,
    ///   ``RouteError/Code/routeCancelled``, or any error making the destination.
    @discardableResult
    public func perform(
        presenter: (any RoutePresenter<Destination>)? = nil,
        preparation: (Destination) throws -> Void = { _ in },
        completion: ((Result<Destination, RouteError>) -> Void)? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) throws -> Destination {
        try perform(
            presentation: presenter.map { Self.presentation(on: $0, as: { $0 }) }, preparation: preparation,
            handlers: Handlers(completion: completion),
            onMainActor: MainActorCheck.isMainActor(isolation))
    }

    /// Performs the route on a presenter of a wider destination type: `widen` turns this route's destination
    /// into what the presenter shows, typically `{ $0 }` from a screen protocol to the protocol it refines.
    ///
    /// The route otherwise behaves as ``perform(presenter:preparation:completion:isolation:)``;
    /// ``remove(preparation:completion:)`` later hides the widened destination through
    /// the same presenter.
    /// - Parameters:
    ///   - presenter: Shows the widened destination; the route is `routed` when it calls back. Held weakly.
    ///   - widen: Converts the destination to the presenter's type, e.g. `{ $0 }`.
    ///   - preparation: The caller's property and method injection.
    ///   - completion: Called once, with the destination when it is shown or the error when the route
    ///     failed, whether it failed before the presenter was involved (then the error is also thrown) or
    ///     while presenting.
    ///   - isolation: The caller's isolation; leave the default. Performed from main-actor code, the route
    ///     may make a main-actor destination.
    /// - Returns: The destination (presentation may still be in progress).
    /// - Throws: ``RouteError``: ``RouteError/Code/overRoute``, ``RouteError/Code/actionFailed``,
    ///   ``RouteError/Code/routeCancelled``, or any error making the destination.
    @discardableResult
    public func perform<Presenter: RoutePresenter>(
        on presenter: Presenter,
        as widen: @escaping (Destination) -> Presenter.Destination,
        preparation: (Destination) throws -> Void = { _ in },
        completion: ((Result<Destination, RouteError>) -> Void)? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) throws -> Destination {
        try perform(
            presentation: Self.presentation(on: presenter, as: widen), preparation: preparation,
            handlers: Handlers(completion: completion),
            onMainActor: MainActorCheck.isMainActor(isolation))
    }

    private func perform(
        presentation: Presentation?, preparation: (Destination) throws -> Void, handlers: Handlers,
        onMainActor: Bool
    ) throws -> Destination {
        var handlers = handlers
        let context = RouteContext(action: .perform, target: target, destinationKey: destinationKey)
        let interceptors = registry.interceptors
        let made: Destination
        do {
            try checkCanPerform()
            try RouteRegistry.runBeforePerform(interceptors, context)
            state = .routing
            do {
                made = try make(onMainActor, preparation)
            } catch {
                state = .unrouted
                throw error
            }
        } catch {
            let routeError = RouteError.routeFailed(error, key: key)
            finish(.failure(routeError), context: context, interceptors: interceptors, handlers: &handlers)
            throw routeError
        }
        keep(made)
        hooks(.willPerform, made)
        guard let presentation else {
            succeedPerform(made, context: context, interceptors: interceptors, handlers: &handlers)
            return made
        }
        shownBy = presentation.shownBy
        var pending: Handlers? = handlers
        presentation.present(made) { [self] result in
            guard var handlers = pending else { return }
            pending = nil
            switch result {
            case .success:
                succeedPerform(made, context: context, interceptors: interceptors, handlers: &handlers)
            case .failure(let error):
                state = .unrouted
                let routeError = RouteError.presenterCouldNotShow(key, error)
                finish(.failure(routeError), context: context, interceptors: interceptors, handlers: &handlers)
            }
        }
        return made
    }

    /// Hides the destination through the presenter that showed it (or, without one, at once), after the
    /// removal's own preparation.
    /// - Parameters:
    ///   - preparation: Runs on the destination before it is hidden.
    ///   - completion: Called once, with the outcome (a failure before the presenter is involved is also
    ///     thrown).
    /// - Throws: ``RouteError`` with code ``RouteError/Code/actionFailed`` when the route is not performed
    ///   or its destination is gone; an error thrown by `preparation`.
    public func remove(
        preparation: (Destination) throws -> Void = { _ in },
        completion: ((Result<Void, RouteError>) -> Void)? = nil
    ) throws {
        var handlers = RemoveHandlers(completion: completion)
        let context = RouteContext(action: .remove, target: target, destinationKey: destinationKey)
        let interceptors = registry.interceptors
        let current: Destination
        do {
            guard state == .routed else {
                throw RouteError.removedWhileNotRouted(key, state: state)
            }
            guard let alive = destination else {
                throw RouteError.removedAfterDestinationWentAway(key)
            }
            current = alive
            do {
                try preparation(alive)
            } catch {
                throw RouteError.removalPreparationFailed(key, error)
            }
        } catch {
            let routeError = RouteError.routeFailed(error, key: key)
            finishRemove(.failure(routeError), context: context, interceptors: interceptors, handlers: &handlers)
            throw routeError
        }
        state = .removing
        hooks(.willRemove, current)
        guard let shownBy, let presenter = shownBy.presenter else {
            succeedRemove(current, context: context, interceptors: interceptors, handlers: &handlers)
            return
        }
        var pending: RemoveHandlers? = handlers
        shownBy.dismiss(presenter, current) { [self] result in
            guard var handlers = pending else { return }
            pending = nil
            switch result {
            case .success:
                succeedRemove(current, context: context, interceptors: interceptors, handlers: &handlers)
            case .failure(let error):
                state = .routed
                let routeError = RouteError.presenterCouldNotRemove(key, error)
                finishRemove(.failure(routeError), context: context, interceptors: interceptors, handlers: &handlers)
            }
        }
    }

    // MARK: Internals

    private struct Handlers {
        var completion: ((Result<Destination, RouteError>) -> Void)?
    }

    /// How a presenter shows this route's destination (only while performing) and hides it later.
    private struct Presentation {
        let present: (Destination, @escaping (Result<Void, any Error>) -> Void) -> Void
        let shownBy: ShownBy
    }

    /// The presenter that showed the destination, held weakly, and how to hide the destination through it.
    private struct ShownBy {
        weak var presenter: AnyObject?
        let dismiss: (AnyObject, Destination, @escaping (Result<Void, any Error>) -> Void) -> Void
    }

    private static func presentation<Presenter: RoutePresenter>(
        on presenter: Presenter, as widen: @escaping (Destination) -> Presenter.Destination
    ) -> Presentation {
        Presentation(
            present: { destination, completion in presenter.present(widen(destination), completion: completion) },
            shownBy: ShownBy(
                presenter: presenter,
                dismiss: { object, destination, completion in
                    // `object` is the presenter this closure was made for; the cast only restores its type.
                    guard let presenter = object as? Presenter else { return completion(.success(())) }
                    presenter.dismiss(widen(destination), completion: completion)
                }))
    }

    private struct RemoveHandlers {
        var completion: ((Result<Void, RouteError>) -> Void)?
    }

    private func checkCanPerform() throws {
        switch state {
        case .routing:
            throw RouteError.alreadyRouting(key)
        case .routed, .removing:
            throw RouteError.performedAgain(key, state: state)
        case .unrouted, .removed:
            return
        }
    }

    private func keep(_ made: Destination) {
        if Swift.type(of: made as Any) is AnyObject.Type {
            weakDestination = made as AnyObject
            strongDestination = nil
        } else {
            weakDestination = nil
            strongDestination = made
        }
    }

    private func succeedPerform(
        _ made: Destination, context: RouteContext, interceptors: [any RouteInterceptor], handlers: inout Handlers
    ) {
        state = .routed
        hooks(.didPerform, made)
        finish(.success(made), context: context, interceptors: interceptors, handlers: &handlers)
    }

    private func finish(
        _ result: Result<Destination, RouteError>, context: RouteContext, interceptors: [any RouteInterceptor],
        handlers: inout Handlers
    ) {
        switch result {
        case .success:
            RouteRegistry.runAfter(interceptors, context, failure: nil)
        case .failure(let error):
            RouteRegistry.runAfter(interceptors, context, failure: error)
            registry.notify(error)
        }
        handlers.completion?(result)
        handlers = Handlers()
    }

    private func succeedRemove(
        _ removed: Destination, context: RouteContext, interceptors: [any RouteInterceptor],
        handlers: inout RemoveHandlers
    ) {
        state = .removed
        hooks(.didRemove, removed)
        let object = weakDestination
        strongDestination = nil
        weakDestination = nil
        shownBy = nil
        if let object { registry.scheduleLeakCheck(of: object, key: key) }
        finishRemove(.success(()), context: context, interceptors: interceptors, handlers: &handlers)
    }

    private func finishRemove(
        _ result: Result<Void, RouteError>, context: RouteContext, interceptors: [any RouteInterceptor],
        handlers: inout RemoveHandlers
    ) {
        switch result {
        case .success:
            RouteRegistry.runAfter(interceptors, context, failure: nil)
        case .failure(let error):
            RouteRegistry.runAfter(interceptors, context, failure: error)
            registry.notify(error)
        }
        handlers.completion?(result)
        handlers = RemoveHandlers()
    }
}

extension RouteRegistry {
    /// A route to the destination of a service key, to perform (and later remove).
    /// - Parameter key: The key.
    /// - Returns: An unrouted route.
    /// - Throws: ``RouteError`` when the registry is not sealed or no router serves `key`.
    public func route<Destination>(to key: RoutableService<Destination>) throws -> Route<Destination> {
        let entry = try lookup(reporting: false) { resolver in try resolver.entry(for: key) }
        let routeKey = RouteKey(key)
        return Route(
            registry: self, target: .key(routeKey), destinationKey: routeKey,
            make: { [self] onMainActor, preparation in
                try lookup(reporting: false, onMainActor: onMainActor) { resolver in
                    // Found again where the route is performed: inside `withOverrides`, that is the
                    // override layer's registration, whose shared cells are the layer's own.
                    try resolver.build(try resolver.entry(for: key), input: nil, preparation: preparation)
                }
            },
            hooks: { moment, destination in entry.hooks.fire(moment, destination) })
    }

    /// A route to the destination of a module key, configured when it is performed.
    /// - Parameters:
    ///   - key: The module key.
    ///   - configuring: Sets the module up (`construct…` calls) each time the route is performed.
    /// - Returns: An unrouted route.
    /// - Throws: ``RouteError`` when the registry is not sealed or no router serves `key`.
    public func route<Configuration, Destination>(
        to key: RoutableServiceModule<Configuration, Destination>,
        configuring: @escaping (Configuration) throws -> Void
    ) throws -> Route<Destination> {
        let entry = try lookup(reporting: false) { resolver in try resolver.moduleEntry(for: key) }
        let routeKey = RouteKey(key)
        return Route(
            registry: self, target: .key(routeKey), destinationKey: routeKey,
            make: { [self] onMainActor, preparation in
                try makeConfigured(
                    key, configuring: configuring, preparation: preparation, reporting: false, onMainActor: onMainActor)
            },
            hooks: { moment, destination in entry.hooks.fire(moment, destination) })
    }

    func notify(_ error: RouteError) {
        errorHandler?(error)
    }
}
