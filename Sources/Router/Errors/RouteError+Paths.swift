/// Every sentence a lookup by path says: a path that fits a pattern but not its parameters, a destination of
/// another type than asked, a parameter the path lacks or gives in the wrong form. The tests in
/// `PathPatternTests` and `ErrorMessageTests` pin the exact texts.
extension RouteError {
    /// A path whose route, `route`, made `made`, which is not the `asked` type.
    static func pathMakesOtherType(_ path: String, made: Any.Type, asked: Any.Type, route: PathRoute) -> RouteError {
        RouteError(
            .destinationTypeMismatch, key: "\"\(path)\"",
            reason:
                "The destination for the path \"\(RouteError.displayable(path))\" is \(TypeName.of(made)), which is not \(TypeName.of(asked)).",
            hint:
                "The pattern \"\(route.pattern.text)\" routes to \(route.target.full); ask for the type it makes, \(TypeName.of(route.target.destination))."
        )
    }

    /// A path that fits the literal segments of `route`'s pattern, but not its parameters: `reason` and `hint`
    /// are the pattern's own.
    static func pathDoesNotFit(_ path: String, route: PathRoute, reason: String, hint: String) -> RouteError {
        RouteError(
            .invalidPath, key: "\"\(route.pattern.text)\"",
            reason:
                "The path \"\(RouteError.displayable(path))\" fits the pattern \"\(route.pattern.text)\", but \(reason).",
            hint: hint)
    }

    /// A path whose main-actor preparation (``RouteRegistry/registerOnMainActor(path:to:preparation:)``) was
    /// made or routed outside the main actor.
    static func pathOffTheMainActor(_ parameters: PathParameters, target: KeyDescription) -> RouteError {
        RouteError(
            .mainActorRequired, key: "\"\(parameters.pattern)\"", path: [target.short],
            reason:
                "The path \"\(RouteError.displayable(parameters.path))\" leads to \(target.full), whose path preparation runs on the main actor, but it was routed outside it.",
            hint:
                "Make or perform it from main-actor code (from elsewhere: await MainActor.run { … }), or register the path with register(path:to:) and a nonisolated preparation."
        )
    }
}

// MARK: Path parameters

extension RouteError {
    /// ``PathParameters`` asked for the parameter `name`, which `parameters`' path has neither as a segment
    /// nor as a query parameter.
    static func pathParameterMissing(_ name: String, in parameters: PathParameters) -> RouteError {
        RouteError(
            .invalidPath, key: "\"\(parameters.pattern)\"",
            reason:
                "The path \"\(RouteError.displayable(parameters.path))\" for the pattern \"\(parameters.pattern)\" has no parameter \(name).",
            hint: "Add it to the path, or as a query parameter: ?\(name)=…")
    }

    /// ``PathParameters`` asked for the parameter `name` as a `type`, and `parameters`' path gives `text`,
    /// which `rejection` says is not one.
    static func pathParameterMalformed(
        _ name: String, _ text: String, _ rejection: String, _ type: PathPattern.ParameterType,
        in parameters: PathParameters
    ) -> RouteError {
        let parsed = PathPattern(parameters.pattern)
        let named = parsed.segments.contains { $0 == .parameter(name: name, type: .string) }
        // A text parameter of the pattern: typing it there lets only fitting paths match. A query
        // parameter (or one typed otherwise) is the caller's to give right.
        let hint =
            named
            ? "Type the parameter in the pattern, \"\(RouteError.displayable(parsed.typing(name, as: type)))\", so that only paths with \(type.aOrAn) there match it."
            : "Give \(name) as \(type.aOrAn), e.g. ?\(name)=\(type.sample)."
        return RouteError(
            .invalidPath, key: "\"\(parameters.pattern)\"",
            reason:
                "The parameter \(name) of the path \"\(RouteError.displayable(parameters.path))\" is \"\(RouteError.displayable(text))\", \(rejection).",
            hint: hint)
    }
}

// MARK: What is wrong with a path pattern, or with a path of one

extension PathPattern.Problem {
    /// The pattern `quoted` contains `character` (`?` or `#`), which ends a URL's path part.
    static func endsThePathPart(_ quoted: String, _ character: String) -> Self {
        Self(
            reason:
                "The path pattern \(quoted) contains \"\(character)\", which ends the path part of a URL, so no path can match it.",
            hint: "Remove it: query parameters (?name=value) reach PathParameters without being in the pattern.")
    }

    /// The parameter `name` of the pattern `quoted` opens its type, `type`, without closing it.
    static func unclosedType(_ quoted: String, name: Substring, type: Substring) -> Self {
        Self(
            reason: "The path pattern \(quoted) does not close the type of the parameter \(name): \"\(type)\".",
            hint: "Write parameters as :name or :name(Int).")
    }

    /// The parameter `name` of the pattern `quoted` has a type no parameter can have.
    static func unknownType(_ quoted: String, name: Substring, type: Substring) -> Self {
        Self(
            reason: "The path pattern \(quoted) gives the parameter \(name) the unknown type \(type).",
            hint: "Use String, Int, Double or Bool.")
    }

    /// A parameter of the pattern `quoted` has no name.
    static func unnamedParameter(_ quoted: String) -> Self {
        Self(
            reason: "The path pattern \(quoted) has a parameter without a name.",
            hint: "Write parameters as :name or :name(Int).")
    }

    /// A parameter of the pattern `quoted` is named `name`, which is not a name.
    static func notAName(_ quoted: String, name: Substring) -> Self {
        Self(
            reason:
                "The path pattern \(quoted) names a parameter \"\(RouteError.displayable(String(name)))\", which is not a name: a name has letters, digits and _ only.",
            hint: "Write parameters as :name or :name(Int), with one colon.")
    }

    /// The pattern `quoted` names two parameters `name`.
    static func repeatedName(_ quoted: String, name: Substring) -> Self {
        Self(
            reason: "The path pattern \(quoted) names two parameters \(name).",
            hint: "Give each parameter its own name.")
    }
}

extension PathPattern.Match {
    /// A path that stops where the parameter `name` starts.
    static func missing(_ name: String, hint: String) -> Self {
        .invalid(reason: "the parameter \(name) is missing", hint: hint)
    }

    /// A path whose part `value` is no value of the parameter `name` (`rejection` says why).
    static func rejected(_ name: String, value: Substring, _ rejection: String, hint: String) -> Self {
        .invalid(
            reason: "the parameter \(name) is \"\(RouteError.displayable(String(value)))\", \(rejection)",
            hint: hint)
    }
}

extension PathPattern.ParameterType {
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

    /// The type's name with its article, for messages: `an Int`.
    var aOrAn: String {
        switch self {
        case .string: return "a String"
        case .int: return "an Int"
        case .double: return "a Double"
        case .bool: return "a Bool"
        }
    }
}

extension PathPattern {
    /// The advice for a path whose parameter `name` is missing or malformed: its type and a path that fits.
    func example(for name: String) -> String {
        let type = segments.lazy.compactMap { segment -> ParameterType? in
            guard case .parameter(name, let type) = segment else { return nil }
            return type
        }.first
        let asType = type.map { $0 == .string ? "as text" : "as \($0.aOrAn)" } ?? ""
        return "Give the parameter \(name) \(asType), as in \"\(RouteError.displayable(examplePath))\"."
    }
}
