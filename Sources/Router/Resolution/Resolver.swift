/// Looks up dependencies from inside a factory or a preparation.
///
/// A factory receives the resolver `inout`, so it can neither escape nor outlive the lookup it belongs
/// to. Everything one top-level lookup builds shares it: graph-scoped instances, the path printed in
/// errors, the depth guard and the cycle detection. A lookup made through the registry (or a `Lazy` or
/// `Provider`) from inside a factory joins the running lookup the same way.
///
/// ```swift
/// try registry.register(.car) { r in
///     CarImpl(engine: try r.resolve(.engine), wheels: try r.resolveAll(.wheel))
/// }
/// ```
///
/// How a lookup runs, file by file, is drawn in `ARCHITECTURE.md` at the top of the repository.
public struct Resolver: ~Copyable {
    /// The running lookup's state. Not retained: the door that started the lookup keeps it alive for as
    /// long as any resolver of it exists (a resolver cannot escape the call it is lent to).
    @usableFromInline unowned(unsafe) let state: LookupState

    @inlinable
    init(state: LookupState) {
        unsafe self.state = state
    }

    // MARK: Public lookups

    /// Resolves the destination of `key`.
    ///
    /// - Parameter key: The key to resolve.
    /// - Returns: The destination, made or shared according to its scope.
    /// - Throws: ``RouteError``: the key is unregistered or ambiguous, a factory failed, or the
    ///   dependencies form an initializer-only cycle.
    @inlinable
    public mutating func resolve<Destination>(_ key: RoutableService<Destination>) throws -> Destination {
        // Local functions, not closures: always inlined, so the probe, `build` and the factory's frame are
        // one function (see `constructPlain`).
        @inline(__always) func probe(_ table: SealedTable) -> Borrowed<AnyEntry>? {
            let found = unsafe table.primaryRefInline(key.id)
            // A named key's hash may find a registration of another name (see `KeyName`).
            guard table.hasNamedKeys, let named = unsafe found else { return unsafe found }
            return unsafe key.isNotNamed(as: named) ? nil : named
        }
        guard let found = unsafe tableRef.with(probe) else {
            throw missingError(for: key)
        }
        @inline(__always) func buildFound(_ entry: Entry<Destination>) throws -> Destination { try build(entry) }
        // Borrowed, not retained: the table keeps the entry alive for the whole lookup.
        return unsafe try Entry<Destination>.borrow(found, buildFound)
    }

    /// Resolves the destination of `key`, then runs `preparation` on it before the registration's own
    /// preparation runs.
    ///
    /// - Parameters:
    ///   - key: The key to resolve.
    ///   - preparation: The caller's property and method injection.
    /// - Returns: The destination.
    /// - Throws: ``RouteError``, as ``resolve(_:)-(RoutableService<Destination>)``; an error thrown by `preparation` is wrapped as
    ///   ``RouteError/Code/factoryFailed``.
    public mutating func resolve<Destination>(
        _ key: RoutableService<Destination>, preparation: (Destination) throws -> Void
    ) throws -> Destination {
        try build(entry(for: key), input: nil, preparation: preparation)
    }

    /// Resolves the destination of `key`, or returns nil when no router is registered for it.
    ///
    /// Only a missing registration gives nil: a registered key whose factory fails still throws.
    /// - Parameter key: The key to resolve.
    /// - Returns: The destination, or nil.
    /// - Throws: ``RouteError`` for every failure other than a missing registration.
    public mutating func resolveIfRegistered<Destination>(
        _ key: RoutableService<Destination>
    ) throws -> Destination? {
        guard table.hasRegistration(key.id, name: key.name) else { return nil }
        return try resolve(key)
    }

    /// Resolves every registration of `key`, in registration order (a parent registry's first).
    ///
    /// - Parameter key: The key to resolve; its tag or name, if any, narrows the set.
    /// - Returns: One destination per registration; empty when none is registered.
    /// - Throws: ``RouteError`` when one of the factories fails.
    public mutating func resolveAll<Destination>(_ key: RoutableService<Destination>) throws -> [Destination] {
        try table.allEntries(for: key.id, name: key.name).map { erased in
            unsafe try Entry<Destination>.borrow(Borrowed(erased)) { entry in try build(entry) }
        }
    }

    /// Resolves the destination of a module, configured by `configuring` before it is made.
    ///
    /// (Inside a factory every lookup is `resolve…`; code outside any lookup starts one with the
    /// registry's `makeDestination…`.)
    /// - Parameters:
    ///   - key: The module key.
    ///   - configuring: Sets the module up, typically with a `construct…` call.
    /// - Returns: The destination.
    /// - Throws: ``RouteError``; ``RouteError/Code/invalidConfiguration`` when a required `construct…`
    ///   call was not made.
    public mutating func resolve<Configuration, Destination>(
        _ key: RoutableServiceModule<Configuration, Destination>,
        configuring: (Configuration) throws -> Void
    ) throws -> Destination {
        let entry: Entry<Destination> = try moduleEntry(for: key)
        let configuration = try configure(entry, as: Configuration.self, configuring)
        let made = try unsafe state.withInput(configuration) { try build(entry) }
        reportUnreadConstructCalls(configuration, of: entry)
        return made
    }

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

    // MARK: The state, as the engine's files read it

    @inlinable var tableRef: Borrowed<SealedTable> { unsafe state.context.tableRef }
    /// The table, for the paths that are not hot.
    var table: SealedTable { unsafe state.table }
    @inlinable var maxDepth: Int { unsafe state.context.maxDepth }
    @inlinable var tracing: Bool { unsafe state.context.tracing }
    @inlinable var graphRef: Borrowed<ResolutionGraph>? { unsafe state.preparations.graphRef }
    @inlinable var graph: ResolutionGraph? { unsafe state.graph }
    /// How many preparations are queued, read without retaining the graph.
    @inlinable var pendingCount: Int { unsafe graphRef?.with { unsafe $0.pending.count } ?? 0 }
    @inlinable var current: Int32 {
        get { unsafe state.frames.current }
        nonmutating set { unsafe state.frames.current = newValue }
    }
    @inlinable var top: UnsafeMutablePointer<Frame>? {
        get { unsafe state.frames.top }
        nonmutating set { unsafe state.frames.top = unsafe newValue }
    }
    @inlinable var depth: Int {
        get { unsafe state.frames.depth }
        nonmutating set { unsafe state.frames.depth = newValue }
    }
    @inlinable var injecting: Int {
        get { unsafe state.frames.injecting }
        nonmutating set { unsafe state.frames.injecting = newValue }
    }
    @inlinable var sharedFloor: Int32 {
        get { unsafe state.preparations.sharedFloor }
        nonmutating set { unsafe state.preparations.sharedFloor = newValue }
    }
    /// The configuration or the arguments handed to the next factory that takes them.
    var input: AnyObject? {
        get { unsafe state.frames.inputRef?.object }
        nonmutating set { unsafe state.frames.inputRef = newValue.map { unsafe Borrowed($0) } }
    }
    /// Whether the stack has room for one more nested build (see ``ThreadContext``), as far as the range
    /// the lookup last measured says. An address on another thread's stack is outside it as well:
    /// ``hasStackRoomOnThisThread()`` then measures again.
    @inlinable var hasStackRoom: Bool { unsafe state.context.stackRange.contains(StackPointer.current) }

    /// ``hasStackRoom`` for a lookup that may have moved to another thread: an async lookup resumes on any
    /// thread after an await, also inside an async factory that then resolves synchronously, so it is
    /// measured against the stack it runs on now. (A stale range gave a false "would overflow".)
    @usableFromInline
    func hasStackRoomOnThisThread() -> Bool {
        guard unsafe state.context.isAsync else { return false }
        unsafe state.context.stackRange = ThreadContext.current.stackRange
        return hasStackRoom
    }
}
