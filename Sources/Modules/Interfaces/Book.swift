/// A book the shop sells: a plain value every module may pass around.
public struct Book: Sendable, Hashable {
    /// The catalog number, unique in the catalog.
    public let id: Int
    /// The title, searched by the catalog.
    public let title: String
    /// The author's name.
    public let author: String
    /// The price in cents.
    public let priceCents: Int

    /// Makes a book.
    /// - Parameters:
    ///   - id: The catalog number.
    ///   - title: The title.
    ///   - author: The author's name.
    ///   - priceCents: The price in cents.
    public init(id: Int, title: String, author: String, priceCents: Int) {
        self.id = id
        self.title = title
        self.author = author
        self.priceCents = priceCents
    }
}

/// Formats amounts of money for the terminal.
public enum Money {
    /// Formats cents as dollars, for example `3900` as `$39.00`.
    /// - Parameter cents: The amount in cents; negative amounts get a leading minus sign.
    /// - Returns: The formatted amount.
    public static func format(_ cents: Int) -> String {
        let sign = cents < 0 ? "-" : ""
        let magnitude = cents.magnitude
        let fraction = magnitude % 100
        return "\(sign)$\(magnitude / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
