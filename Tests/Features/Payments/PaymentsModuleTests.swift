import PaymentsFeature
import Router
import ShopTestSupport
import Testing

struct PaymentsModuleTests {
    @Test func theGatewayNumbersApprovedCharges() throws {
        let gateway = try testRegistry([PaymentsModule()]).makeDestination(to: .paymentGateway)
        #expect(gateway.charge(cents: 3_900, customer: "ann").transactionID == "TX-1001")
        #expect(
            gateway.charge(cents: 100, customer: "ann") == .init(approved: true, transactionID: "TX-1002", message: ""))
    }

    @Test func theGatewayDeclinesOverTheLimitAndNothing() throws {
        let gateway = try testRegistry([PaymentsModule(cardLimitCents: 5_000)]).makeDestination(to: .paymentGateway)
        let over = gateway.charge(cents: 5_001, customer: "ann")
        #expect(!over.approved)
        #expect(over.message == "$50.01 is over ann's card limit of $50.00")
        #expect(!gateway.charge(cents: 0, customer: "ann").approved)
        #expect(gateway.charge(cents: 5_000, customer: "ann").transactionID == "TX-1001")
    }
}
