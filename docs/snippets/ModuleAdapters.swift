import Router

extension RoutableService<any PaymentProcessing> {
    nonisolated static var paymentProcessing: Self { .init(declaring: Destination.self) }
}
extension RoutableService<any PaymentGateway> {
    nonisolated static var paymentGateway: Self { .init(declaring: Destination.self) }
}

/// The payments module's gateway.
struct CardGateway: PaymentGateway {
    func submit(amount: Int, currency: String) -> String { "card \(amount) \(currency)" }
}

// The payments module, loaded next to the wiring.
func setUp(_ registry: RouteRegistry) throws {
    try registry.register(.paymentGateway) { _ in CardGateway() }
}
