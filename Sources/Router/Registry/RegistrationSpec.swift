/// Everything a registration says beyond its key: what the registering call gave and what its
/// ``Registration`` modifiers added. The registry makes an ``Entry`` from it, and makes it anew for each
/// modifier, so that a sealed entry never changes.
@usableFromInline
struct RegistrationSpec<Destination>: @unchecked Sendable {
    // @unchecked: a value made and read under the registry's assembly lock; its closures are `@Sendable`.
    var factory: @Sendable (inout Resolver) throws -> Destination
    var scope: Scope = .transient
    var identifier: String?
    var isDefault = false
    /// The dependencies declared explicitly, without those the injections declare.
    var dependencies: [RouteDependency] = []
    /// Property and method injections and preparation closures, in the order they were added.
    var injections: [Injection<Destination>] = []
    var didFinish: (@Sendable (Destination, inout Resolver) throws -> Void)?
    var hooks = RouteHooks<Destination>()
    var isExclusive = false
    var isOneOfMany = false
    var makeConfiguration: (@Sendable () -> ModuleConfiguration<Destination>)?
    var configurationType: Any.Type?
    var configurationConforms: (@Sendable () -> Bool)?
    @usableFromInline var argumentTypes: Any.Type?
    /// `argumentTypes` one by one (see ``ArgumentList``).
    @usableFromInline var argumentList: ArgumentList?
    var adapterTarget: KeyDescription?
    var asyncFactory: (nonisolated(nonsending) @Sendable (inout Resolver) async throws -> Destination)?
    @usableFromInline var isMainActor = false
    var alsoKeys: [AlsoKey<Destination>] = []
    /// Whether the library made the factory and it looks up exactly the declared keys (auto-wiring, the
    /// registration serving another key), so that its first run is not checked for undeclared edges.
    var factoryDeclaresItsEdges = false
    /// ``Registration/resettable()``: a singleton that ``RouteRegistry/resetSingletons()`` releases.
    var isResettable = false
    /// The teardown a lookup runs on an instance whose build finished after its generation was released
    /// (`Registration.teardown(_:)`); nil without a teardown.
    var lateTeardown: LateTeardown<Destination>?

    @usableFromInline
    init(factory: @escaping @Sendable (inout Resolver) throws -> Destination) {
        self.factory = factory
    }
}

/// Where a registration was made, for messages: the module that loaded it, and the file and line of the
/// registering call.
@usableFromInline
struct RegistrationSite: Sendable, CustomStringConvertible {
    /// The module's type name, when a ``RouteModule`` made the registration.
    let module: String?
    let file: StaticString
    let line: UInt

    @usableFromInline
    init(module: String?, file: StaticString, line: UInt) {
        self.module = module
        self.file = file
        self.line = line
    }

    /// `CarModule (Cars.swift:12)`, or `Cars.swift:12` outside a module.
    @usableFromInline
    var description: String {
        let place = "\(file):\(line)"
        guard let module else { return place }
        return "\(module) (\(place))"
    }
}

/// Another key a registration serves (``Registration/also(_:)``): makes, at sealing, the registration
/// filed under that key, which builds through the original one.
struct AlsoKey<Destination>: Sendable {
    let id: KeyID
    let key: KeyDescription
    let make: @Sendable (_ primary: Entry<Destination>) -> AnyEntry
}

extension Entry {
    /// The registration filed under `key` for ``Registration/also(_:)``: a transient that builds this
    /// registration, so that each key reaches the same factory and the same shared instance.
    func serving<Other>(_ key: RoutableService<Other>) -> AnyEntry {
        let primaryKey = self.key
        let otherKey = key.keyDescription
        var spec = RegistrationSpec<Other> { [self] resolver in
            let made = try resolver.build(resolver.redirected(self))
            if let other = made as? Other { return other }
            throw RouteError.alsoServedKeyMismatch(
                primaryKey, serving: otherKey, made: type(of: made as Any), otherType: Other.self,
                path: resolver.pathHere(otherKey.short))
        }
        spec.dependencies = [RouteDependency(id: id, key: primaryKey, kind: .initializer)]
        spec.factoryDeclaresItsEdges = true
        // Marked as the registration it serves is: `.oneOfMany()` says so for every key it serves.
        spec.isOneOfMany = isOneOfMany
        return Entry<Other>(id: key.id, key: otherKey, order: order, site: site, spec: spec)
    }
}
