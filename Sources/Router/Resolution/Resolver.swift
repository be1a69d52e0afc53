import Synchronization

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
    /// The running lookup's state. Borrowed: the door that started the lookup keeps it alive for as long
    /// as any resolver of it exists (a resolver is not copyable and is lent `inout`, so it cannot escape
    /// the call it is lent to).
    @usableFromInline let stateRef: Borrowed<LookupState>

    /// The running lookup's state.
    @inlinable
    var state: LookupState { stateRef.object }

    @inlinable
    init(state: LookupState) {
        stateRef = Borrowed(state)
    }

    // MARK: Public lookups

    /// Resolves the destination of `key`: the one lookup of a service key inside a synchronous factory,
    /// with the runtime arguments its registration takes (none for most) and the caller's preparation,
    /// when one is given.
    ///
    /// ```swift
    /// let engine = try r.resolve(.engine)
    /// let detail = try r.resolve(.bookDetail, arguments: 3)
    /// let car = try r.resolve(.car) { car in car.color = "red" }
    /// ```
    /// - Parameters:
    ///   - key: The key to resolve.
    ///   - arguments: The factory's runtime arguments, in order; none for a registration that takes none.
    ///   - preparation: The caller's property and method injection, if any; it runs before the
    ///     registration's own preparation.
    /// - Returns: The destination, made or shared according to its scope.
    /// - Throws: ``RouteError``: the key is unregistered or ambiguous, the arguments fit no registration
    ///   (``RouteError/Code/argumentMismatch``), a factory failed (an error thrown by `preparation` is
    ///   wrapped as ``RouteError/Code/factoryFailed``), or the dependencies form an initializer-only cycle.
    @inlinable @inline(__always)
    public mutating func resolve<Destination, each Argument>(
        _ key: RoutableService<Destination>, arguments: repeat each Argument,
        preparation: ((Destination) throws -> Void)? = nil
    ) throws -> Destination {
        // A constant where the caller is specialised. The plain lookup is written here, not called: a chain
        // of factories nests one frame of it per link, and a debug build keeps every frame.
        guard ArgumentList.isEmpty(repeat (each Argument).self), preparation == nil else {
            return try resolveGenerally(key, arguments: repeat each arguments, preparation: preparation)
        }
        // Local functions, not closures: always inlined, so the probe, `build` and the factory's frame are
        // one function (see `constructPlain`).
        @inline(__always) func probe(_ table: SealedTable) -> Borrowed<AnyEntry>? {
            let found = table.primaryRefInline(key.id)
            // A named key's hash may find a registration of another name (see `KeyName`).
            guard table.hasNamedKeys, let named = found else { return found }
            return key.isNotNamed(as: named) ? nil : named
        }
        guard let found = tableRef.with(probe) else {
            throw missingError(for: key)
        }
        @inline(__always) func buildFound(_ entry: Entry<Destination>) throws -> Destination { try build(entry) }
        // Borrowed, not retained: the table keeps the entry alive for the whole lookup.
        return try Entry<Destination>.borrow(found, buildFound)
    }

    /// Resolves the destination of `key`, or returns nil when no router is registered for it.
    ///
    /// Only a missing registration gives nil: a registered key whose factory fails still throws, and so
    /// does a lookup of a registry that was shut down (``RouteError/Code/shutDown``).
    /// - Parameter key: The key to resolve.
    /// - Returns: The destination, or nil.
    /// - Throws: ``RouteError`` for every failure other than a missing registration.
    public mutating func resolveIfRegistered<Destination>(
        _ key: RoutableService<Destination>
    ) throws -> Destination? {
        guard table.hasRegistration(key.id, name: key.name) else {
            // A miss is nil, unless the registry is shut down: then it says so.
            if let closed = table.shutDownError(key.keyDescription.full, path: pathTo(key.keyDescription.short)) {
                throw closed
            }
            return nil
        }
        return try resolve(key)
    }

    /// Resolves every registration of `key`, in registration order (a parent registry's first).
    ///
    /// - Parameter key: The key to resolve; its tag or name, if any, narrows the set.
    /// - Returns: One destination per registration; empty when none is registered.
    /// - Throws: ``RouteError`` when one of the factories fails; ``RouteError/Code/shutDown`` when the
    ///   registry was shut down, rather than an empty list.
    public mutating func resolveAll<Destination>(_ key: RoutableService<Destination>) throws -> [Destination] {
        let entries = table.allEntries(for: key.id, name: key.name)
        // None is an empty list, unless the registry is shut down: then it says so.
        if entries.isEmpty,
            let closed = table.shutDownError(key.keyDescription.full, path: pathTo(key.keyDescription.short))
        {
            throw closed
        }
        return try entries.map { erased in
            try Entry<Destination>.borrow(Borrowed(erased)) { entry in try build(entry) }
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
        let made = try state.withInput(configuration) { try build(entry) }
        reportUnreadConstructCalls(configuration, of: entry)
        return made
    }

    // MARK: The state, as the engine's files read it

    @inlinable var tableRef: Borrowed<SealedTable> { state.context.tableRef }
    /// The table, for the paths that are not hot.
    @usableFromInline
    var table: SealedTable { state.table }
    @inlinable var maxDepth: Int { state.context.maxDepth }
    @inlinable var tracing: Bool { state.context.tracing }
    @inlinable var graphRef: Borrowed<ResolutionGraph>? { state.preparations.graphRef }
    @inlinable var graph: ResolutionGraph? { state.graph }
    /// How many preparations are queued, read without retaining the graph.
    @inlinable var pendingCount: Int { graphRef?.with { $0.pending.count } ?? 0 }
    @inlinable var current: Int32 { state.frames.current }
    @inlinable var top: FrameRef? { state.frames.top }
    @inlinable var depth: Int { state.frames.depth }
    @inlinable var injecting: Int { state.frames.injecting }
    @inlinable var sharedFloor: Int32 { state.preparations.sharedFloor }
    /// Whether the stack has room for one more nested build (see ``ThreadContext``), as far as the range
    /// the lookup last measured says. An address on another thread's stack is outside it as well:
    /// ``hasStackRoomOnThisThread()`` then measures again.
    @inlinable var hasStackRoom: Bool { state.context.stackRange.contains(StackPointer.current) }

    /// ``hasStackRoom`` for a lookup that may have moved to another thread: an async lookup resumes on any
    /// thread after an await, also inside an async factory that then resolves synchronously, so it is
    /// measured against the stack it runs on now. (A stale range gave a false "would overflow".)
    @usableFromInline
    func hasStackRoomOnThisThread() -> Bool {
        guard state.context.isAsync else { return false }
        state.context.measureStack(ThreadContext.current.stackRange)
        return hasStackRoom
    }
}
