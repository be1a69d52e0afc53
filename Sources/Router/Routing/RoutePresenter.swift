/// Shows and hides destinations for routes: a navigation stack, a window, a terminal screen stack.
/// The terminal counterpart of ZIKRouter's view routing.
///
/// A route performed with a presenter is `routing` until the presenter calls `completion`; then it is
/// `routed` (or, on failure, back to `unrouted`).
///
/// ```swift
/// final class ScreenStack: RoutePresenter {
///     private(set) var screens: [any Screen] = []
///     func present(_ screen: any Screen, completion: @escaping (Result<Void, any Error>) -> Void) {
///         screens.append(screen)
///         completion(.success(()))
///     }
///     func dismiss(_ screen: any Screen, completion: @escaping (Result<Void, any Error>) -> Void) {
///         screens.removeAll { $0 === screen }
///         completion(.success(()))
///     }
/// }
/// ```
public protocol RoutePresenter<Destination>: AnyObject {
    /// What the presenter shows.
    associatedtype Destination

    /// Shows `destination`, then calls `completion` once it is shown, or with the reason it cannot be.
    /// - Parameters:
    ///   - destination: The prepared destination.
    ///   - completion: Call exactly once.
    func present(_ destination: Destination, completion: @escaping (Result<Void, any Error>) -> Void)

    /// Hides `destination`, then calls `completion` once it is hidden, or with the reason it cannot be.
    /// - Parameters:
    ///   - destination: The destination a route performed.
    ///   - completion: Call exactly once.
    func dismiss(_ destination: Destination, completion: @escaping (Result<Void, any Error>) -> Void)
}
