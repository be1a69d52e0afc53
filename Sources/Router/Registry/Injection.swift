/// One property or method injection, run after the destination is made.
///
/// Injections of an object run in the order they were registered, after every factory of the lookup has
/// returned; an injection whose key closes a cycle back to an object still being prepared runs after the
/// others, and the `didFinishPrepare` hook runs after all of them.
///
/// ```swift
/// try registry.register(.car, injections: [
///     .property(\.radio, .radio),
///     .run { car, r in car.tune(to: try r.resolve(.station)) },
/// ]) { _ in CarImpl() }
/// ```
public struct Injection<Destination>: Sendable {
    @usableFromInline let dependency: RouteDependency?
    @usableFromInline let apply: @Sendable (Destination, inout Resolver) throws -> Void

    @inlinable
    init(dependency: RouteDependency?, apply: @escaping @Sendable (Destination, inout Resolver) throws -> Void) {
        self.dependency = dependency
        self.apply = apply
    }

    /// Sets a property of the destination to the destination of `key`.
    /// - Parameters:
    ///   - property: A writable key path of a class-bound destination.
    ///   - key: The key whose destination is assigned.
    /// - Returns: The injection, with its dependency declared for validation.
    @inlinable @inline(__always)
    public static func property<Value>(
        _ property: any ReferenceWritableKeyPath<Destination, Value> & Sendable, _ key: RoutableService<Value>
    ) -> Self {
        // Always inlined: where the registration writes the key path literally, the optimizer turns this
        // key-path write into a direct property write (about 300 instructions less per injection).
        Self(dependency: .property(key)) { destination, resolver in
            destination[keyPath: property] = try resolver.resolve(key)
        }
    }

    /// Sets an optional property of the destination to the destination of `key`.
    /// - Parameters:
    ///   - property: A writable key path of a class-bound destination.
    ///   - key: The key whose destination is assigned.
    /// - Returns: The injection, with its dependency declared for validation.
    @inlinable @inline(__always)
    public static func property<Value>(
        _ property: any ReferenceWritableKeyPath<Destination, Value?> & Sendable, _ key: RoutableService<Value>
    ) -> Self {
        Self(dependency: .property(key)) { destination, resolver in
            destination[keyPath: property] = try resolver.resolve(key)
        }
    }

    /// Runs arbitrary code on the destination: method injection, or several properties at once.
    /// - Parameters:
    ///   - dependencies: Keys the closure resolves, declared for validation (optional).
    ///   - apply: The injection; it gets the destination and a resolver.
    /// - Returns: The injection.
    @inlinable
    public static func run(
        declaring dependencies: RouteDependency? = nil,
        _ apply: @escaping @Sendable (Destination, inout Resolver) throws -> Void
    ) -> Self {
        Self(dependency: dependencies, apply: apply)
    }
}
