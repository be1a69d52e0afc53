import Router
import ShopInterfaces

/// Registers an in-memory catalog of a dozen books as a singleton, also under the identifier `books/search`,
/// the search results screen, and a book's screen, also reachable by the path `books/:id(Int)`.
public struct CatalogModule: ShopFeatureModule {
    /// Makes the module.
    public init() {}

    /// Registers ``RoutableService/catalog``, ``RoutableServiceModule/searchScreen``,
    /// ``RoutableServiceModule/bookScreen`` and the path `books/:id(Int)`.
    /// - Parameter registry: The registry being assembled.
    /// - Throws: ``RouteError`` when the registry is sealed.
    public func register(in registry: RouteRegistry) throws {
        try registry.register(.catalog) { _ in
            InMemoryCatalog(books: Self.stock)
        }.scope(.singleton).identifier("books/search")
        try registry.register(.searchScreen, configuration: SearchScreenConfiguration.init) { config, r in
            let query = try config.require(config.query, setBy: "constructSearchResults(query:)")
            return SearchResultsPage(query: query, results: try r.resolve(.catalog).search(query))
        }.dependencies(.initializer(.catalog))
        try registry.register(.bookScreen, configuration: BookScreenConfiguration.init) { config, r in
            let id = try config.require(config.bookID, setBy: "constructBookScreen(bookID:)")
            guard let book = try r.resolve(.catalog).book(id: id) else { throw BookNotFound(id: id) }
            return BookPage(book: book)
        }.dependencies(.initializer(.catalog))
        try registry.register(path: "books/:id(Int)", to: .bookScreen) { config, parameters in
            config.constructBookScreen(bookID: try parameters.int("id"))
        }
    }

    private static let stock: [Book] = [
        Book(id: 1, title: "Swift Concurrency by Example", author: "Mira Holt", priceCents: 3900),
        Book(id: 2, title: "The Swift Programming Primer", author: "Owen Park", priceCents: 2900),
        Book(id: 3, title: "Server-Side Swift", author: "Lena Voss", priceCents: 3500),
        Book(id: 4, title: "Swiftly Through the Alps", author: "Anna Berg", priceCents: 1800),
        Book(id: 5, title: "Dependency Injection Principles", author: "Karl Dunn", priceCents: 4200),
        Book(id: 6, title: "Modular App Architecture", author: "Rita Chen", priceCents: 3100),
        Book(id: 7, title: "The Pragmatic Router", author: "Tom Ellis", priceCents: 2500),
        Book(id: 8, title: "Patterns of Large Programs", author: "Ines Roth", priceCents: 4500),
        Book(id: 9, title: "Terminal Tales", author: "Sam Ortiz", priceCents: 1500),
        Book(id: 10, title: "Linux for Builders", author: "Noor Haddad", priceCents: 2700),
        Book(id: 11, title: "Clean Interfaces", author: "Paul Meyer", priceCents: 3300),
        Book(id: 12, title: "A Tale of Two Modules", author: "Eva Lind", priceCents: 1200),
    ]
}

// Discoverable: the app finds this module by its record, without naming it (see `ModuleDiscovery`); the
// order number keeps the load order, and with it the badge's parts and the graph's roots, as it was.
#if compiler(>=6.3)
    #if objectFormat(MachO)
        @used @section("__DATA_CONST,__router_modules")
    #else
        @used @section("router_modules")
    #endif
    let catalogModuleRecord: RouteModuleRecord = (1, 20, { ModuleDiscovery.export(CatalogModule()) })
#endif

private final class InMemoryCatalog: Catalog {
    let books: [Book]

    init(books: [Book]) {
        self.books = books
    }

    func search(_ text: String) -> [Book] {
        let needle = text.trimmingWhitespace().lowercased()
        guard !needle.isEmpty else { return [] }
        return books.filter { $0.title.lowercased().contains(needle) }
    }
}

private final class SearchScreenConfiguration: ModuleConfiguration<any SearchResultsScreen>, SearchScreenConfig {
    var query: String?

    func constructSearchResults(query: String) { self.query = query }
}

private final class BookScreenConfiguration: ModuleConfiguration<any BookScreen>, BookScreenConfig {
    var bookID: Int?

    func constructBookScreen(bookID: Int) { self.bookID = bookID }
}

private final class SearchResultsPage: SearchResultsScreen {
    let query: String
    let results: [Book]

    init(query: String, results: [Book]) {
        self.query = query
        self.results = results
    }

    var title: String { "Search \"\(query)\"" }

    func render() -> String {
        guard !results.isEmpty else { return "  No titles contain \"\(query)\"." }
        return results.enumerated().map { index, book in
            "  \(index + 1). \(book.title), \(book.author), \(Money.format(book.priceCents))"
        }.joined(separator: "\n")
    }
}

private final class BookPage: BookScreen {
    let book: Book

    init(book: Book) {
        self.book = book
    }

    var title: String { book.title }

    func render() -> String {
        "  by \(book.author), \(Money.format(book.priceCents)), catalog number \(book.id)"
    }
}

extension String {
    /// The string without leading and trailing spaces, tabs and newlines.
    func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}
