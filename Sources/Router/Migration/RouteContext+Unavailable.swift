// A property a route context had, named so that the compiler says what replaced it.
extension RouteContext {
    /// Replaced by ``target``: the key or path as text, a path in quotes.
    @available(
        *, unavailable,
        message: "RouteContext.key was text; use leads(to:) for a key, path for a path, or target (.key or .path)"
    )
    public var key: String { target.description }
}
