import CatalogFeature
import Router
import RouterTesting
import ShopInterfaces
import ShopTestSupport
import Testing

// `verifyByMaking()` on the whole demo app (issue 35, item 1): every registration of the seven features is
// made once, with the module configurations and the signed-in user a test supplies, and every edge each
// takes is one its registration declared.
struct VerifyTheShopTests {
    @Test func everyRegistrationOfTheShopIsMadeAndDeclaresWhatItLooksUp() async throws {
        let shop = try shopRegistry()
        var inputs = RegistrationInputs()
        inputs.configuring(.searchScreen) { $0.constructSearchResults(query: "swift") }
        inputs.configuring(.bookScreen) { $0.constructBookScreen(bookID: 3) }
        inputs.configuring(.cart) { $0.constructCart(owner: "ann") }
        let report = await #expect(throws: VerificationReport.self) {
            try await shop.withOverrides { overrides in
                try overrides.register(.userSession) { _ in FakeSession(user: "ann") }.scope(.singleton)
            } operation: {
                try await shop.verifyByMaking(supplying: inputs)
            }
        }
        // No registration takes an edge it does not declare; the one left is the app's own rule, a state the
        // test did not set up: the checkout screen refuses an empty cart.
        #expect(report?.problems.map(\.key) == ["RoutableService<CheckoutScreen>"])
        #expect(report?.problems.first?.error.code == .factoryFailed)
        #expect(report?.problems.first?.error.reason.contains("Your cart is empty") == true)
        // Everything else was made, and what each took is on record: the checkout's edges, say.
        let checkout = report?.trials.first { $0.key == "RoutableService<Checkout>" }
        #expect(checkout?.failure == nil)
        #expect(checkout?.taken.isEmpty == false)
        #expect(checkout?.taken.allSatisfy(\.isDeclared) == true)
        // One trial per registration of the shop, and one for the test's own session.
        let registrations = try shop.dependencyGraph().nodes.count
        #expect(report?.trials.count == registrations + 1)
    }

    @Test func withoutTheInputsEachRegistrationThatNeedsOneIsListed() async throws {
        let report = await #expect(throws: VerificationReport.self) { try await shopRegistry().verifyByMaking() }
        // Three module screens miss their construct… call, and three screens need a signed-in user.
        #expect(report?.problems.count == 6)
        #expect(report?.problems.map(\.error.code).filter { $0 == .invalidConfiguration }.count == 3)
    }
}
