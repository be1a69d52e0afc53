/// Every problem sealing found, at once, rather than the first one only.
public struct ValidationReport: Sendable, CustomStringConvertible {
    /// The problems, each a ``RouteError`` that names its key and says what to do.
    public let problems: [RouteError]

    /// Whether nothing was found.
    public var isValid: Bool { problems.isEmpty }

    /// One line per problem, or "No problems found." when there are none.
    public var description: String {
        if problems.isEmpty { return "No problems found." }
        let noun = problems.count == 1 ? "problem" : "problems"
        return "\(problems.count) \(noun):\n" + problems.map { "- \($0)" }.joined(separator: "\n")
    }
}
