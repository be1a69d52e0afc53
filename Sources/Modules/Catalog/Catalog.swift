import Router
import ShopInterfaces

/// The books the shop sells.
public protocol Catalog: AnyObject, Sendable {
    /// Every book, in catalog order.
    var books: [Book] { get }

    /// The books whose title contains `text`, ignoring case, in catalog order.
    /// - Parameter text: The text to look for; blank text finds nothing.
    /// - Returns: The matching books.
    func search(_ text: String) -> [Book]
}

extension RoutableService where Destination == any Catalog {
    /// The shop's catalog.
    public nonisolated static var catalog: Self { Self(declaring: (any Catalog).self) }
}

extension Catalog {
    /// The book with catalog number `id`, if the catalog has one.
    /// - Parameter id: The catalog number.
    /// - Returns: The book, or nil.
    public func book(id: Int) -> Book? { books.first { $0.id == id } }
}

/// The numbered results of a search.
public protocol SearchResultsScreen: Screen {
    /// The text searched for, as the user typed it.
    var query: String { get }
    /// The books found, in catalog order.
    var results: [Book] { get }
}

/// One book's details.
public protocol BookScreen: Screen {
    /// The book shown.
    var book: Book { get }
}

/// How a caller sets up the search results screen: the query is required.
public protocol SearchScreenConfig: ModuleConfiguration<any SearchResultsScreen> {
    /// Names the text searched for. Required.
    /// - Parameter query: The text, as the user typed it.
    func constructSearchResults(query: String)
}

/// How a caller sets up a book's screen: the catalog number is required.
public protocol BookScreenConfig: ModuleConfiguration<any BookScreen> {
    /// Names the book to show. Required.
    /// - Parameter bookID: The book's catalog number.
    func constructBookScreen(bookID: Int)
}

extension RoutableServiceModule
where Configuration == any SearchScreenConfig, Destination == any SearchResultsScreen {
    /// The numbered results of a search; call `constructSearchResults(query:)` when routing to it.
    public nonisolated static var searchScreen: Self {
        Self(declaring: (any SearchScreenConfig).self, making: (any SearchResultsScreen).self)
    }
}

extension RoutableServiceModule where Configuration == any BookScreenConfig, Destination == any BookScreen {
    /// One book's details; call `constructBookScreen(bookID:)`, or route to the path `books/ID`.
    public nonisolated static var bookScreen: Self {
        Self(declaring: (any BookScreenConfig).self, making: (any BookScreen).self)
    }
}

/// A catalog number with no book.
public struct BookNotFound: ShopMessage, Equatable {
    /// The catalog number asked for.
    public let id: Int

    /// Makes the error.
    /// - Parameter id: The catalog number asked for.
    public init(id: Int) {
        self.id = id
    }

    /// The message for the user.
    public var description: String { "There is no book \(id) in the catalog." }
}
