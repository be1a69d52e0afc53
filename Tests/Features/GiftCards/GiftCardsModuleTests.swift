import GiftCardsFeature
import Router
import ShopInterfaces
import ShopTestSupport
import Testing

struct GiftCardsModuleTests {
    @Test func theGiftCardScreenIsReachableByItsPath() throws {
        let registry = try testRegistry([GiftCardsModule()])
        let screen = try registry.makeDestination(path: "giftcards", as: (any Screen).self)
        #expect(screen.title == "Gift cards")
        #expect(screen.render() == "  Give a book: gift cards of $10.00, $25.00 and $50.00, sent by email.")
    }

    @Test func itAddsABadgeCounterOfItsOwn() throws {
        let registry = try testRegistry([GiftCardsModule()])
        #expect(try registry.makeDestinations(to: .badgeCounter).map(\.label) == ["gift cards"])
    }
}
