import Synchronization

/// A registration whose destination is statically `Destination`.
// Its `Borrowed` field names its owner beside its declaration (see `Borrowed`'s invariant).
@usableFromInline
final class Entry<Destination>: AnyEntry, @unchecked Sendable {
    // @unchecked: see AnyEntry; all stored properties are immutable or self-synchronising.
    @usableFromInline let factory: @Sendable (inout Resolver) throws -> Destination
    @usableFromInline let injections: [Injection<Destination>]
    @usableFromInline let didFinish: (@Sendable (Destination, inout Resolver) throws -> Void)?
    @usableFromInline let singleton: SharedCell<Destination>?
    /// `singleton`, unretained (the entry keeps it alive), so reading a built singleton writes no
    /// reference count.
    @usableFromInline let singletonRef: Borrowed<SharedCell<Destination>>?
    @usableFromInline
    let weakCell: WeakCell?
    /// What few registrations have, kept out of line: nil when the registration has none of it (see
    /// `AnyEntry.options`).
    private let extras: Extras?
    /// The async factory, for keys registered with `registerAsync`; `factory` then throws `asyncOnly`.
    @usableFromInline var asyncFactory:
        (nonisolated(nonsending) @Sendable (inout Resolver) async throws -> Destination)?
    {
        extras?.asyncFactory
    }
    var makeConfiguration: (@Sendable () -> ModuleConfiguration<Destination>)? { extras?.makeConfiguration }
    /// The generations of a resettable singleton (``Registration/resettable()``); nil for every other
    /// registration, whose `singleton` cell never changes.
    @usableFromInline
    var resets: SingletonGenerations<Destination>? { extras?.resets }
    /// The teardown of an instance whose build finished after its generation was released; nil without a
    /// declared teardown.
    @usableFromInline
    var lateTeardown: LateTeardown<Destination>? { extras?.lateTeardown }
    /// The cell a singleton's lookup builds in and reads: the one cell of a plain singleton, the current
    /// generation's of a resettable one.
    @usableFromInline
    var singletonCell: SharedCell<Destination>? { singleton ?? extras?.resets?.current }
    var configurationMetatype: Any.Type? { extras?.configurationMetatype }
    var configurationName: String? { configurationMetatype.map { TypeName.of($0) } }
    /// The dependencies declared explicitly, without those the injections declare.
    var explicitDependencies: [RouteDependency] { extras?.explicitDependencies ?? dependencies }
    /// Per-destination hooks fired for every route to this registration's destinations.
    var hooks: RouteHooks<Destination> {
        if let extras { return extras.hooks }
        return RouteHooks()
    }

    /// The less common parts of a registration (see `extras`).
    private final class Extras: @unchecked Sendable {
        // @unchecked: every stored property is a `let`; the closures are `@Sendable` and the cell
        // synchronises itself.
        let asyncFactory: (nonisolated(nonsending) @Sendable (inout Resolver) async throws -> Destination)?
        let makeConfiguration: (@Sendable () -> ModuleConfiguration<Destination>)?
        let configurationMetatype: Any.Type?
        /// Set only when the injections declare dependencies of their own.
        let explicitDependencies: [RouteDependency]?
        let hooks: RouteHooks<Destination>
        let alsoKeys: [AlsoKey<Destination>]
        /// The factory as registered, when `factory` checks its first run (see `checkingFirstRun`).
        let uncheckedFactory: (@Sendable (inout Resolver) throws -> Destination)?
        let factoryDeclaresItsEdges: Bool
        /// See `Entry.resets`.
        let resets: SingletonGenerations<Destination>?
        /// See `Entry.lateTeardown`.
        let lateTeardown: LateTeardown<Destination>?

        init(
            spec: RegistrationSpec<Destination>, explicitDependencies: [RouteDependency]?,
            uncheckedFactory: (@Sendable (inout Resolver) throws -> Destination)?
        ) {
            self.asyncFactory = spec.asyncFactory
            self.makeConfiguration = spec.makeConfiguration
            self.configurationMetatype = spec.configurationType
            self.explicitDependencies = explicitDependencies
            self.hooks = spec.hooks
            self.alsoKeys = spec.alsoKeys
            self.uncheckedFactory = uncheckedFactory
            self.factoryDeclaresItsEdges = spec.factoryDeclaresItsEdges
            self.lateTeardown = spec.lateTeardown

            // Tested first: a call on `SingletonGenerations<Destination>` looks its metadata up at run time.
            self.resets = spec.isResettable ? SingletonGenerations.make(for: spec) : nil
        }
    }

    /// Makes a registration from everything its modifiers said (see ``RegistrationSpec``).
    ///
    /// This initializer runs unspecialized, so it avoids generic library calls (`Optional.map`, `Array.+`,
    /// `compactMap`, even `Array.count`) on `Destination`-dependent types: each such call looks up type
    /// metadata at run time, which cost more than the rest of a registration together.
    init(id: KeyID, key: KeyDescription, order: Int, site: RegistrationSite, spec: RegistrationSpec<Destination>) {
        let hasInjections = !spec.injections.isEmpty
        let declared = hasInjections ? Self.declared(spec.dependencies, spec.injections) : spec.dependencies
        // A factory written by the user in a registration that declared edges runs its first run traced,
        // so that an edge it takes without declaring it reaches the error handler (see `TakenEdges.swift`).
        let checksFirstRun = !declared.isEmpty && !spec.factoryDeclaresItsEdges
        self.factory = checksFirstRun ? Self.checkingFirstRun(spec.factory) : spec.factory
        self.injections = spec.injections
        self.didFinish = spec.didFinish
        // A resettable singleton has no fixed cell: its lookups read the current generation's (`resets`),
        // never the lock-free built-singleton path, which could not see a reset.
        // (Tested here rather than by `SingletonGenerations.isResettable`, whose metadata a call would look up.)
        let kind = spec.scope.kind
        let resettable = spec.isResettable && (kind == .singleton || kind == .eagerSingleton)
        let cells = Self.cells(for: resettable ? .custom : kind)
        self.singleton = cells.singleton
        self.singletonRef = cells.singletonRef
        self.weakCell = cells.weak
        let explicit = declared.count == spec.dependencies.count ? nil : spec.dependencies
        if spec.asyncFactory != nil || spec.makeConfiguration != nil || spec.configurationType != nil
            || explicit != nil || Self.hasHooks(spec.hooks) || !spec.alsoKeys.isEmpty || checksFirstRun
            || spec.factoryDeclaresItsEdges || spec.isResettable || spec.lateTeardown != nil
        {
            self.extras = Extras(
                spec: spec, explicitDependencies: explicit, uncheckedFactory: checksFirstRun ? spec.factory : nil)
        } else {
            self.extras = nil
        }
        super.init(
            id: id, key: key, scope: spec.scope, order: order, dependencies: declared,
            identifier: spec.identifier, isDefault: spec.isDefault, destinationType: Destination.self, site: site,
            needsPreparation: hasInjections || spec.didFinish != nil,
            configurationConforms: spec.configurationConforms, argumentTypes: spec.argumentTypes,
            adapterTarget: spec.adapterTarget, isExclusive: spec.isExclusive, isMainActor: spec.isMainActor,
            isOneOfMany: spec.isOneOfMany, argumentList: spec.argumentList)
    }

    /// Makes a service registration with nothing but a factory: what ``RouteRegistry/register(_:file:line:factory:)``
    /// files before any modifier runs. Most registrations stay so, and passing and storing an empty
    /// ``RegistrationSpec`` costs about as much as the rest of the registration.
    ///
    /// The registering code is inlined into the caller, so the caller allocates the entry with type
    /// metadata it caches, instead of this module looking `Entry<Destination>` up for each registration.
    /// `noInjections` is the caller's empty injection list: an empty array made here would need its element
    /// type's metadata looked up.
    @usableFromInline
    init(
        plainService id: KeyID, tag: Any.Type?, name: String?, order: Int, site: RegistrationSite,
        noInjections: [Injection<Destination>], factory: @escaping @Sendable (inout Resolver) throws -> Destination
    ) {
        // Unspecialized, like the general initializer: see the note there.
        self.factory = factory
        self.injections = noInjections
        self.didFinish = nil
        self.singleton = nil
        self.singletonRef = nil
        self.weakCell = nil
        self.extras = nil
        // The key's parts rather than the key: a `RoutableService<Destination>` argument would need its
        // metadata looked up here.
        // The name escaped, as ``RoutableService/keyDescription`` has it.
        let key = KeyDescription(
            kind: .service, type: Destination.self, qualifier: id.qualifier, tag: tag,
            name: name.map { RouteError.displayable($0) })
        super.init(
            id: id, key: key, scope: .transient, order: order, dependencies: [], identifier: nil, isDefault: false,
            destinationType: Destination.self, site: site, needsPreparation: false, configurationConforms: nil,
            argumentTypes: nil, adapterTarget: nil, isExclusive: false, isMainActor: false)
    }

    /// What this registration was made from, for a modifier to change and the registry to make anew.
    var spec: RegistrationSpec<Destination> {
        var spec = RegistrationSpec(factory: extras?.uncheckedFactory ?? factory)
        spec.factoryDeclaresItsEdges = extras?.factoryDeclaresItsEdges ?? false
        spec.scope = scope
        spec.identifier = identifier
        spec.isDefault = isDefault
        spec.dependencies = explicitDependencies
        spec.injections = injections
        spec.didFinish = didFinish
        spec.hooks = hooks
        spec.isExclusive = isExclusive
        spec.isOneOfMany = isOneOfMany
        spec.makeConfiguration = makeConfiguration
        spec.configurationType = configurationMetatype
        spec.configurationConforms = configurationConforms
        spec.argumentTypes = argumentTypes
        spec.argumentList = argumentList
        spec.adapterTarget = adapterTarget
        spec.asyncFactory = asyncFactory
        spec.isMainActor = isMainActor
        spec.alsoKeys = extras?.alsoKeys ?? []
        spec.isResettable = extras?.resets != nil
        spec.lateTeardown = extras?.lateTeardown
        return spec
    }

    /// The registrations that serve the other keys this one was registered for (``Registration/also(_:)``),
    /// made when the registry is sealed.
    override func alsoEntries() -> [AnyEntry] {
        guard let extras, !extras.alsoKeys.isEmpty else { return [] }
        var made: [AnyEntry] = []
        // A key named twice, or the registration's own key, is served once: filing it again would make a
        // single lookup of it ambiguous between two registrations that are one.
        var served = [id]
        for also in extras.alsoKeys where !served.contains(also.id) {
            served.append(also.id)
            made.append(also.make(self))
        }
        return made
    }

    /// The shared-instance cells a registration of scope `kind` needs; nil where it needs none.
    private static func cells(
        for kind: Scope.Kind
    ) -> (
        singleton: SharedCell<Destination>?, singletonRef: Borrowed<SharedCell<Destination>>?, weak: WeakCell?
    ) {
        switch kind {
        case .singleton, .eagerSingleton:
            let singleton = SharedCell<Destination>()
            return (singleton, Borrowed(singleton), nil)
        case .weakSingleton:
            return (nil, nil, WeakCell())
        case .transient, .graph, .custom, .request, .supplied:
            // A request-scoped instance lives in the cell its `RequestScope` owns.
            return (nil, nil, nil)
        }
    }

    /// `factory`, running its first run with the lookup traced, so that each edge it takes is checked
    /// against the declared ones; every later run is `factory` itself, after one load.
    private static func checkingFirstRun(
        _ factory: @escaping @Sendable (inout Resolver) throws -> Destination
    ) -> @Sendable (inout Resolver) throws -> Destination {
        let firstRun = FirstRun()
        return { resolver in
            guard firstRun.claim() else { return try factory(&resolver) }
            return try resolver.withEdgesChecked { try factory(&$0) }
        }
    }

    /// Whether any of the hooks is set.
    private static func hasHooks(_ hooks: RouteHooks<Destination>) -> Bool {
        hooks.willPerform != nil || hooks.didPerform != nil || hooks.willRemove != nil || hooks.didRemove != nil
    }

    /// The explicit dependencies followed by those the injections declare.
    private static func declared(
        _ dependencies: [RouteDependency], _ injections: [Injection<Destination>]
    ) -> [RouteDependency] {
        var declared = dependencies
        // A loop, not a key path: a key-path literal used as a function is instantiated on every call,
        // which made registering 10,000 services cost about 45% more.
        for injection in injections {
            if let dependency = injection.dependency { declared.append(dependency) }
        }
        return declared
    }

    override func buildErased(_ resolver: inout Resolver) throws -> Any {
        try resolver.build(self)
    }

    override nonisolated(nonsending) func buildAsyncErased(_ resolver: inout Resolver) async throws -> Any {
        try await resolver.buildAsync(self)
    }

    override func buildErased(_ resolver: inout Resolver, input: AnyObject?) throws -> Any {
        try resolver.build(self, input: input)
    }

    override nonisolated(nonsending) func buildAsyncErased(_ resolver: inout Resolver, input: AnyObject?) async throws
        -> Any
    {
        try await resolver.buildAsync(self, input: input)
    }

    override func freshCopy() -> AnyEntry? {
        guard scope.isShared else { return nil }
        return Entry(id: id, key: key, order: order, site: site, spec: spec)
    }

    override var isAsync: Bool { asyncFactory != nil }

    /// The built singleton, if there is one; borrows the cell.
    @inlinable
    var builtSingleton: Destination? {
        guard let singletonRef = singletonRef else { return nil }
        return singletonRef.with { $0.instance }
    }

    override func overrideCopy() -> AnyEntry? {
        guard scope.isShared else { return nil }
        if let singleton, singleton.instance != nil { return nil }
        let copy = Entry(id: id, key: key, order: order, site: site, spec: spec)
        if let weakCell, let live = weakCell.live(as: Destination.self), let copied = copy.weakCell {
            CreationCoordinator.run { _ in copied.publish(live) }
        }
        if let customScope = scope.customScope {
            customScope.share(ObjectIdentifier(self), with: ObjectIdentifier(copy))
        }
        if let resets, let copied = copy.resets { resets.seed(copied) }
        return copy
    }

    override func makeConfigurationObject() -> AnyObject? { makeConfiguration?() }

    override func configurationType() -> String? { configurationName }
}

/// Whether a factory has had its first run (see `Entry.checkingFirstRun`).
final class FirstRun: Sendable {
    private let done = Atomic<Bool>(false)

    /// True for the one call that claims the first run; false for every other.
    func claim() -> Bool {
        !done.load(ordering: .relaxed) && !done.exchange(true, ordering: .relaxed)
    }
}
