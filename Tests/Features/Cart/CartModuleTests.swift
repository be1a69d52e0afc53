import CartFeature
import Router
import ShopInterfaces
import ShopTestSupport
import Testing

struct CartModuleTests {
    /// The cart module alone, with a fake session for `user`: no account module is loaded.
    func registry(user: String?, scope: CustomScope = CustomScope("user")) throws -> RouteRegistry {
        try testRegistry([CartModule(userScope: scope)]) { registry in
            try registry.registerFakeSession(user: user)
        }
    }

    @Test func theCartNeedsItsOwnerBeforeItExists() throws {
        let error = #expect(throws: RouteError.self) {
            try registry(user: "ann").makeDestination(to: .cart) { _ in }
        }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.description.contains("constructCart(owner:)") == true)
    }

    @Test func oneCartPerUserScope() throws {
        let scope = CustomScope("user")
        let registry = try registry(user: "ann", scope: scope)
        let cart = try registry.makeDestination(to: .cart) { $0.constructCart(owner: "ann") }
        cart.add(sampleBook)
        cart.add(otherBook)
        #expect(cart.owner == "ann")
        #expect(cart.totalCents == 3_500)
        #expect(try registry.makeDestination(to: .cart) { $0.constructCart(owner: "ann") } === cart)
        scope.reset()
        let fresh = try registry.makeDestination(to: .cart) { $0.constructCart(owner: "bob") }
        #expect(fresh !== cart)
        #expect(fresh.owner == "bob")
        #expect(fresh.items.isEmpty)
    }

    @Test func theBadgeCountsItemsOnlyWhenSignedIn() throws {
        let registry = try registry(user: "ann")
        try registry.makeDestination(to: .cart) { $0.constructCart(owner: "ann") }.add(sampleBook)
        #expect(try badgeCounts(in: registry) == ["cart 1"])
        #expect(try badgeCounts(in: self.registry(user: nil)) == ["cart 0"])
    }

    @Test func theCartScreenShowsTheSignedInUsersCart() throws {
        let registry = try registry(user: "ann")
        let empty = try registry.makeDestination(to: .cartScreen)
        #expect(empty.title == "Cart")
        #expect(empty.render() == "  Your cart is empty.")
        try registry.makeDestination(to: .cart) { $0.constructCart(owner: "ann") }.add(sampleBook)
        let byPath = try registry.makeDestination(path: "cart", as: (any CartScreen).self)
        #expect(byPath.cart.owner == "ann")
        #expect(byPath.render() == "  1. Test Driven Swift, $20.00\n  Total: $20.00")
    }

    @Test func theCartScreenNeedsASignedInUser() throws {
        let error = #expect(throws: RouteError.self) { try registry(user: nil).makeDestination(to: .cartScreen) }
        #expect(error?.shopMessage as? SignInNeeded == SignInNeeded())
    }
}
