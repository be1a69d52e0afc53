import ChatFeature
import Router
import ShopInterfaces
import ShopTestSupport
import Testing

struct ChatModuleTests {
    func registry(scope: CustomScope) throws -> RouteRegistry {
        try testRegistry([ChatModule(userScope: scope)]) { try $0.registerFakeSession(user: "ann") }
    }

    @Test func theRouterBuildsOneSessionAndOneListThatReferToEachOther() throws {
        let registry = try registry(scope: CustomScope("user"))
        let session = try registry.makeDestination(to: .chatSession)
        let list = try registry.makeDestination(to: .messageList)
        #expect(session.messageList === list)
        #expect(list.session === session)
        #expect(list.messages == [ChatMessage(sender: "support", text: "Hi ann, how can we help?")])
        #expect(session.unreadCount == 1)
        #expect(try badgeCounts(in: registry) == ["chat 1"])
        session.markAllRead()
        #expect(session.unreadCount == 0)
        #expect(try badgeCounts(in: registry) == ["chat 0"])
    }

    @Test func startingFromTheListGivesTheSamePair() throws {
        let registry = try registry(scope: CustomScope("user"))
        let list = try registry.makeDestination(to: .messageList)
        let session = try registry.makeDestination(to: .chatSession)
        #expect(list.session === session)
        #expect(session.messageList === list)
        #expect(list.messages.count == 1)
    }

    @Test func showingTheChatScreenMarksTheMessagesReadThroughItsHook() throws {
        let registry = try registry(scope: CustomScope("user"))
        #expect(try registry.makeDestination(to: .chatSession).unreadCount == 1)
        // Making the screen is not showing it: the hook fires only for a performed route.
        _ = try registry.makeDestination(to: .chatScreen)
        #expect(try registry.makeDestination(to: .chatSession).unreadCount == 1)
        let route = try registry.route(path: "chat", as: (any ChatScreen).self)
        let screen = try route.perform()
        #expect(screen.isModal)
        #expect(
            screen.render()
                == "  support: Hi ann, how can we help?\n"
                + "  (one chat session and one message list, linked both ways: yes)")
        #expect(try registry.makeDestination(to: .chatSession).unreadCount == 0)
    }

    @Test func theListHoldsItsSessionWeakly() throws {
        let scope = CustomScope("user")
        let registry = try registry(scope: scope)
        let list = try registry.makeDestination(to: .messageList)
        #expect(list.session != nil)
        scope.reset()
        #expect(list.session == nil)
    }
}
