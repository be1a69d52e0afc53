/// A path pattern such as `"books/:id(Int)"`: literal segments and named parameters, optionally typed.
///
/// Parameter types: `String` (the default, `:name`), `Int`, `Double` and `Bool` (`:name(Int)`).
struct PathPattern: Sendable, Hashable {
    enum ParameterType: String, Sendable, Hashable {
        case string = "String"
        case int = "Int"
        case double = "Double"
        case bool = "Bool"

        func accepts(_ text: Substring) -> Bool {
            switch self {
            case .string: return !text.isEmpty
            case .int: return Int(text) != nil
            case .double: return Double(text) != nil
            case .bool: return text == "true" || text == "false"
            }
        }
    }

    enum Segment: Sendable, Hashable {
        case literal(String)
        case parameter(name: String, type: ParameterType)
    }

    enum Match {
        case matched(values: [String: String], literals: Int)
        /// The literal segments fit, but a parameter is missing or malformed.
        case invalid(reason: String)
        case noMatch
    }

    let text: String
    let segments: [Segment]

    init(_ text: String) throws {
        self.text = text
        var segments: [Segment] = []
        for part in text.split(separator: "/") {
            guard part.hasPrefix(":") else {
                segments.append(.literal(String(part)))
                continue
            }
            var name = part.dropFirst()
            var type = ParameterType.string
            if let open = name.firstIndex(of: "("), name.hasSuffix(")") {
                let typeName = name[name.index(after: open)..<name.index(before: name.endIndex)]
                guard let parsed = ParameterType(rawValue: String(typeName)) else {
                    throw RouteError(
                        .invalidPath, key: "\"\(text)\"",
                        reason:
                            "The path pattern \"\(text)\" gives the parameter \(name[..<open]) the unknown type \(typeName).",
                        hint: "Use String, Int, Double or Bool.")
                }
                type = parsed
                name = name[..<open]
            }
            guard !name.isEmpty else {
                throw RouteError(
                    .invalidPath, key: "\"\(text)\"",
                    reason: "The path pattern \"\(text)\" has a parameter without a name.",
                    hint: "Write parameters as :name or :name(Int).")
            }
            segments.append(.parameter(name: String(name), type: type))
        }
        self.segments = segments
    }

    func match(_ parts: [Substring]) -> Match {
        var values: [String: String] = [:]
        var literals = 0
        for (index, segment) in segments.enumerated() {
            switch segment {
            case .literal(let literal):
                guard index < parts.count, parts[index] == literal else { return .noMatch }
                literals += 1
            case .parameter(let name, let type):
                guard index < parts.count else {
                    return .invalid(reason: "the parameter \(name) is missing")
                }
                guard type.accepts(parts[index]) else {
                    return .invalid(reason: "the parameter \(name) is \"\(RouteError.displayable(String(parts[index])))\", which is not \(type.aOrAn)")
                }
                values[name] = String(parts[index])
            }
        }
        return parts.count == segments.count ? .matched(values: values, literals: literals) : .noMatch
    }
}

extension PathPattern.ParameterType {
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
        guard let value = Int(text) else { throw malformed(name, text, "an Int") }
        return value
    }

    /// A parameter as a floating-point number.
    /// - Parameter name: The parameter's name.
    /// - Returns: Its value.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/invalidPath`` when it is absent or not a number.
    public func double(_ name: String) throws -> Double {
        let text = try string(name)
        guard let value = Double(text) else { throw malformed(name, text, "a Double") }
        return value
    }

    /// A parameter as a Boolean (`true` or `false`).
    /// - Parameter name: The parameter's name.
    /// - Returns: Its value.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/invalidPath`` when it is absent or not a Boolean.
    public func bool(_ name: String) throws -> Bool {
        let text = try string(name)
        guard text == "true" || text == "false" else { throw malformed(name, text, "a Bool") }
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
            reason: "The path \"\(RouteError.displayable(path))\" for the pattern \"\(pattern)\" has no parameter \(name).",
            hint: "Add it to the path, or as a query parameter: ?\(name)=…")
    }

    private func malformed(_ name: String, _ text: String, _ type: String) -> RouteError {
        RouteError(
            .invalidPath, key: "\"\(pattern)\"",
            reason:
                "The parameter \(name) of the path \"\(RouteError.displayable(path))\" is \"\(RouteError.displayable(text))\", which is not \(type).")
    }
}
