import Router

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
    public static var catalog: Self { Self(declaring: (any Catalog).self) }
}
