/// A path pattern such as `"books/:id(Int)"`: literal segments and named parameters, optionally typed.
///
/// Parameter types: `String` (the default, `:name`), `Int`, `Double` and `Bool` (`:name(Int)`).
struct PathPattern: Sendable, Hashable {
    enum ParameterType: String, Sendable, Hashable {
        case string = "String"
        case int = "Int"
        case double = "Double"
        case bool = "Bool"

        /// Why `text` is not a value of this type, e.g. `which is not an Int`; nil when it is one.
        func rejection(of text: Substring) -> String? {
            switch self {
            case .string: return text.isEmpty ? "which is empty" : nil
            case .int: return Self.intRejection(of: text)
            case .double: return Double(text) == nil ? "which is not \(aOrAn)" : nil
            case .bool: return text == "true" || text == "false" ? nil : "which is not \(aOrAn)"
            }
        }

        /// Why `text` is not an `Int`: not a number at all, or a whole number too large for one.
        static func intRejection(of text: Substring) -> String? {
            if Int(text) != nil { return nil }
            let digits = text.first == "-" || text.first == "+" ? text.dropFirst() : text
            if !digits.isEmpty && digits.allSatisfy({ $0.isASCII && $0.isNumber }) {
                return "which is out of range for an Int (\(Int.min) to \(Int.max))"
            }
            return "which is not an Int"
        }
    }

    enum Segment: Sendable, Hashable {
        case literal(String)
        case parameter(name: String, type: ParameterType)
    }

    enum Match {
        case matched(values: [String: String], literals: Int)
        /// The literal segments fit, but a parameter is missing or malformed; `hint` shows a path that fits.
        case invalid(reason: String, hint: String)
        case noMatch
    }

    /// A mistake in the pattern's text, reported when the registry seals.
    struct Problem: Sendable, Hashable {
        let reason: String
        let hint: String
    }

    let text: String
    let segments: [Segment]
    /// What is wrong with the pattern; empty when it is well formed. Registering keeps the pattern either
    /// way, and sealing reports every problem of every pattern at once.
    let problems: [Problem]

    /// The paths the pattern matches, as a value: its literals and the types of its parameters, without
    /// the parameters' names. Two patterns with the same shape match exactly the same paths.
    var shape: [String] {
        segments.map { segment in
            switch segment {
            case .literal(let literal): return "/" + literal
            case .parameter(_, let type): return ":" + type.rawValue
            }
        }
    }

    init(_ text: String) {
        self.text = text
        var segments: [Segment] = []
        var problems: [Problem] = []
        let quoted = "\"\(RouteError.displayable(text))\""
        for character in ["?", "#"] where text.contains(character) {
            problems.append(
                Problem(
                    reason:
                        "The path pattern \(quoted) contains \"\(character)\", which ends the path part of a URL, so no path can match it.",
                    hint: "Remove it: query parameters (?name=value) reach PathParameters without being in the pattern."
                ))
        }
        var names: Set<String> = []
        for part in text.split(separator: "/") {
            guard part.hasPrefix(":") else {
                segments.append(.literal(String(part)))
                continue
            }
            var name = part.dropFirst()
            var type = ParameterType.string
            if let open = name.firstIndex(of: "(") {
                guard name.hasSuffix(")") else {
                    problems.append(
                        Problem(
                            reason:
                                "The path pattern \(quoted) does not close the type of the parameter \(name[..<open]): \"\(name[open...])\".",
                            hint: "Write parameters as :name or :name(Int)."))
                    segments.append(.parameter(name: String(name[..<open]), type: .string))
                    continue
                }
                let typeName = name[name.index(after: open)..<name.index(before: name.endIndex)]
                if let parsed = ParameterType(rawValue: String(typeName)) {
                    type = parsed
                } else {
                    problems.append(
                        Problem(
                            reason:
                                "The path pattern \(quoted) gives the parameter \(name[..<open]) the unknown type \(typeName).",
                            hint: "Use String, Int, Double or Bool."))
                }
                name = name[..<open]
            }
            if name.isEmpty {
                problems.append(
                    Problem(
                        reason: "The path pattern \(quoted) has a parameter without a name.",
                        hint: "Write parameters as :name or :name(Int)."))
            } else if !Self.isName(name) {
                problems.append(
                    Problem(
                        reason:
                            "The path pattern \(quoted) names a parameter \"\(RouteError.displayable(String(name)))\", which is not a name: a name has letters, digits and _ only.",
                        hint: "Write parameters as :name or :name(Int), with one colon."))
            } else if !names.insert(String(name)).inserted {
                problems.append(
                    Problem(
                        reason: "The path pattern \(quoted) names two parameters \(name).",
                        hint: "Give each parameter its own name."))
            }
            segments.append(.parameter(name: String(name), type: type))
        }
        self.segments = segments
        self.problems = problems
    }

    /// A path that fits the pattern, its parameters filled with sample values (`1`, `1.5`, `true`, or a
    /// text parameter's own name), e.g. `books/1` for `books/:id(Int)`.
    var examplePath: String {
        segments.map { segment in
            switch segment {
            case .literal(let literal): return literal
            case .parameter(let name, .string): return name
            case .parameter(_, let type): return type.sample
            }
        }.joined(separator: "/")
    }

    /// The advice for a path whose parameter `name` is missing or malformed: its type and a path that fits.
    func example(for name: String) -> String {
        let type = segments.lazy.compactMap { segment -> ParameterType? in
            guard case .parameter(name, let type) = segment else { return nil }
            return type
        }.first
        let asType = type.map { $0 == .string ? "as text" : "as \($0.aOrAn)" } ?? ""
        return "Give the parameter \(name) \(asType), as in \"\(RouteError.displayable(examplePath))\"."
    }

    /// The same pattern with the text parameter `name` typed, e.g. `named/:id(Int)` for `named/:id`.
    func typing(_ name: String, as type: ParameterType) -> String {
        text.split(separator: "/", omittingEmptySubsequences: false).map { part in
            part == ":\(name)" ? ":\(name)(\(type.rawValue))" : String(part)
        }.joined(separator: "/")
    }

    /// Whether a parameter's name is letters, digits and `_` (so `books/::id` names no parameter `:id`).
    static func isName(_ name: Substring) -> Bool {
        name.unicodeScalars.allSatisfy { $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
    }

    /// Whether `parts` are a path of this pattern, judged in two steps: the shape first (as many parts as
    /// segments, every literal in place), then the parameters' values. A path of another shape never
    /// "fits" the pattern, so `books/abc/def` is no route for `books/:id(Int)`, as `books/3/def` is. The
    /// one exception is a path that stops where a parameter starts: the parameter is missing.
    func match(_ parts: [Substring]) -> Match {
        guard parts.count <= segments.count else { return .noMatch }
        var literals = 0
        for (index, segment) in segments.enumerated() {
            guard index < parts.count else {
                guard case .parameter(let name, _) = segment else { return .noMatch }
                return .invalid(reason: "the parameter \(name) is missing", hint: example(for: name))
            }
            if case .literal(let literal) = segment {
                guard parts[index] == literal else { return .noMatch }
                literals += 1
            }
        }
        var values: [String: String] = [:]
        for (index, segment) in segments.enumerated() {
            guard case .parameter(let name, let type) = segment else { continue }
            if let rejection = type.rejection(of: parts[index]) {
                return .invalid(
                    reason:
                        "the parameter \(name) is \"\(RouteError.displayable(String(parts[index])))\", \(rejection)",
                    hint: example(for: name))
            }
            values[name] = String(parts[index])
        }
        return .matched(values: values, literals: literals)
    }
}

extension PathPattern.ParameterType {
    /// A value of the type, for examples in hints.
    var sample: String {
        switch self {
        case .string: return "text"
        case .int: return "1"
        case .double: return "1.5"
        case .bool: return "true"
        }
    }

    var aOrAn: String {
        switch self {
        case .string: return "a String"
        case .int: return "an Int"
        case .double: return "a Double"
        case .bool: return "a Bool"
        }
    }
}

/// The parameters a path supplied: those the pattern names, and the query (`?tab=reviews&page=2`).
public struct PathParameters: Sendable, CustomStringConvertible {
    /// The path that was routed, e.g. `"books/3?tab=reviews"`.
    public let path: String
    /// The pattern it matched, e.g. `"books/:id(Int)"`.
    public let pattern: String
    /// The named parameters, as text.
    public let values: [String: String]
    /// The query parameters, as text.
    public let query: [String: String]

    /// A named or query parameter as text, or nil when the path has none of that name.
    /// - Parameter name: The parameter's name.
    public subscript(_ name: String) -> String? { values[name] ?? query[name] }

    /// A parameter as text.
    /// - Parameter name: The parameter's name.
    /// - Returns: Its value.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/invalidPath`` naming the pattern when it is absent.
    public func string(_ name: String) throws -> String {
        guard let value = self[name] else { throw missing(name) }
        return value
    }

    /// A parameter as an integer; a pattern parameter typed `(Int)` always converts.
    /// - Parameter name: The parameter's name.
    /// - Returns: Its value.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/invalidPath`` when it is absent or not an integer.
    public func int(_ name: String) throws -> Int {
        let text = try string(name)
        guard let value = Int(text) else {
            throw malformed(
                name, text, PathPattern.ParameterType.intRejection(of: text[...]) ?? "which is not an Int", .int)
        }
        return value
    }

    /// A parameter as a floating-point number.
    /// - Parameter name: The parameter's name.
    /// - Returns: Its value.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/invalidPath`` when it is absent or not a number.
    public func double(_ name: String) throws -> Double {
        let text = try string(name)
        guard let value = Double(text) else { throw malformed(name, text, "which is not a Double", .double) }
        return value
    }

    /// A parameter as a Boolean (`true` or `false`).
    /// - Parameter name: The parameter's name.
    /// - Returns: Its value.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/invalidPath`` when it is absent or not a Boolean.
    public func bool(_ name: String) throws -> Bool {
        let text = try string(name)
        guard text == "true" || text == "false" else { throw malformed(name, text, "which is not a Bool", .bool) }
        return text == "true"
    }

    /// The parameters as they read in logs.
    public var description: String {
        let all = values.merging(query) { named, _ in named }
        return "\(path) matched \(pattern): "
            + all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            .joined(separator: ", ")
    }

    private func missing(_ name: String) -> RouteError {
        RouteError(
            .invalidPath, key: "\"\(pattern)\"",
            reason:
                "The path \"\(RouteError.displayable(path))\" for the pattern \"\(pattern)\" has no parameter \(name).",
            hint: "Add it to the path, or as a query parameter: ?\(name)=…")
    }

    private func malformed(
        _ name: String, _ text: String, _ rejection: String, _ type: PathPattern.ParameterType
    ) -> RouteError {
        let parsed = PathPattern(pattern)
        let named = parsed.segments.contains { $0 == .parameter(name: name, type: .string) }
        // A text parameter of the pattern: typing it there lets only fitting paths match. A query
        // parameter (or one typed otherwise) is the caller's to give right.
        let hint =
            named
            ? "Type the parameter in the pattern, \"\(RouteError.displayable(parsed.typing(name, as: type)))\", so that only paths with \(type.aOrAn) there match it."
            : "Give \(name) as \(type.aOrAn), e.g. ?\(name)=\(type.sample)."
        return RouteError(
            .invalidPath, key: "\"\(pattern)\"",
            reason:
                "The parameter \(name) of the path \"\(RouteError.displayable(path))\" is \"\(RouteError.displayable(text))\", \(rejection).",
            hint: hint)
    }
}
