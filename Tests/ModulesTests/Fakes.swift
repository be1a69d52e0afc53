import PaymentsFeature
import Router
import ShopApp
import ShopTestSupport

final class FakeGateway: PaymentGateway {
    let answer: GatewayCharge

    init(answer: GatewayCharge) {
        self.answer = answer
    }

    func charge(cents: Int, customer: String) -> GatewayCharge { answer }
}

/// Declines every charge, as a test override of the payments module's gateway.
final class DecliningGateway: PaymentGateway {
    func charge(cents: Int, customer: String) -> GatewayCharge {
        GatewayCharge(approved: false, transactionID: "", message: "no funds")
    }
}

/// The whole shop, sealed, with a fresh per-user scope: the base that test overrides replace parts of.
func shopRegistry(userScope: CustomScope = CustomScope("user")) throws -> RouteRegistry {
    try RouteRegistry(modules: ShopModules.all(userScope: userScope))
}

/// Collects what a registry's error handler receives.
final class ErrorLog: Sendable {
    private let errors = TestLocked<[RouteError]>([])

    var all: [RouteError] { errors.withLock { $0 } }

    func record(_ error: RouteError) { errors.withLock { $0.append(error) } }
}
