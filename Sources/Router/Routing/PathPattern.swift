/// A path pattern such as `"books/:id(Int)"`: literal segments and named parameters, optionally typed.
///
/// Parameter types: `String` (the default, `:name`), `Int`, `Double` and `Bool` (`:name(Int)`).
struct PathPattern: Sendable, Hashable {
    enum ParameterType: String, Sendable, Hashable {
        case string = "String"
        case int = "Int"
        case double = "Double"
        case bool = "Bool"
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
            problems.append(.endsThePathPart(quoted, character))
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
                    problems.append(.unclosedType(quoted, name: name[..<open], type: name[open...]))
                    segments.append(.parameter(name: String(name[..<open]), type: .string))
                    continue
                }
                let typeName = name[name.index(after: open)..<name.index(before: name.endIndex)]
                if let parsed = ParameterType(rawValue: String(typeName)) {
                    type = parsed
                } else {
                    problems.append(.unknownType(quoted, name: name[..<open], type: typeName))
                }
                name = name[..<open]
            }
            if name.isEmpty {
                problems.append(.unnamedParameter(quoted))
            } else if !Self.isName(name) {
                problems.append(.notAName(quoted, name: name))
            } else if !names.insert(String(name)).inserted {
                problems.append(.repeatedName(quoted, name: name))
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
                return .missing(name, hint: example(for: name))
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
                return .rejected(name, value: parts[index], rejection, hint: example(for: name))
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
        guard let value = self[name] else { throw RouteError.pathParameterMissing(name, in: self) }
        return value
    }

    /// A parameter as an integer; a pattern parameter typed `(Int)` always converts.
    /// - Parameter name: The parameter's name.
    /// - Returns: Its value.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/invalidPath`` when it is absent or not an integer.
    public func int(_ name: String) throws -> Int {
        let text = try string(name)
        guard let value = Int(text) else {
            throw RouteError.pathParameterMalformed(
                name, text, PathPattern.ParameterType.intRejection(of: text[...]) ?? "which is not an Int", .int,
                in: self)
        }
        return value
    }

    /// A parameter as a floating-point number.
    /// - Parameter name: The parameter's name.
    /// - Returns: Its value.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/invalidPath`` when it is absent or not a number.
    public func double(_ name: String) throws -> Double {
        let text = try string(name)
        guard let value = Double(text) else {
            throw RouteError.pathParameterMalformed(name, text, "which is not a Double", .double, in: self)
        }
        return value
    }

    /// A parameter as a Boolean (`true` or `false`).
    /// - Parameter name: The parameter's name.
    /// - Returns: Its value.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/invalidPath`` when it is absent or not a Boolean.
    public func bool(_ name: String) throws -> Bool {
        let text = try string(name)
        guard text == "true" || text == "false" else {
            throw RouteError.pathParameterMalformed(name, text, "which is not a Bool", .bool, in: self)
        }
        return text == "true"
    }

    /// The parameters as they read in logs.
    public var description: String {
        let all = values.merging(query) { named, _ in named }
        return "\(path) matched \(pattern): "
            + all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            .joined(separator: ", ")
    }
}
