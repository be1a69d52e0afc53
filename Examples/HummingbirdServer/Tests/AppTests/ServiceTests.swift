import App
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Router
import RouterTesting
import Testing

/// The service's routes, request scope, test overrides and shutdown, through Hummingbird's test client:
/// `.router` sends requests straight to the router, `.live` starts a real server on a free port.
@Suite struct ServiceTests {
    let user: HTTPFields

    init() throws {
        user = [try #require(HTTPField.Name("X-User")): "ann"]
    }

    func body(_ text: String) -> ByteBuffer { ByteBuffer(string: text) }

    func decode<T: Decodable>(_ type: T.Type, _ response: TestResponse) throws -> T {
        try JSONDecoder().decode(type, from: Data(buffer: response.body))
    }

    @Test func theRoutesAddListAndFindBooks() async throws {
        let registry = try RouteRegistry(modules: serviceModules())
        try await buildApplication(registry: registry).test(.router) { client in
            let added = try await client.execute(
                uri: "/books", method: .post, headers: user, body: body(#"{"title":"Dune"}"#))
            #expect(added.status == .created)
            #expect(try decode(Book.self, added) == Book(id: 1, title: "Dune", addedBy: "ann"))

            let list = try await client.execute(uri: "/books", method: .get, headers: user)
            #expect(try decode([Book].self, list).map(\.title) == ["Dune"])
            let one = try await client.execute(uri: "/books/1", method: .get, headers: user)
            #expect(try decode(Book.self, one).title == "Dune")

            // The repository's own HTTP error passes through.
            let missing = try await client.execute(uri: "/books/7", method: .get, headers: user)
            #expect(missing.status == .notFound)
            #expect(String(buffer: missing.body) == "No book 7.\n")
        }
    }

    @Test func aFactorysHTTPErrorIsMappedThroughUnderlyingError() async throws {
        let registry = try RouteRegistry(modules: serviceModules())
        try await buildApplication(registry: registry).test(.router) { client in
            // No X-User: the CurrentUser factory throws Unauthorized while the BookService is made; Router
            // wraps it in a RouteError, and the error middleware answers with the wrapped error's response.
            let response = try await client.execute(uri: "/books", method: .get)
            #expect(response.status == .unauthorized)
            #expect(String(buffer: response.body) == "Send an X-User header.\n")
        }
    }

    @Test func requestScopedInstancesAreSharedWithinARequestAndNeverAcrossRequests() async throws {
        let registry = try RouteRegistry(modules: serviceModules())
        let reports = try await buildApplication(registry: registry).test(.router) { client in
            try await withThrowingTaskGroup(of: ScopeReport.self) { group in
                for _ in 0..<32 {
                    group.addTask {
                        let response = try await client.execute(uri: "/debug/scope", method: .get, headers: user)
                        return try decode(ScopeReport.self, response)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        #expect(reports.count == 32)
        // Within a request, the service's trail is the one the route looked up itself.
        #expect(reports.allSatisfy { $0.serviceTrail == $0.routeTrail })
        // Across requests, running at the same time, every request had its own.
        #expect(Set(reports.map(\.serviceTrail)).count == 32)
        #expect(Set(reports.map(\.request)).count == 32)
    }

    @Test(
        .overrides { overrides in
            // A singleton for the test, so that what the POST writes is there for the GET.
            try overrides.registerAsync(.bookRepository) { _ async in
                FakeBookRepository(books: [Book(id: 1, title: "Seeded", addedBy: "fake")])
            }.scope(.singleton)
        })
    func theTestTraitReplacesTheRepositoryInALiveServer() async throws {
        let registry = try RouteRegistry(modules: serviceModules())
        try await buildApplication(registry: registry).test(.live) { client in
            _ = try await client.execute(
                uri: "/books", method: .post, headers: user, body: body(#"{"title":"Emma"}"#))
            let list = try await client.execute(uri: "/books", method: .get, headers: user)
            #expect(try decode([Book].self, list).map(\.title) == ["Seeded", "Emma"])
        }
    }

    @Test func gracefulShutdownTearsTheRepositoryDownThenThePoolOnce() async throws {
        let events = EventLog()
        let registry = try RouteRegistry(modules: serviceModules(events: events))
        // The live test framework runs the app in a service group and shuts it down gracefully at the end:
        // the server first, then the RegistryService, which calls `registry.shutdownAsync()`.
        try await buildApplication(registry: registry).test(.live) { client in
            _ = try await client.execute(
                uri: "/books", method: .post, headers: user, body: body(#"{"title":"Emma"}"#))
            #expect(events.events == ["pool opened (4 connections)"])
        }
        let expected = ["pool opened (4 connections)", "repository flushed (1 books)", "pool closed"]
        #expect(events.events == expected)
        #expect(registry.isShutDown)

        // Once: a second shutdown returns at once, and lookups now fail with a typed error.
        try await registry.shutdownAsync()
        #expect(events.events == expected)
        let error = await #expect(throws: RouteError.self) {
            try await registry.makeDestinationAsync(to: .bookRepository)
        }
        #expect(error?.code == .shutDown)
    }
}

/// A repository that keeps its books in memory and needs no pool.
actor FakeBookRepository: BookRepository {
    private var books: [Book]

    init(books: [Book]) { self.books = books }

    func all() -> [Book] { books }

    func book(_ id: Int) throws -> Book {
        guard let found = books.first(where: { $0.id == id }) else { throw BookNotFound(id: id) }
        return found
    }

    func add(title: String, addedBy: String) -> Book {
        let book = Book(id: books.count + 1, title: title, addedBy: addedBy)
        books.append(book)
        return book
    }
}
