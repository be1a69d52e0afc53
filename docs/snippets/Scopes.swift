import Router

// The parts the article's examples take for granted: an engine, a radio, wheels and a car.
// include: CarParts

protocol Cart: AnyObject {}
extension RoutableService<any Cart> {
    nonisolated static var cart: Self { .init(declaring: Destination.self) }
}
final class CartImpl: Cart {}
