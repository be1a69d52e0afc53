import NotificationsFeature
import Router
import RouterTesting
import ShopInterfaces
import ShopTestSupport
import Testing

struct NotificationsModuleTests {
    @Test func newsShowsOnlyWhileSignedOut() throws {
        let signedOut = try testRegistry([NotificationsModule()]) { try $0.registerFakeSession(user: nil) }
        #expect(try badgeCounts(in: signedOut) == ["news 1"])
        let signedIn = try testRegistry([NotificationsModule()]) { try $0.registerFakeSession(user: "ann") }
        #expect(try badgeCounts(in: signedIn) == ["news 0"])
    }

    @Test func theBadgeAddsUpEveryCounterRegisteredUnderTheKey() throws {
        let registry = try testRegistry([NotificationsModule()]) { registry in
            try registry.registerFakeSession(user: nil)
            try registry.register(.badgeCounter) { _ in FixedBadge(label: "a", count: 2) }
            try registry.register(.badgeCounter) { _ in FixedBadge(label: "b", count: 4) }
        }
        let summary = BadgeSummary(try registry.makeDestinations(to: .badgeCounter))
        #expect(summary.total == 7)
        #expect(summary.description == "7 (news 1, a 2, b 4)")
        #expect(try registry.makeDestination(to: .badge) == summary)
    }

    @Test func theBadgeFollowsASessionOverride() throws {
        let registry = try testRegistry([NotificationsModule()]) { try $0.registerFakeSession(user: nil) }
        #expect(try registry.makeDestination(to: .badge).description == "1 (news 1)")
        let signedIn = try registry.withOverrides { overrides in
            try overrides.register(.userSession) { _ in FakeSession(user: "ann") }
        } operation: {
            try registry.makeDestination(to: .badge)
        }
        #expect(signedIn.description == "0 (news 0)")
    }

    /// The same with the test trait: the session is replaced for the whole test, in the registry the
    /// test makes.
    @Test(.overriding(.userSession) { _ in FakeSession(user: "ann") })
    func theBadgeFollowsTheTestsSession() throws {
        let registry = try testRegistry([NotificationsModule()]) { try $0.registerFakeSession(user: nil) }
        #expect(try registry.makeDestination(to: .badge).description == "0 (news 0)")
    }
}
