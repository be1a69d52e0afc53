import Router

protocol Screen: AnyObject { var title: String { get } }
protocol CheckoutScreen: Screen {}

extension RoutableService<any Screen> {
    nonisolated static var profileScreen: Self { .init(declaring: Destination.self) }
}
extension RoutableService<any CheckoutScreen> {
    nonisolated static var checkoutScreen: Self { .init(declaring: Destination.self) }
}

final class ProfilePage: Screen { let title = "Profile" }
final class CheckoutPage: CheckoutScreen { let title = "Checkout" }

/// Shows screens at once, or fails the next one when told to.
final class ScreenStack: RoutePresenter {
    var screens: [any Screen] = []
    var failNext = false
    struct Unavailable: Error {}

    func present(_ destination: any Screen, completion: @escaping (Result<Void, any Error>) -> Void) {
        if failNext {
            failNext = false
            return completion(.failure(Unavailable()))
        }
        screens.append(destination)
        completion(.success(()))
    }

    func dismiss(_ destination: any Screen, completion: @escaping (Result<Void, any Error>) -> Void) {
        screens.removeAll { $0 === destination }
        completion(.success(()))
    }
}

struct NotSignedIn: Error {}
