import Synchronization

/// A dependency built on first read, once, then kept.
///
/// Inject a `Lazy` where a dependency is expensive or only sometimes needed, or to break a cycle made of
/// initializer edges: a lazy edge is never part of a build cycle.
///
/// ```swift
/// try registry.register(.report, dependencies: [.lazy(.database)]) { r in
///     ReportImpl(database: try r.lazy(.database))
/// }
/// // later, inside ReportImpl:
/// let rows = try database.value.query("…")
/// ```
///
/// The first read is a lookup of its own: the registry it came from builds the destination with its
/// scope, and graph-scoped objects are not shared with the lookup that made the `Lazy`.
public final class Lazy<Destination> {
    private let make: () throws -> Destination
    private let state = Locked<Void>(())
    private nonisolated(unsafe) var cached: Destination?

    init(make: @escaping () throws -> Destination) {
        self.make = make
    }

    /// The destination, built on the first read. A failed build is not cached: the next read tries again.
    /// - Throws: ``RouteError`` when the build fails.
    public var value: Destination {
        get throws {
            var result: Destination?
            try state.withLock { _ in
                if cached == nil { cached = try make() }
                result = cached
            }
            guard let result else { throw RouteError(.factoryFailed, key: "Lazy", reason: "Internal error.") }
            return result
        }
    }

    /// Whether the destination was built already.
    public var isBuilt: Bool {
        var built = false
        state.withLock { _ in built = cached != nil }
        return built
    }
}

// @unchecked: `cached` is read and written only inside `state`'s lock, and `make` only reads immutable,
// Sendable registry state; a Sendable destination may then be handed to any thread.
extension Lazy: @unchecked Sendable where Destination: Sendable {}

/// Builds a new destination on each call, with the arguments the key's factory takes.
///
/// ```swift
/// try registry.register(.orderScreen, dependencies: [.lazy(.receipt)]) { r in
///     OrderScreen(makeReceipt: try r.provider(.receipt, arguments: Int.self))
/// }
/// // later:
/// let receipt = try makeReceipt(42)
/// ```
public struct Provider<Destination, each Argument>: Sendable {
    private let make: @Sendable (repeat each Argument) throws -> Destination

    init(make: @escaping @Sendable (repeat each Argument) throws -> Destination) {
        self.make = make
    }

    /// Builds a destination, as a lookup of its own.
    /// - Parameter argument: The arguments for the key's factory, if it takes any.
    /// - Returns: The destination, made or shared according to its scope.
    /// - Throws: ``RouteError`` when the build fails.
    public func callAsFunction(_ argument: repeat each Argument) throws -> Destination {
        try make(repeat each argument)
    }
}

extension Resolver {
    /// A ``Lazy`` for `key`: the key is checked now, the destination built on first read.
    /// - Parameter key: The key.
    /// - Returns: The lazy dependency.
    /// - Throws: ``RouteError`` when no router is registered for `key`.
    public mutating func lazy<Destination>(_ key: RoutableService<Destination>) throws -> Lazy<Destination> {
        let entry = try entry(for: key)
        let table = self.table
        return Lazy {
            var resolver = Resolver(table: table)
            return try resolver.buildTopLevel(entry, configuration: nil)
        }
    }

    /// A ``Provider`` for `key` that takes no arguments.
    /// - Parameter key: The key.
    /// - Returns: A provider that builds a destination on each call.
    /// - Throws: ``RouteError`` when no router is registered for `key`.
    public mutating func provider<Destination>(_ key: RoutableService<Destination>) throws -> Provider<Destination> {
        let entry = try entry(for: key)
        return Provider(make: Self.maker(entry, table: table))
    }

    /// A ``Provider`` for a key registered with arguments.
    /// - Parameters:
    ///   - key: The key.
    ///   - first: The type of the provider's first argument, which must match the registration.
    ///   - rest: The types of its other arguments.
    /// - Returns: A provider that builds a destination on each call.
    /// - Throws: ``RouteError`` when no router is registered for `key`, or it takes no arguments.
    public mutating func provider<Destination, First, each Argument>(
        _ key: RoutableService<Destination>, arguments first: First.Type, _ rest: repeat (each Argument).Type
    ) throws -> Provider<Destination, First, repeat each Argument> {
        let entry = try entry(for: key)
        try checkTakesArguments(entry, given: ArgumentList(types: first, repeat (each Argument).self))
        let table = self.table
        return Provider { (head: First, tail: repeat each Argument) in
            var resolver = Resolver(table: table)
            return try resolver.buildTopLevel(
                entry, configuration: nil, arguments: ArgumentList(head, repeat each tail))
        }
    }

    static func maker<Destination>(
        _ entry: Entry<Destination>, table: SealedTable
    ) -> @Sendable () throws -> Destination {
        {
            var resolver = Resolver(table: table)
            return try resolver.buildTopLevel(entry, configuration: nil)
        }
    }
}

extension RouteRegistry {
    /// A ``Lazy`` for `key`, for code outside factories.
    /// - Parameter key: The key.
    /// - Returns: The lazy dependency.
    /// - Throws: ``RouteError`` when the registry is not sealed or no router is registered for `key`.
    public func lazy<Destination>(_ key: RoutableService<Destination>) throws -> Lazy<Destination> {
        var resolver = Resolver(table: try table())
        return try resolver.lazy(key)
    }

    /// A ``Provider`` for `key`, for code outside factories.
    /// - Parameter key: The key.
    /// - Returns: A provider that builds a destination on each call.
    /// - Throws: ``RouteError`` when the registry is not sealed or no router is registered for `key`.
    public func provider<Destination>(_ key: RoutableService<Destination>) throws -> Provider<Destination> {
        var resolver = Resolver(table: try table())
        return try resolver.provider(key)
    }

    /// A ``Provider`` for a key registered with arguments, for code outside factories.
    /// - Parameters:
    ///   - key: The key.
    ///   - first: The type of the provider's first argument, which must match the registration.
    ///   - rest: The types of its other arguments.
    /// - Returns: A provider that builds a destination on each call.
    /// - Throws: ``RouteError`` when the registry is not sealed, no router is registered for `key`, or it
    ///   takes no arguments.
    public func provider<Destination, First, each Argument>(
        _ key: RoutableService<Destination>, arguments first: First.Type, _ rest: repeat (each Argument).Type
    ) throws -> Provider<Destination, First, repeat each Argument> {
        var resolver = Resolver(table: try table())
        return try resolver.provider(key, arguments: first, repeat (each Argument).self)
    }
}
