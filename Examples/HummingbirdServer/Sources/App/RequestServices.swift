import Hummingbird
import Router
import Synchronization

// What lives for one request: the request's own facts (supplied by the request scope when it opens), the
// signed-in user and an audit trail (made once per request, shared by everything the request looks up),
// and the book service the routes use, made from the app-wide repository and those.

/// The request's facts, supplied by the request scope the middleware opens.
public struct RequestInfo: Sendable {
    /// The request's number, from the app-wide counter.
    public let number: Int
    /// The `X-User` header, if sent.
    public let user: String?

    /// Makes the facts of one request.
    public init(number: Int, user: String?) {
        self.number = number
        self.user = user
    }
}

/// The signed-in user: made per request from ``RequestInfo``; its factory throws ``Unauthorized`` when the
/// request names none, which the error middleware maps through `RouteError.underlyingError` to a 401.
public struct CurrentUser: Sendable {
    /// The user's name.
    public let name: String
}

/// What a request without an `X-User` header gets.
public struct Unauthorized: HTTPResponseError {
    /// Unauthorized.
    public var status: HTTPResponse.Status { .unauthorized }
    /// Says which header is missing.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        Response(status: status, body: .init(byteBuffer: ByteBuffer(string: "Send an X-User header.\n")))
    }
}

/// What one request did, in order: made once per request, shared by every lookup of that request.
public final class AuditTrail: Sendable {
    /// A number unique in the process, so that tests can tell one trail from another.
    public let serial: Int
    private let entries = Mutex<[String]>([])

    /// A new, empty trail.
    public init(serial: Int) { self.serial = serial }

    /// Appends an entry.
    public func note(_ entry: String) { entries.withLock { $0.append(entry) } }

    /// The entries so far.
    public var notes: [String] { entries.withLock { $0 } }
}

/// An app-wide counter: request numbers and audit-trail serials.
public final class Counter: Sendable {
    private let value = Atomic<Int>(0)

    /// Starts at zero.
    public init() {}

    /// The next number, from 1.
    public func next() -> Int { value.add(1, ordering: .relaxed).newValue }
}

extension RoutableService<Counter> {
    /// The app-wide counter: a singleton.
    public nonisolated static var counter: Self { .init(declaring: Destination.self) }
}

/// What the routes use: one per request, made by an async factory from the app-wide repository and the
/// request's user and trail.
public struct BookService: Sendable {
    let repository: any BookRepository
    /// The request's user.
    public let user: CurrentUser
    /// The request's trail: the same object any other lookup of this request gets.
    public let trail: AuditTrail

    /// Every book.
    public func list() async throws -> [Book] {
        trail.note("list")
        return try await repository.all()
    }

    /// One book, or ``BookNotFound``.
    public func book(_ id: Int) async throws -> Book {
        trail.note("read \(id)")
        return try await repository.book(id)
    }

    /// Adds a book in the user's name.
    public func add(title: String) async throws -> Book {
        trail.note("add \(title)")
        return try await repository.add(title: title, addedBy: user.name)
    }
}

extension RoutableService<RequestInfo> {
    /// The request's facts: supplied by each request scope.
    public nonisolated static var requestInfo: Self { .init(declaring: Destination.self) }
}

extension RoutableService<CurrentUser> {
    /// The signed-in user: request-scoped.
    public nonisolated static var currentUser: Self { .init(declaring: Destination.self) }
}

extension RoutableService<AuditTrail> {
    /// The request's audit trail: request-scoped.
    public nonisolated static var auditTrail: Self { .init(declaring: Destination.self) }
}

extension RoutableService<BookService> {
    /// The routes' service: request-scoped, made by an async factory.
    public nonisolated static var bookService: Self { .init(declaring: Destination.self) }
}

extension RoutableService<EventLog> {
    /// The app-wide event log: a singleton.
    public nonisolated static var eventLog: Self { .init(declaring: Destination.self) }
}
