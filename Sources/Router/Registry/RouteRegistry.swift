import Synchronization

/// Holds every router of an application and makes destinations by protocol key.
///
/// A registry has two phases. While it is open, modules register routers. ``seal()`` then validates
/// the whole set, reports every problem at once, builds eager singletons and publishes an immutable
/// lookup table: from then on lookups take no lock and may come from any number of threads, and
/// registering is an error.
///
/// ```swift
/// let registry = try RouteRegistry(modules: [EngineModule(), CarModule()])
/// let car = try registry.makeDestination(to: .car)
/// ```
public final class RouteRegistry: Sendable {
    // Its sealed table is kept and lent by the fence's accessors (`publishSealedTable`, `releaseSealedTable`, in
    // Resolution/Unchecked.swift).
    struct Assembly {
        var entries: [AnyEntry] = []
        /// The types of the modules loaded, for the check of what modules require. A list, not a set or a
        /// dictionary: a hashed collection of a key type the process has not hashed yet costs the first launch a
        /// scan of every conformance record in the process, to find the key's `Hashable` conformance.
        var loadedModules: [ObjectIdentifier] = []
        var requirements: [(module: String, required: any RouteModule.Type)] = []
        var currentModule: String?
        var paths: [PathRoute] = []
        /// Modules that could not be loaded (a discovered module whose `register` threw): validation lines.
        var loadProblems: [RouteError] = []
        /// The registrations (indices into `entries`) that declare a teardown, for sealing's scope check.
        var teardowns: Set<Int> = []
    }

    enum Phase: UInt8 {
        case open, sealing, sealed
        /// Sealed, then shut down (`shutdown()`): lookups read the closed table through `tableSlow()`.
        case shutDown
    }

    /// The registry whose routers this one inherits; its own registrations take precedence.
    public let parent: RouteRegistry?
    /// The deepest chain of nested lookups one lookup may make before it fails with
    /// ``RouteError/Code/resolutionTooDeep`` (an initializer-only cycle fails as
    /// ``RouteError/Code/circularDependency`` instead).
    ///
    /// The stack is guarded separately: whatever this limit, a lookup that would overflow the stack of the
    /// thread it runs on fails with ``RouteError/Code/resolutionTooDeep`` first (see the article on
    /// circular dependencies for the measured stack per level). This limit is your own, to catch runaway
    /// chains early.
    public let maxDepth: Int

    /// The registrations so far, read and written only inside `withAssembly`, under its lock.
    private let assembly = Locked(Assembly())
    @usableFromInline let phase = Atomic<UInt8>(Phase.open.rawValue)
    /// Held for the whole of a `seal()`, so that concurrent calls run one after the other.
    let sealLock = PThreadMutex()
    /// The ``CurrentThread/id`` of the thread running `seal()`, or 0.
    let sealingThread = Atomic<UInt>(0)
    /// Held while ``resetSingletons()`` starts new generations, so that concurrent resets run one after the other.
    let resetLock = PThreadMutex()
    /// Teardowns, the singletons made in order, and whether `shutdown()` has begun (`Registry/Shutdown.swift`).
    let lifecycle = Lifecycle()
    /// The sealed table, unretained, nil until sealed: written once (`publishSealedTable`), before the
    /// releasing store of `phase = sealed`, and read only after an acquiring load saw it. The registry holds
    /// the table (+1) until it is freed. A plain load on the lookup path, with no dynamic exclusivity
    /// check, and borrowing it writes nothing to the table's reference count, which threads looking up at
    /// once would fight over.
    @usableFromInline let sealedRef = Atomic<Borrowed<SealedTable>?>(nil)
    /// How many `withOverrides` calls on this registry, its parents or its children are running, in any
    /// task: one counter per family, so that a parent's overrides reach its children's lookups. While
    /// none is, a lookup does not read the task-local override tables.
    @usableFromInline let overrideCounter: OverrideCounter
    let tracer: Tracer
    let routing = Locked(RoutingState())
    /// The error handler, in a box of its own: a function value held directly as a generic `Locked`'s state
    /// was wrapped in a new conversion thunk at each read and stored back wrapped, so that each failed lookup
    /// added a frame to every later call of the handler (`theErrorHandlerHearsEachOfAHundredThousandFailedLookups`).
    private let errorHandlerStorage = Locked<ErrorHandlerBox?>(nil)
    /// The undeclared edges already reported to the error handler, each once (see `TakenEdges.swift`).
    let reportedEdges = Locked(ReportedEdges())

    /// Makes an empty, open registry.
    ///
    /// - Parameters:
    ///   - parent: A sealed registry whose routers this one inherits and may override.
    ///   - maxDepth: The deepest chain of nested lookups allowed (default 1,000).
    public init(parent: RouteRegistry? = nil, maxDepth: Int = 1_000) {
        self.parent = parent
        self.maxDepth = max(1, maxDepth)
        self.overrideCounter = parent?.overrideCounter ?? OverrideCounter()
        self.tracer = Tracer(counter: overrideCounter)
    }

    /// Makes a registry from modules and seals it.
    ///
    /// - Parameters:
    ///   - modules: The modules to load, in order.
    ///   - parent: A sealed registry whose routers this one inherits and may override.
    ///   - maxDepth: The deepest chain of nested lookups allowed (default 1,000).
    /// - Throws: ``RouteError`` with code ``RouteError/Code/validationFailed`` listing every problem found.
    public convenience init(modules: [any RouteModule], parent: RouteRegistry? = nil, maxDepth: Int = 1_000) throws {
        self.init(parent: parent, maxDepth: maxDepth)
        for module in modules { try load(module) }
        try seal()
    }

    /// Whether ``seal()`` has completed.
    public var isSealed: Bool { phase.load(ordering: .acquiring) >= Phase.sealed.rawValue }

    /// A handler that sees every error a top-level lookup throws, for logging or analytics. It is
    /// called before the error is thrown to the caller.
    ///
    /// It hears every failure, however many, in flat memory (pinned by
    /// `theErrorHandlerHearsEachOfAHundredThousandFailedLookups`).
    public var errorHandler: (@Sendable (RouteError) -> Void)? {
        get { errorHandlerStorage.withLock { $0?.handler } }
        set {
            let box = newValue.map(ErrorHandlerBox.init)
            errorHandlerStorage.withLock { $0 = box }
        }
    }

    // MARK: Assembly

    /// Registers a module's routers; the registrations are attributed to the module in messages.
    ///
    /// - Parameter module: The module to load.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed.
    public func load(_ module: some RouteModule) throws {
        try load(module, named: TypeName.of(type(of: module)))
    }

    /// Loads `module` under `name`, the name its registrations and messages carry.
    func load(_ module: some RouteModule, named name: String) throws {
        try ensureOpen(key: name)
        try withAssembly { assembly in
            // Checked again under the lock: a `seal()` that started since must not miss the module.
            guard isAcceptingRegistrations else { throw RouteError.loadedAfterSeal(name) }
            assembly.loadedModules.append(ObjectIdentifier(type(of: module)))
            for required in module.requiredModules {
                assembly.requirements.append((name, required))
            }
            assembly.currentModule = name
        }
        defer { withAssembly { $0.currentModule = nil } }
        try module.register(in: self)
    }

    /// Files the registration `make` returns; `make` runs under the assembly lock and gets the
    /// registration's position and the module loading it, if any.
    /// - Returns: The registration's position, for its ``Registration`` to modify it.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed.
    @usableFromInline
    func add(_ make: (_ order: Int, _ module: String?) -> AnyEntry) throws -> Int {
        var rejected: AnyEntry?
        let index = withAssembly { assembly in
            let entry = make(assembly.entries.count, assembly.currentModule)
            // The phase is read under the assembly lock (see `isAcceptingRegistrations`), so a registration
            // racing `seal()` either lands in the snapshot sealing takes or is rejected here.
            if !isAcceptingRegistrations {
                rejected = entry
            } else {
                assembly.entries.append(entry)
            }
            return assembly.entries.count - 1
        }
        if let rejected { throw RouteError.registeredAfterSeal(rejected.key.full) }
        return index
    }

    /// Makes the registration at `index` anew from its spec as `body` changes it (a ``Registration``
    /// modifier). The entry there is an `Entry<Destination>`: the registration that returned the index made it.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed.
    @usableFromInline
    func modify<Destination>(
        _ index: Int, as type: Destination.Type, _ body: (inout RegistrationSpec<Destination>) -> Void
    ) throws {
        let late: String? = withAssembly { assembly in
            let current = assembly.entries[index]
            guard isAcceptingRegistrations else { return current.key.full }
            guard let entry = current as? Entry<Destination> else { return nil }
            var spec = entry.spec
            body(&spec)
            assembly.entries[index] = Entry(
                id: entry.id, key: entry.key, order: entry.order, site: entry.site, spec: spec)
            return nil
        }
        if let late { throw RouteError.registeredAfterSeal(late) }
    }

    func addPath(_ make: (_ owner: String) -> PathRoute) throws {
        var rejected: PathRoute?
        withAssembly { assembly in
            let route = make(assembly.currentModule ?? "RouteRegistry")
            if !isAcceptingRegistrations {
                rejected = route
            } else {
                assembly.paths.append(route)
            }
        }
        if let rejected {
            throw RouteError.pathRegisteredAfterSeal(rejected.pattern.text)
        }
    }

    private func ensureOpen(key: String) throws {
        if phase.load(ordering: .acquiring) != Phase.open.rawValue { throw RouteError.loadedAfterSeal(key) }
    }

    /// Whether registrations are accepted now. Read it only under the assembly lock: `seal()` leaves the
    /// open phase before it takes that lock to snapshot the registrations, so a registration that sees the
    /// open phase under the lock is filed before the snapshot, and one filed after it sees sealing or sealed.
    private var isAcceptingRegistrations: Bool { phase.load(ordering: .acquiring) == Phase.open.rawValue }

    /// The registrations made so far, in order.
    var registeredEntries: [AnyEntry] { withAssembly { $0.entries } }

    /// Runs `body` on the assembly under its lock.
    func withAssembly<Result>(_ body: (inout Assembly) throws -> Result) rethrows -> Result {
        try assembly.withLock(body)
    }

    deinit {
        releaseSealedTable()
    }

    /// Hands an error to the error handler (unless a handler is running on this thread) and returns it.
    @usableFromInline
    func report(_ error: any Error) -> any Error {
        ThreadContext.current.report(error, to: self)
    }
}

/// The registry's error handler, held by a class so that the lock's generic state is a reference: reading
/// it hands back the closure that was set, never a conversion of it (see `errorHandlerStorage`).
final class ErrorHandlerBox: Sendable {
    let handler: @Sendable (RouteError) -> Void

    init(_ handler: @escaping @Sendable (RouteError) -> Void) {
        self.handler = handler
    }
}
