/// The key for a module that is set up through a configuration protocol before it is made.
///
/// The configuration protocol carries `construct…` methods (the destination's required initializer
/// parameters) and inherits ``ModuleConfiguration`` for the typed success and error handlers. The key
/// names the configuration protocol and the destination protocol the module produces; Swift cannot
/// recover the second from an existential configuration, so both are spelled out once, in the declaration:
///
/// ```swift
/// protocol CartModuleConfig: ModuleConfiguration<any Cart> {
///     func constructCart(owner: String)
/// }
///
/// extension RoutableServiceModule<any CartModuleConfig, any Cart> {
///     nonisolated static var cart: Self { .init(declaring: Configuration.self, making: Destination.self) }
/// }
///
/// let cart = try registry.makeDestination(to: .cart) { $0.constructCart(owner: "ann") }
/// ```
public struct RoutableServiceModule<Configuration, Destination>: Sendable, Hashable, CustomStringConvertible {
    @usableFromInline let id: KeyID

    /// Declares a module routable and makes its key. Call it only inside the declaring extension.
    ///
    /// - Parameters:
    ///   - configuration: The configuration protocol callers set the module up through.
    ///   - destination: The protocol of what the module makes.
    @inlinable
    public init(declaring configuration: Configuration.Type, making destination: Destination.Type) {
        // The static type, never the value (see `RoutableService.init(declaring:)`).
        self.id = KeyID(type: ObjectIdentifier(Configuration.self), kind: .module)
    }

    /// Unavailable: a module key is made once, where the module is declared routable, and looked up by
    /// its static member everywhere else.
    @available(
        *, unavailable,
        message:
            "declare the module routable in 'extension RoutableServiceModule<any Config, any P> { nonisolated static var p: Self { .init(declaring: Configuration.self, making: Destination.self) } }', then use the key '.p'"
    )
    public init() {
        self.id = KeyID(type: ObjectIdentifier(Configuration.self), kind: .module)
    }

    /// The key as it reads in messages, for example `RoutableServiceModule<CartModuleConfig, Cart>`.
    public var description: String { keyDescription.full }

    var keyDescription: KeyDescription {
        KeyDescription(kind: .module, type: Configuration.self, qualifier: .none, tag: nil, made: Destination.self)
    }

    /// Keys are equal when they reach the same registrations.
    /// - Parameters:
    ///   - lhs: A key.
    ///   - rhs: Another key.
    /// - Returns: Whether both keys name the same configuration protocol.
    @inlinable
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.id == rhs.id }

    /// Hashes the key's identity.
    /// - Parameter hasher: The hasher to feed.
    @inlinable
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}
