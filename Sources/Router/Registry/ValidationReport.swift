/// Every problem sealing found, at once, rather than the first one only; and the warnings, which do not stop
/// sealing.
public struct ValidationReport: Sendable, CustomStringConvertible {
    /// The problems, each a ``RouteError`` that names its key and says what to do.
    public let problems: [RouteError]
    /// What sealing allows but the reader should know, each a ``RouteError`` that names its key and says
    /// what to do: a child registry's registration that a parent's shared instance does not see
    /// (``RouteError/Code/overrideNotSeenByParent``).
    public let warnings: [RouteError]

    init(problems: [RouteError], warnings: [RouteError] = []) {
        self.problems = problems
        self.warnings = warnings
    }

    /// Whether no problem was found (warnings do not count).
    public var isValid: Bool { problems.isEmpty }

    /// One line per problem, or "No problems found." when there are none; then one line per warning, if any.
    public var description: String {
        var text: String
        if problems.isEmpty {
            text = "No problems found."
        } else {
            let noun = problems.count == 1 ? "problem" : "problems"
            text = "\(problems.count) \(noun):\n" + problems.map { "- \($0)" }.joined(separator: "\n")
        }
        if !warnings.isEmpty {
            let noun = warnings.count == 1 ? "warning" : "warnings"
            text += "\n\(warnings.count) \(noun):\n" + warnings.map { "- \($0)" }.joined(separator: "\n")
        }
        return text
    }
}
