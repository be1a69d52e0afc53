/// One registration, as the sealed registry holds it. Immutable once made.
@usableFromInline
class AnyEntry: @unchecked Sendable {
    // @unchecked: every stored property is a `let` set in the initializer (the subclass's too), and the
    // shared cells it points to synchronise themselves.
    let id: KeyID
    let key: KeyDescription
    @usableFromInline let scope: Scope
    let order: Int
    let dependencies: [RouteDependency]
    let identifier: String?
    let isDefault: Bool
    let destinationMetatype: Any.Type
    /// The destination's type as it reads in messages; built on demand (see ``KeyDescription``).
    var destinationType: String { TypeName.of(destinationMetatype) }
    let owner: String
    /// For module entries: whether a fresh configuration adopts the key's configuration protocol.
    let configurationConforms: (@Sendable () -> Bool)?
    /// For registrations that take runtime arguments: their types, as a tuple type.
    let argumentTypes: Any.Type?
    /// For adapters: the provided key the required key is joined to.
    let adapterTarget: KeyDescription?
    /// Whether no other registration may serve this key's protocol.
    let isExclusive: Bool
    /// Whether made objects need a preparation step after the factory (injections or a finish hook).
    @usableFromInline let needsPreparation: Bool
    /// Transient with nothing to prepare: the lookup can run the factory straight away.
    @usableFromInline let isPlainTransient: Bool

    init(
        id: KeyID, key: KeyDescription, scope: Scope, order: Int, dependencies: [RouteDependency],
        identifier: String?, isDefault: Bool, destinationType: Any.Type, owner: String, needsPreparation: Bool,
        configurationConforms: (@Sendable () -> Bool)?, argumentTypes: Any.Type?, adapterTarget: KeyDescription?,
        isExclusive: Bool
    ) {
        self.id = id
        self.key = key
        self.scope = scope
        self.order = order
        self.dependencies = dependencies
        self.identifier = identifier
        self.isDefault = isDefault
        self.destinationMetatype = destinationType
        self.owner = owner
        self.needsPreparation = needsPreparation
        self.isPlainTransient = scope.kind == .transient && !needsPreparation
        self.configurationConforms = configurationConforms
        self.argumentTypes = argumentTypes
        self.adapterTarget = adapterTarget
        self.isExclusive = isExclusive
    }

    deinit {
        // A registration that goes away (with its child registry or override layer) takes its instance out
        // of the custom scope it lived in.
        scope.customScope?.forget(ObjectIdentifier(self))
    }

    /// Builds a destination whose type the caller does not know statically (identifier lookups,
    /// eager singletons at sealing).
    func buildErased(_ resolver: inout Resolver) throws -> Any {
        throw RouteError(.factoryFailed, key: key.full, reason: "Internal error: an entry without a factory.")
    }

    /// Whether the registration has an async factory.
    var isAsync: Bool { false }

    /// A copy with empty shared cells, for an override layer: what it builds stays in the layer.
    func freshCopy() -> AnyEntry { self }

    /// Whether the registration's shared instance exists now (for the current custom scope, if any).
    var hasSharedInstance: Bool { false }

    /// Makes the configuration object for module entries; nil for plain services.
    func makeConfigurationObject() -> AnyObject? { nil }

    /// For module entries: whether a configuration object can be offered to callers as `type`.
    func configurationType() -> String? { nil }
}

/// A registration whose destination is statically `Destination`.
@usableFromInline
final class Entry<Destination>: AnyEntry, @unchecked Sendable {
    // @unchecked: see AnyEntry; all stored properties are immutable or self-synchronising.
    @usableFromInline let factory: @Sendable (inout Resolver) throws -> Destination
    /// The async factory, for keys registered with `registerAsync`; `factory` then throws `asyncOnly`.
    let asyncFactory: (@Sendable (inout Resolver) async throws -> Destination)?
    @usableFromInline let injections: [Injection<Destination>]
    @usableFromInline let didFinish: (@Sendable (Destination, inout Resolver) throws -> Void)?
    let makeConfiguration: (@Sendable () -> ModuleConfiguration<Destination>)?
    let configurationMetatype: Any.Type?
    var configurationName: String? { configurationMetatype.map { TypeName.of($0) } }
    let explicitDependencies: [RouteDependency]
    @usableFromInline let singleton: SharedCell<Destination>?
    /// `singleton`, unretained (the entry keeps it alive), so reading a built singleton writes no
    /// reference count.
    @usableFromInline let singletonRef: Unmanaged<SharedCell<Destination>>?
    let weakCell: WeakCell?
    let asyncCell: AsyncSharedCell<Destination>?
    /// Per-destination hooks fired for every route to this registration's destinations.
    let hooks: RouteHooks<Destination>

    init(
        id: KeyID, key: KeyDescription, scope: Scope, order: Int, dependencies: [RouteDependency],
        identifier: String?, isDefault: Bool, owner: String,
        injections: [Injection<Destination>],
        didFinish: (@Sendable (Destination, inout Resolver) throws -> Void)?,
        makeConfiguration: (@Sendable () -> ModuleConfiguration<Destination>)? = nil,
        configurationType: Any.Type? = nil,
        configurationConforms: (@Sendable () -> Bool)? = nil,
        argumentTypes: Any.Type? = nil,
        adapterTarget: KeyDescription? = nil,
        asyncFactory: (@Sendable (inout Resolver) async throws -> Destination)? = nil,
        hooks: RouteHooks<Destination> = RouteHooks(),
        isExclusive: Bool = false,
        factory: @escaping @Sendable (inout Resolver) throws -> Destination
    ) {
        self.factory = factory
        self.explicitDependencies = dependencies
        self.asyncFactory = asyncFactory
        self.hooks = hooks
        self.injections = injections
        self.didFinish = didFinish
        self.makeConfiguration = makeConfiguration
        self.configurationMetatype = configurationType
        let kind = scope.kind
        let singleton = (kind == .singleton || kind == .eagerSingleton) ? SharedCell<Destination>() : nil
        self.singleton = singleton
        self.singletonRef = singleton.map(Unmanaged.passUnretained)
        self.weakCell = kind == .weakSingleton ? WeakCell() : nil
        self.asyncCell = asyncFactory != nil && kind == .singleton ? AsyncSharedCell() : nil
        // A closure, not a key path: a key-path literal used as a function is instantiated on every call,
        // which made registering 10,000 services cost about 45% more.
        let declared = dependencies + injections.compactMap { $0.dependency }
        super.init(
            id: id, key: key, scope: scope, order: order, dependencies: declared, identifier: identifier,
            isDefault: isDefault, destinationType: Destination.self, owner: owner,
            needsPreparation: !injections.isEmpty || didFinish != nil, configurationConforms: configurationConforms,
            argumentTypes: argumentTypes, adapterTarget: adapterTarget, isExclusive: isExclusive)
    }

    override func buildErased(_ resolver: inout Resolver) throws -> Any {
        try resolver.buildTopLevel(self, configuration: nil)
    }

    override var isAsync: Bool { asyncFactory != nil }

    /// The built singleton, if there is one; borrows the cell.
    @inlinable
    var builtSingleton: Destination? {
        guard let singletonRef else { return nil }
        return singletonRef._withUnsafeGuaranteedRef { $0.instance }
    }

    override var hasSharedInstance: Bool {
        if let singleton, singleton.instance != nil { return true }
        if let weakCell, weakCell.live(as: Destination.self) != nil { return true }
        if let scope = self.scope.customScope { return scope.hasInstance(for: ObjectIdentifier(self)) }
        return false
    }

    override func freshCopy() -> AnyEntry {
        Entry(
            id: id, key: key, scope: scope, order: order, dependencies: explicitDependencies,
            identifier: identifier, isDefault: isDefault, owner: owner, injections: injections,
            didFinish: didFinish, makeConfiguration: makeConfiguration, configurationType: configurationMetatype,
            configurationConforms: configurationConforms, argumentTypes: argumentTypes, adapterTarget: adapterTarget,
            asyncFactory: asyncFactory, hooks: hooks, isExclusive: isExclusive, factory: factory)
    }

    override func makeConfigurationObject() -> AnyObject? { makeConfiguration?() }

    override func configurationType() -> String? { configurationName }
}
