import Router
import Testing

protocol PaymentProcessing: Sendable { func charge(_ cents: Int) -> String }
protocol PaymentGateway: Sendable { func submit(amount: Int, currency: String) -> String }

extension RoutableService where Destination == any PaymentProcessing {
    static var paymentProcessing: Self { Self(declaring: (any PaymentProcessing).self) }
}
extension RoutableService where Destination == any PaymentGateway {
    static var paymentGateway: Self { Self(declaring: (any PaymentGateway).self) }
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

struct AdapterTests {
    @Test func lookupsOfTheRequiredProtocolReachTheProvidedRouter() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.paymentGateway) { _ in CardGateway() }
            try registry.adapt(.paymentProcessing, to: .paymentGateway) { GatewayProcessor(gateway: $0) }
        }
        #expect(try registry.makeDestination(to: .paymentProcessing).charge(500) == "card 500 EUR")
    }

    @Test func anAdapterWithoutATargetIsReportedAtSealing() throws {
        let registry = RouteRegistry()
        try registry.adapt(.paymentProcessing, to: .paymentGateway) { GatewayProcessor(gateway: $0) }
        let error = #expect(throws: RouteError.self) { try registry.seal() }
        #expect(
            error?.reason
                == "Sealing found 1 problem:\n- The adapter from RoutableService<PaymentProcessing> to RoutableService<PaymentGateway> has no target: RoutableService<PaymentGateway> has no router (resolving PaymentProcessing → PaymentGateway). Hint: Load the module that provides RoutableService<PaymentGateway>, or remove the adapter."
        )
    }
}

struct OverrideTests {
    func registry() throws -> RouteRegistry {
        try sealedRegistry { registry in
            try registry.register(.paymentGateway) { _ in CardGateway() }
            try registry.adapt(.paymentProcessing, to: .paymentGateway) { GatewayProcessor(gateway: $0) }
        }
    }

    @Test func anOverrideAppliesAtAnyDepthThenTheOriginalReturns() throws {
        let registry = try registry()
        let inside = try registry.withOverrides { overrides in
            try overrides.register(.paymentGateway) { _ in FakeGateway() }
        } operation: {
            try registry.makeDestination(to: .paymentProcessing).charge(7)
        }
        #expect(inside == "fake 7")
        #expect(try registry.makeDestination(to: .paymentProcessing).charge(7) == "card 7 EUR")
    }

    @Test func overridesNestAndTheInnermostWins() throws {
        let registry = try registry()
        let results = try registry.withOverrides { overrides in
            try overrides.register(.paymentGateway) { _ in FakeGateway() }
        } operation: {
            let inner = try registry.withOverrides { overrides in
                try overrides.adapt(.paymentProcessing, to: .paymentGateway) { _ in
                    GatewayProcessor(gateway: CardGateway())
                }
            } operation: {
                try registry.makeDestination(to: .paymentProcessing).charge(1)
            }
            return [inner, try registry.makeDestination(to: .paymentProcessing).charge(1)]
        }
        #expect(results == ["card 1 EUR", "fake 1"])
    }

    @Test func parallelTasksDoNotSeeEachOthersOverrides() async throws {
        let registry = try registry()
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<50 {
                group.addTask {
                    if index.isMultiple(of: 2) {
                        return try await registry.withOverrides { overrides in
                            try overrides.register(.paymentGateway) { _ in FakeGateway() }
                        } operation: {
                            await Task.yield()
                            return try registry.makeDestination(to: .paymentProcessing).charge(1) == "fake 1"
                        }
                    }
                    await Task.yield()
                    return try registry.makeDestination(to: .paymentProcessing).charge(1) == "card 1 EUR"
                }
            }
            for try await correct in group { #expect(correct) }
        }
    }

    @Test func aSingletonBuiltUnderAnOverrideDoesNotKeepTheFakeAfterwards() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.paymentGateway) { _ in CardGateway() }
            try registry.adapt(.paymentProcessing, to: .paymentGateway) {
                GatewayProcessor(gateway: $0)
            }.scope(.singleton)
        }
        let inside = try registry.withOverrides { overrides in
            try overrides.register(.paymentGateway) { _ in FakeGateway() }
        } operation: {
            try registry.makeDestination(to: .paymentProcessing).charge(2)
        }
        #expect(inside == "fake 2")
        #expect(try registry.makeDestination(to: .paymentProcessing).charge(2) == "card 2 EUR")
    }

    @Test func singletonsBuiltBeforeAnOverrideAreSharedWithIt() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.paymentGateway) { _ in CardGateway() }
            try registry.adapt(.paymentProcessing, to: .paymentGateway) {
                GatewayProcessor(gateway: $0)
            }.scope(.singleton)
        }
        #expect(try registry.makeDestination(to: .paymentProcessing).charge(3) == "card 3 EUR")
        let inside = try registry.withOverrides { overrides in
            try overrides.register(.paymentGateway) { _ in FakeGateway() }
        } operation: {
            try registry.makeDestination(to: .paymentProcessing).charge(3)
        }
        #expect(inside == "card 3 EUR")  // the processor existed already, with the real gateway
    }
}
