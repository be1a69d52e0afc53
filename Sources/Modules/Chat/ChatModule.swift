import Router
import ShopInterfaces
import Synchronization

/// Registers the chat pair, one of each per signed-in user, wired to each other by property injection,
/// a badge counter for unread messages, and the chat screen (path `chat`), which marks the messages read
/// once it is shown.
public struct ChatModule: UserScopedModule {
    /// The scope that holds the signed-in user's chat.
    public let userScope: CustomScope

    /// Makes the module.
    /// - Parameter userScope: The per-user scope, reset on sign-out.
    public init(userScope: CustomScope = .user) {
        self.userScope = userScope
    }

    /// Registers ``RoutableService/chatSession``, ``RoutableService/messageList``, a
    /// ``RoutableService/badgeCounter`` labelled `chat`, ``RoutableService/chatScreen`` and the path `chat`.
    /// - Parameter registry: The registry being assembled.
    /// - Throws: ``RouteError`` when the registry is sealed.
    public func register(in registry: RouteRegistry) throws {
        try registry.register(.chatSession) { r in
            SupportChat(user: try r.resolve(.userSession).currentUser ?? "guest")
        }.scope(.custom(userScope)).dependencies(.initializer(.userSession)).injecting(\.messageList, .messageList)
        try registry.register(.messageList, factory: { _ in Transcript() }).scope(.custom(userScope)).injecting(
            \.session, .chatSession
        ).didFinishPrepare { list, _ in
            if list.messages.isEmpty, let user = list.session?.user {
                list.append(ChatMessage(sender: "support", text: "Hi \(user), how can we help?"))
            }
        }
        let badgeNeeds: [RouteDependency] = [.initializer(.userSession), .initializer(.chatSession)]
        try registry.register(.badgeCounter) { r in
            guard try r.resolveIfRegistered(.userSession)?.currentUser != nil else { return ChatBadge(count: 0) }
            return ChatBadge(count: try r.resolve(.chatSession).unreadCount)
        }.dependencies(badgeNeeds)
        try registry.register(.chatScreen) { r in
            ChatPage(session: try r.resolve(.chatSession), list: try r.resolve(.messageList))
        }.dependencies(.initializer(.chatSession), .initializer(.messageList)).hooks(
            RouteHooks(didPerform: { screen in screen.session.markAllRead() }))
        try registry.register(path: "chat", to: .chatScreen)
    }
}

// Discoverable: the app finds this module by its record, without naming it (see `ModuleDiscovery`); the
// order number keeps the load order, and with it the badge's parts and the graph's roots, as it was.
#if compiler(>=6.3)
    #if objectFormat(MachO)
        @used @section("__DATA_CONST,__router_modules")
    #else
        @used @section("router_modules")
    #endif
    let chatModuleRecord: RouteModuleRecord = (1, 70, { ModuleDiscovery.export(ChatModule()) })
#endif

private final class SupportChat: ChatSession {
    private struct State {
        var list: (any MessageList)?
        var read = 0
    }

    let user: String
    private let state = Mutex(State())

    init(user: String) {
        self.user = user
    }

    var messageList: (any MessageList)? {
        get { state.withLock { $0.list } }
        set { state.withLock { $0.list = newValue } }
    }

    var unreadCount: Int {
        let (list, read) = state.withLock { ($0.list, $0.read) }
        return max(0, (list?.messages.count ?? 0) - read)
    }

    func markAllRead() {
        let count = messageList?.messages.count ?? 0
        state.withLock { $0.read = count }
    }
}

private final class Transcript: MessageList {
    private struct State {
        weak var session: (any ChatSession)?
        var messages: [ChatMessage] = []
    }

    private let state = Mutex(State())

    var session: (any ChatSession)? {
        get { state.withLock { $0.session } }
        set { state.withLock { $0.session = newValue } }
    }

    var messages: [ChatMessage] { state.withLock { $0.messages } }

    func append(_ message: ChatMessage) { state.withLock { $0.messages.append(message) } }
}

private final class ChatPage: ChatScreen {
    let session: any ChatSession
    let list: any MessageList

    init(session: any ChatSession, list: any MessageList) {
        self.session = session
        self.list = list
    }

    let title = "Chat"
    var isModal: Bool { true }

    func render() -> String {
        let linked = session.messageList === list && list.session === session
        let lines = list.messages.map { "  \($0.sender): \($0.text)" }
        return (lines + ["  (one chat session and one message list, linked both ways: \(linked ? "yes" : "no"))"])
            .joined(separator: "\n")
    }
}

private struct ChatBadge: BadgeCounter {
    let label = "chat"
    let count: Int
}
