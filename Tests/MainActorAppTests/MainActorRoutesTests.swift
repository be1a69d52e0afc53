import Router
import Testing

// Routes and paths to main-actor screens, performed from main-actor code as a ZIKRouter-style app does:
// the route makes the screen synchronously; the same route performed elsewhere is a typed error.

protocol OrderScreen: AnyObject {
    var orderID: Int { get }
}
extension RoutableService<any OrderScreen> {
    nonisolated static var orderScreen: Self { .init(declaring: Destination.self) }
}
final class OrderViewModel: OrderScreen {
    var orderID = 0
}

func orderRegistry() throws -> RouteRegistry {
    let registry = RouteRegistry()
    try registry.registerOnMainActor(.orderScreen, as: OrderViewModel.self) { _ in OrderViewModel() }
    try registry.register(path: "orders/:id(Int)", to: .orderScreen)
    try registry.seal()
    return registry
}

/// The code of the `RouteError` `body` throws on a detached task, or nil.
func codeOffTheMainActor(_ body: @escaping @Sendable () throws -> Void) async -> RouteError.Code? {
    await Task.detached { () -> RouteError.Code? in
        do {
            try body()
            return nil
        } catch {
            return (error as? RouteError)?.code
        }
    }.value
}

struct MainActorRoutesTests {
    @Test func aRouteToAMainActorScreenPerformedOnTheMainActorMakesIt() throws {
        let route = try orderRegistry().route(to: .orderScreen)
        let screen = try route.perform()
        #expect(route.state == .routed)
        #expect(screen.orderID == 0)
    }

    @Test func aPathToAMainActorScreenIsMadeOnTheMainActor() throws {
        let registry = try orderRegistry()
        #expect(try registry.makeDestination(path: "orders/7", as: (any OrderScreen).self) is OrderViewModel)
        let route = try registry.route(path: "orders/8", as: (any OrderScreen).self)
        #expect(try route.perform() is OrderViewModel)
        #expect(route.state == .routed)
    }

    @Test func theSameRoutesPerformedOffTheMainActorAreATypedError() async throws {
        let registry = try orderRegistry()
        let byKey = await codeOffTheMainActor { _ = try registry.route(to: .orderScreen).perform() }
        let byPath = await codeOffTheMainActor {
            _ = try registry.makeDestination(path: "orders/7", as: (any OrderScreen).self)
        }
        #expect(byKey == .mainActorRequired)
        #expect(byPath == .mainActorRequired)
    }
}
