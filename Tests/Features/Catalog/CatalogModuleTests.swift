import CatalogFeature
import Router
import ShopInterfaces
import ShopTestSupport
import Testing

struct CatalogModuleTests {
    @Test func searchFindsTitlesIgnoringCase() throws {
        let catalog = try testRegistry([CatalogModule()]).makeDestination(to: .catalog)
        #expect(catalog.books.count == 12)
        let titles = catalog.search("SWIFT").map(\.title)
        #expect(
            titles == [
                "Swift Concurrency by Example", "The Swift Programming Primer", "Server-Side Swift",
                "Swiftly Through the Alps",
            ])
        #expect(catalog.search("  tale ").map(\.id) == [9, 12])
        #expect(catalog.search("   ").isEmpty)
        #expect(catalog.search("cobol").isEmpty)
    }

    @Test func theCatalogIsAlsoReachableByIdentifier() throws {
        let registry = try testRegistry([CatalogModule()])
        let byIdentifier = try registry.makeDestination(identifier: "books/search", as: (any Catalog).self)
        #expect(byIdentifier === (try registry.makeDestination(to: .catalog)))
    }

    @Test func theSearchScreenNumbersTheResults() throws {
        let registry = try testRegistry([CatalogModule()])
        let screen = try registry.makeDestination(to: .searchScreen) { $0.constructSearchResults(query: "tale") }
        #expect(screen.title == "Search \"tale\"")
        #expect(screen.query == "tale")
        #expect(screen.results.map(\.id) == [9, 12])
        #expect(
            screen.render() == "  1. Terminal Tales, Sam Ortiz, $15.00\n  2. A Tale of Two Modules, Eva Lind, $12.00")
        let none = try registry.makeDestination(to: .searchScreen) { $0.constructSearchResults(query: "cobol") }
        #expect(none.render() == "  No titles contain \"cobol\".")
    }

    @Test func aBookScreenIsReachableByItsPath() throws {
        let registry = try testRegistry([CatalogModule()])
        let screen = try registry.makeDestination(path: "books/3", as: (any BookScreen).self)
        #expect(screen.book.id == 3)
        #expect(screen.title == "Server-Side Swift")
        #expect(screen.render() == "  by Lena Voss, $35.00, catalog number 3")
        #expect(
            try registry.makeDestination(path: "books/4", as: (any Screen).self).title == "Swiftly Through the Alps")
        let missing = #expect(throws: RouteError.self) {
            try registry.makeDestination(path: "books/99", as: (any Screen).self)
        }
        #expect(missing?.shopMessage?.description == "There is no book 99 in the catalog.")
        let malformed = #expect(throws: RouteError.self) {
            try registry.makeDestination(path: "books/abc", as: (any Screen).self)
        }
        #expect(malformed?.code == .invalidPath)
        #expect(
            malformed?.description
                == "The path \"books/abc\" fits the pattern \"books/:id(Int)\", but the parameter id is \"abc\", which is not an Int. Hint: Give the parameter id as an Int, as in \"books/1\"."
        )
    }
}
