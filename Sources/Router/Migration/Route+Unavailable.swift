// Calls with the handlers a route had before it had one (`onSuccess:` and `onError:`), named so that the
// compiler says how to write them.
extension Route {
    /// Unavailable: `completion` is the one handler now.
    /// - Parameters:
    ///   - presenter: Shows the destination.
    ///   - preparation: The caller's property and method injection.
    ///   - onSuccess: Replaced by `completion`.
    ///   - onError: Replaced by `completion`.
    ///   - completion: Called once, with the outcome.
    ///   - isolation: The caller's isolation.
    /// - Returns: Never returns: the call does not compile.
    /// - Throws: Always, should it ever be reached.
    @available(
        *, unavailable,
        message:
            "onSuccess and onError are replaced by completion: perform(presenter:completion:), and a failure before presenting is also thrown"
    )
    @discardableResult
    public func perform(
        presenter: (any RoutePresenter<Destination>)? = nil, preparation: (Destination) throws -> Void = { _ in },
        onSuccess: ((Destination) -> Void)?, onError: ((RouteError) -> Void)? = nil,
        completion: ((Result<Destination, RouteError>) -> Void)? = nil, isolation: isolated (any Actor)? = #isolation
    ) throws -> Destination {
        throw RouteError.unavailable(#function)
    }

    /// Unavailable: `completion` is the one handler now.
    /// - Parameters:
    ///   - presenter: Shows the destination.
    ///   - preparation: The caller's property and method injection.
    ///   - onError: Replaced by `completion`.
    ///   - completion: Called once, with the outcome.
    ///   - isolation: The caller's isolation.
    /// - Returns: Never returns: the call does not compile.
    /// - Throws: Always, should it ever be reached.
    @available(
        *, unavailable,
        message:
            "onError is replaced by completion: perform(presenter:completion:), and a failure before presenting is also thrown"
    )
    @discardableResult
    public func perform(
        presenter: (any RoutePresenter<Destination>)? = nil, preparation: (Destination) throws -> Void = { _ in },
        onError: ((RouteError) -> Void)?, completion: ((Result<Destination, RouteError>) -> Void)? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) throws -> Destination {
        throw RouteError.unavailable(#function)
    }

    /// Unavailable: `completion` is the one handler now.
    /// - Parameters:
    ///   - presenter: Shows the widened destination.
    ///   - widen: Converts the destination to the presenter's type.
    ///   - preparation: The caller's property and method injection.
    ///   - onSuccess: Replaced by `completion`.
    ///   - onError: Replaced by `completion`.
    ///   - completion: Called once, with the outcome.
    ///   - isolation: The caller's isolation.
    /// - Returns: Never returns: the call does not compile.
    /// - Throws: Always, should it ever be reached.
    @available(
        *, unavailable,
        message:
            "onSuccess and onError are replaced by completion: perform(on:as:completion:), and a failure before presenting is also thrown"
    )
    @discardableResult
    public func perform<Presenter: RoutePresenter>(
        on presenter: Presenter, as widen: @escaping (Destination) -> Presenter.Destination,
        preparation: (Destination) throws -> Void = { _ in }, onSuccess: ((Destination) -> Void)?,
        onError: ((RouteError) -> Void)? = nil, completion: ((Result<Destination, RouteError>) -> Void)? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) throws -> Destination {
        throw RouteError.unavailable(#function)
    }

    /// Unavailable: `completion` is the one handler now.
    /// - Parameters:
    ///   - presenter: Shows the widened destination.
    ///   - widen: Converts the destination to the presenter's type.
    ///   - preparation: The caller's property and method injection.
    ///   - onError: Replaced by `completion`.
    ///   - completion: Called once, with the outcome.
    ///   - isolation: The caller's isolation.
    /// - Returns: Never returns: the call does not compile.
    /// - Throws: Always, should it ever be reached.
    @available(
        *, unavailable,
        message:
            "onError is replaced by completion: perform(on:as:completion:), and a failure before presenting is also thrown"
    )
    @discardableResult
    public func perform<Presenter: RoutePresenter>(
        on presenter: Presenter, as widen: @escaping (Destination) -> Presenter.Destination,
        preparation: (Destination) throws -> Void = { _ in }, onError: ((RouteError) -> Void)?,
        completion: ((Result<Destination, RouteError>) -> Void)? = nil, isolation: isolated (any Actor)? = #isolation
    ) throws -> Destination {
        throw RouteError.unavailable(#function)
    }

    /// Unavailable: `completion` is the one handler now.
    /// - Parameters:
    ///   - preparation: Runs on the destination before it is hidden.
    ///   - onSuccess: Replaced by `completion`.
    ///   - onError: Replaced by `completion`.
    ///   - completion: Called once, with the outcome.
    /// - Throws: Always, should it ever be reached.
    @available(
        *, unavailable,
        message:
            "onSuccess and onError are replaced by completion: remove(completion:), and a failure before dismissing is also thrown"
    )
    public func remove(
        preparation: (Destination) throws -> Void = { _ in }, onSuccess: (() -> Void)?,
        onError: ((RouteError) -> Void)? = nil, completion: ((Result<Void, RouteError>) -> Void)? = nil
    ) throws {
        throw RouteError.unavailable(#function)
    }

    /// Unavailable: `completion` is the one handler now.
    /// - Parameters:
    ///   - preparation: Runs on the destination before it is hidden.
    ///   - onError: Replaced by `completion`.
    ///   - completion: Called once, with the outcome.
    /// - Throws: Always, should it ever be reached.
    @available(
        *, unavailable,
        message:
            "onError is replaced by completion: remove(completion:), and a failure before dismissing is also thrown"
    )
    public func remove(
        preparation: (Destination) throws -> Void = { _ in }, onError: ((RouteError) -> Void)?,
        completion: ((Result<Void, RouteError>) -> Void)? = nil
    ) throws {
        throw RouteError.unavailable(#function)
    }
}
