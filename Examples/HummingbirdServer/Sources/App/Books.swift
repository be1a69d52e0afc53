import Hummingbird
import Router

// The service's domain: a book list kept by an actor repository, which holds connections from a pool. Both
// are app-wide singletons made by async factories, and both are torn down, in reverse order of creation,
// when the service shuts down.

/// A book in the list.
public struct Book: Codable, Sendable, Equatable, ResponseEncodable {
    /// Its number in the list.
    public let id: Int
    /// Its title.
    public let title: String
    /// Who added it (the request's user).
    public let addedBy: String

    /// Makes a book.
    public init(id: Int, title: String, addedBy: String) {
        self.id = id
        self.title = title
        self.addedBy = addedBy
    }
}

/// What the repository reports when a book is missing: a 404, mapped by Hummingbird itself.
public struct BookNotFound: HTTPResponseError {
    /// The book asked for.
    public let id: Int

    /// The error for book `id`.
    public init(id: Int) { self.id = id }
    /// Not found.
    public var status: HTTPResponse.Status { .notFound }
    /// Names the book.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        Response(status: status, body: .init(byteBuffer: ByteBuffer(string: "No book \(id).\n")))
    }
}

/// Where books are kept: an actor in the service, a fake in tests.
public protocol BookRepository: Sendable {
    /// Every book, in the order added.
    func all() async throws -> [Book]
    /// The book with this number.
    func book(_ id: Int) async throws -> Book
    /// Adds a book and returns it with its number.
    func add(title: String, addedBy: String) async throws -> Book
}

/// A pool of (simulated) database connections: opened by an async factory, closed on shutdown.
public protocol ConnectionPool: Sendable {
    /// Runs `body` with a connection taken from the pool.
    func withConnection<T: Sendable>(_ body: @Sendable (Int) throws -> T) async throws -> T
    /// Closes every connection; later calls fail.
    func close() async
}

extension RoutableService<any BookRepository> {
    /// The book repository: a singleton made by an async factory.
    public nonisolated static var bookRepository: Self { .init(declaring: Destination.self) }
}

extension RoutableService<any ConnectionPool> {
    /// The connection pool: a singleton made by an async factory, torn down after the repository.
    public nonisolated static var connectionPool: Self { .init(declaring: Destination.self) }
}

/// The pool: `open` awaits (as a real pool's handshake would), `close` closes every connection.
public actor SimulatedConnectionPool: ConnectionPool {
    private let size: Int
    private var next = 0
    private var isOpen = true
    private let events: EventLog

    private init(size: Int, events: EventLog) {
        self.size = size
        self.events = events
    }

    /// Opens `size` connections.
    public static func open(size: Int, events: EventLog) async throws -> SimulatedConnectionPool {
        try await Task.sleep(for: .milliseconds(1))
        events.record("pool opened (\(size) connections)")
        return SimulatedConnectionPool(size: size, events: events)
    }

    /// Runs `body` with the next connection, or throws ``PoolClosed`` once closed.
    public func withConnection<T: Sendable>(_ body: @Sendable (Int) throws -> T) async throws -> T {
        guard isOpen else { throw PoolClosed() }
        next = (next + 1) % size
        return try body(next)
    }

    /// Closes the pool, once, awaiting its connections' close (here: a pause of 100 ms, as a real pool's
    /// close waits for its connections to finish).
    public func close() async {
        guard isOpen else { return }
        isOpen = false
        try? await Task.sleep(for: .milliseconds(100))
        events.record("pool closed")
    }
}

/// What a closed pool throws.
public struct PoolClosed: Error, CustomStringConvertible {
    /// Says so.
    public var description: String { "The connection pool is closed." }
}

/// The repository: an actor, so that concurrent requests add books one at a time.
public actor PooledBookRepository: BookRepository {
    private let pool: any ConnectionPool
    private let events: EventLog
    private var books: [Book] = []

    /// Uses connections from `pool`.
    public init(pool: any ConnectionPool, events: EventLog) {
        self.pool = pool
        self.events = events
    }

    /// Every book, read through a connection.
    public func all() async throws -> [Book] {
        let books = self.books
        return try await pool.withConnection { _ in books }
    }

    /// The book `id`, or ``BookNotFound``.
    public func book(_ id: Int) async throws -> Book {
        let books = self.books
        guard let found = try await pool.withConnection({ _ in books.first { $0.id == id } }) else {
            throw BookNotFound(id: id)
        }
        return found
    }

    /// Adds a book, numbered in order.
    public func add(title: String, addedBy: String) async throws -> Book {
        let book = Book(id: books.count + 1, title: title, addedBy: addedBy)
        try await pool.withConnection { _ in () }
        books.append(book)
        return book
    }

    /// Writes what is pending before the pool closes (here: notes how many books it held).
    public func flush() async {
        events.record("repository flushed (\(books.count) books)")
    }
}
