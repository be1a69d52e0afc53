/// A dependency a registration declares, so that sealing can check it before anything is built:
/// that it is registered, that initializer edges form no cycle, and that a singleton does not capture
/// a shorter-lived instance. Declared dependencies also label the edges of the exported graph.
///
/// ```swift
/// try registry.register(.car) { r in
///     CarImpl(engine: try r.resolve(.engine), wheels: try r.resolveAll(.wheel))
/// }.dependencies(.initializer(.engine), .many(.wheel))
/// ```
///
/// A closure factory's edges are not known unless declared this way; injections
/// (``Registration/injecting(_:_:)-(ReferenceWritableKeyPath<Root,Value>Sendable,_)``) and auto-wired
/// registrations (`register(_:initializer:)`) declare theirs themselves.
public struct RouteDependency: Sendable, Hashable, CustomStringConvertible {
    /// How the dependency reaches the destination.
    public enum Kind: String, Sendable, Hashable {
        /// Passed to the initializer: the dependency must exist first.
        case initializer
        /// Set after creation (property or method injection): it may close a cycle.
        case property
        /// Built on first use through ``Lazy`` or ``Provider``: never part of a build cycle.
        case lazy
        /// Every registration of the key, through `resolveAll`.
        case many
    }

    let id: KeyID
    let key: KeyDescription
    /// How the dependency reaches the destination.
    public let kind: Kind
    /// Whether the destination does without it when nothing is registered for the key (the factory
    /// resolves it with `resolveIfRegistered`): sealing accepts it missing, and checks it like any other
    /// edge when it is there.
    public private(set) var isOptional = false
    /// Whether the library itself looks the key up, without arguments (an auto-wired initializer
    /// parameter, a key-path injection), so that sealing can report a key that takes some. A dependency
    /// declared by hand may be resolved with arguments by its factory.
    private(set) var isLookedUpWithoutArguments = false

    init(id: KeyID, key: KeyDescription, kind: Kind) {
        self.id = id
        self.key = key
        self.kind = kind
    }

    /// This dependency, as one the library looks up without arguments.
    @usableFromInline
    var lookedUpWithoutArguments: Self {
        var copy = self
        copy.isLookedUpWithoutArguments = true
        return copy
    }

    /// This dependency, as one the destination does without when nothing is registered for its key.
    ///
    /// ```swift
    /// try registry.register(.car) { r in
    ///     CarImpl(engine: try r.resolve(.engine), radio: try r.resolveIfRegistered(.radio))
    /// }.dependencies(.initializer(.engine), .initializer(.radio).optional)
    /// ```
    public var optional: Self {
        var copy = self
        copy.isOptional = true
        return copy
    }

    /// A dependency passed to the initializer.
    /// - Parameter key: The key the factory resolves.
    /// - Returns: The declared dependency.
    public static func initializer<D>(_ key: RoutableService<D>) -> Self {
        Self(id: key.id, key: key.keyDescription, kind: .initializer)
    }

    /// A dependency set after creation, by property or method injection.
    /// - Parameter key: The key the preparation resolves.
    /// - Returns: The declared dependency.
    public static func property<D>(_ key: RoutableService<D>) -> Self {
        Self(id: key.id, key: key.keyDescription, kind: .property)
    }

    /// A dependency resolved later through ``Lazy`` or ``Provider``.
    /// - Parameter key: The key resolved on first use.
    /// - Returns: The declared dependency.
    public static func lazy<D>(_ key: RoutableService<D>) -> Self {
        Self(id: key.id, key: key.keyDescription, kind: .lazy)
    }

    /// A dependency on every registration of a key.
    /// - Parameter key: The key resolved with `resolveAll`.
    /// - Returns: The declared dependency.
    public static func many<D>(_ key: RoutableService<D>) -> Self {
        Self(id: key.id, key: key.keyDescription, kind: .many)
    }

    /// A module dependency passed to the initializer.
    /// - Parameter key: The module key the factory makes.
    /// - Returns: The declared dependency.
    public static func initializer<C, D>(_ key: RoutableServiceModule<C, D>) -> Self {
        Self(id: key.id, key: key.keyDescription, kind: .initializer)
    }

    /// The dependency as it reads in messages, e.g. `initializer RoutableService<any Engine>`.
    public var description: String { "\(isOptional ? "optional " : "")\(kind.rawValue) \(key.full)" }

    /// Dependencies are equal when they name the same key the same way.
    /// - Parameters:
    ///   - lhs: A dependency.
    ///   - rhs: Another dependency.
    /// - Returns: Whether key and kind match.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.id == rhs.id && lhs.kind == rhs.kind && lhs.key.name == rhs.key.name
    }

    /// Hashes the key and kind.
    /// - Parameter hasher: The hasher to feed.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(kind)
    }
}
