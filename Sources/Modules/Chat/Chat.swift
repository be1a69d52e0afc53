import Router
import ShopInterfaces

/// One line of a chat.
public struct ChatMessage: Sendable, Equatable {
    /// Who wrote it.
    public let sender: String
    /// What they wrote.
    public let text: String

    /// Makes a message.
    /// - Parameters:
    ///   - sender: Who wrote it.
    ///   - text: What they wrote.
    public init(sender: String, text: String) {
        self.sender = sender
        self.text = text
    }
}

/// The signed-in user's support chat. It owns its message list, which refers back to it.
public protocol ChatSession: AnyObject, Sendable {
    /// The user chatting.
    var user: String { get }
    /// The session's messages; set by the router.
    var messageList: (any MessageList)? { get set }
    /// How many messages the user has not read.
    var unreadCount: Int { get }

    /// Marks every message read.
    func markAllRead()
}

/// The messages of a chat session; holds its session weakly.
public protocol MessageList: AnyObject, Sendable {
    /// The session the list belongs to (weak); set by the router.
    var session: (any ChatSession)? { get set }
    /// The messages, oldest first.
    var messages: [ChatMessage] { get }

    /// Appends a message.
    /// - Parameter message: The message.
    func append(_ message: ChatMessage)
}

extension RoutableService where Destination == any ChatSession {
    /// The signed-in user's chat session.
    public nonisolated static var chatSession: Self { Self(declaring: (any ChatSession).self) }
}

extension RoutableService where Destination == any MessageList {
    /// The signed-in user's chat messages.
    public nonisolated static var messageList: Self { Self(declaring: (any MessageList).self) }
}

/// The support chat, presented modally.
public protocol ChatScreen: Screen {
    /// The chat session shown.
    var session: any ChatSession { get }
}

extension RoutableService where Destination == any ChatScreen {
    /// The support chat, presented modally; also reachable by the path `chat`. Showing it marks the
    /// messages read.
    public nonisolated static var chatScreen: Self { Self(declaring: (any ChatScreen).self) }
}
