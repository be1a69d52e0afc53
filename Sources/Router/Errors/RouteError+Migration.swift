/// The sentence the migration shims say (`Sources/Router/Migration`): the unavailable overloads of the
/// options that are ``Registration`` modifiers now.
extension RouteError {
    /// What an unavailable overload throws, should it ever be reached (it cannot be called from source):
    /// a typed error rather than a trap.
    static func unavailable(_ function: String) -> RouteError {
        RouteError(
            .factoryFailed, key: function,
            reason: "\(function) is unavailable: its options are Registration modifiers now.",
            hint: "Register with register(_:factory:) and chain the modifiers.")
    }
}
