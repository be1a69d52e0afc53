import Router

protocol PaymentProcessing: Sendable { func charge(_ cents: Int) -> String }
protocol PaymentGateway: Sendable { func submit(amount: Int, currency: String) -> String }

extension RoutableService<any PaymentProcessing> {
    nonisolated static var paymentProcessing: Self { .init(declaring: Destination.self) }
}
extension RoutableService<any PaymentGateway> {
    nonisolated static var paymentGateway: Self { .init(declaring: Destination.self) }
}

struct CardGateway: PaymentGateway {
    func submit(amount: Int, currency: String) -> String { "card \(amount) \(currency)" }
}
struct FakeGateway: PaymentGateway {
    func submit(amount: Int, currency: String) -> String { "fake \(amount)" }
}
struct GatewayProcessor: PaymentProcessing {
    let gateway: any PaymentGateway
    func charge(_ cents: Int) -> String { gateway.submit(amount: cents, currency: "EUR") }
}

// The app's wiring, as in ModuleAdapters.md: checkout's processor adapted to the payments gateway.
func setUp(_ registry: RouteRegistry) throws {
    try registry.register(.paymentGateway) { _ in CardGateway() }
    try registry.adapt(.paymentProcessing, to: .paymentGateway) { GatewayProcessor(gateway: $0) }
}
