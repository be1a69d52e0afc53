// A lookup spelled as outside a factory, named so that the compiler says how to write it inside one.
extension Resolver {
    /// Unavailable: inside a factory, every lookup is `resolve…`.
    /// - Parameters:
    ///   - key: The module key.
    ///   - configuring: Sets the module up.
    /// - Returns: Never returns: the call does not compile.
    /// - Throws: Always, should it ever be reached.
    @available(*, unavailable, renamed: "resolve(_:configuring:)", message: "inside a factory every lookup is resolve…")
    public mutating func makeDestination<Configuration, Destination>(
        to key: RoutableServiceModule<Configuration, Destination>,
        configuring: (Configuration) throws -> Void
    ) throws -> Destination {
        throw RouteError.unavailable(#function)
    }
}
