/// A key chosen at run time from a fixed set you declare, still type-checked: every member's destination
/// converts to the common `Destination` (ZIKRouter's `SwitchableService`).
///
/// ```swift
/// extension SwitchableService where Destination == any PaymentGateway {
///     static func gateway(for method: PaymentMethod) -> Self {
///         switch method {
///         case .card: return Self(.cardGateway)
///         case .invoice: return Self(.invoiceGateway, as: { $0 })   // a refining protocol
///         }
///     }
/// }
/// let gateway = try registry.makeDestination(to: .gateway(for: method))
/// ```
public struct SwitchableService<Destination>: Sendable, CustomStringConvertible {
    private let resolve: @Sendable (inout Resolver) throws -> Destination
    /// The chosen key, e.g. `RoutableService<CardGateway>`.
    public let description: String

    /// A member of the set whose key serves `Destination` itself.
    /// - Parameter key: The chosen key.
    public init(_ key: RoutableService<Destination>) {
        self.resolve = { resolver in try resolver.resolve(key) }
        self.description = key.description
    }

    /// A member of the set whose key serves another protocol, converted to `Destination`.
    /// - Parameters:
    ///   - key: The chosen key.
    ///   - convert: The conversion; `{ $0 }` when the protocol refines `Destination`.
    public init<Specific>(_ key: RoutableService<Specific>, as convert: @escaping @Sendable (Specific) -> Destination) {
        self.resolve = { resolver in convert(try resolver.resolve(key)) }
        self.description = key.description
    }

    func make(_ resolver: inout Resolver) throws -> Destination {
        try resolve(&resolver)
    }
}

extension RouteRegistry {
    /// Makes the destination of the key chosen from a ``SwitchableService`` set.
    /// - Parameter key: The chosen member.
    /// - Returns: The destination, as the set's common protocol.
    /// - Throws: ``RouteError``, as for the chosen key.
    public func makeDestination<Destination>(to key: SwitchableService<Destination>) throws -> Destination {
        try lookup { resolver in try key.make(&resolver) }
    }
}

extension Resolver {
    /// Resolves the key chosen from a ``SwitchableService`` set.
    /// - Parameter key: The chosen member.
    /// - Returns: The destination, as the set's common protocol.
    /// - Throws: ``RouteError``, as for the chosen key.
    public mutating func resolve<Destination>(_ key: SwitchableService<Destination>) throws -> Destination {
        try key.make(&self)
    }
}
