/// A dependency built on first read, once, then kept.
///
/// Inject a `Lazy` where a dependency is expensive or only sometimes needed, or to break a cycle made of
/// initializer edges: a lazy edge is never part of a build cycle.
///
/// ```swift
/// try registry.register(.report) { r in
///     ReportImpl(database: try r.lazy(.database))
/// }.dependencies(.lazy(.database))
/// // later, inside ReportImpl:
/// let rows = try database.value.query("…")
/// ```
///
/// Read while a lookup of the same registry runs on the thread (from a factory or a preparation), the
/// value is built inside that lookup: graph-scoped objects are shared with it, and a cycle through the
/// `Lazy` is a `circularDependency` error. Read after the lookup that made it has ended, it is a lookup of
/// its own in which that lookup's graph-scoped instances that are still alive are reused (held weakly
/// until then); everything else follows its scope. Either way it is built once: concurrent first reads
/// wait for the one that builds, and a failed build is not kept (the next read tries again).
///
/// Once its registry is shut down (``RouteRegistry/shutdown()``), every read fails with
/// ``RouteError/Code/shutDown``, a `Lazy` already built included: it never hands out a torn-down instance.
public final class Lazy<Destination> {
    private let table: SealedTable
    private let entry: Entry<Destination>
    private let cell = SharedCell<Destination>()
    /// The graph-scoped instances of the lookup that made this `Lazy`, once it has ended.
    private let origin: GraphSnapshot?
    /// The lifecycle of the registry it looks up in, read at each read: once that registry is shut down,
    /// the `Lazy` answers as its other lookups do.
    private let lifecycle: Lifecycle?

    init(table: SealedTable, entry: Entry<Destination>, origin: GraphSnapshot?) {
        self.table = table
        self.entry = entry
        self.origin = origin
        lifecycle = table.reporter.registry?.lifecycle
    }

    /// The destination, built on the first read. A failed build is not cached: the next read tries again.
    ///
    /// A property cannot take its caller's isolation, so this form builds as nonisolated code does: it
    /// cannot build a main-actor destination (one registered with
    /// ``RouteRegistry/registerOnMainActor(_:file:line:factory:)``) except inside a lookup already running on
    /// the main actor, or on the main thread of an Apple platform. Read such a `Lazy` with
    /// ``value(isolation:)`` (`try lazy.value()`) instead; for every other `Lazy` the two are the same.
    /// - Throws: ``RouteError`` when the build fails; ``RouteError/Code/mainActorRequired`` for a main-actor
    ///   destination not built yet.
    public var value: Destination {
        get throws {
            do {
                return try read(onMainActor: false)
            } catch let error as RouteError where error.code == .mainActorRequired {
                throw RouteError.lazyValueOffTheMainActor(error)
            }
        }
    }

    /// The destination, built on the first read, with the caller's isolation: called from main-actor code,
    /// it builds a main-actor destination synchronously, as ``RouteRegistry/makeDestination(to:arguments:isolation:preparation:)``
    /// does.
    ///
    /// ```swift
    /// @MainActor func showProfile(_ profile: Lazy<any ProfileScreen>) throws {
    ///     present(try profile.value())
    /// }
    /// ```
    ///
    /// Called from anywhere else, a main-actor destination not built yet fails with
    /// ``RouteError/Code/mainActorRequired`` before its factory runs; once built, every read returns it.
    /// A failed build is not cached: the next read tries again.
    /// - Parameter isolation: The caller's isolation; leave the default.
    /// - Returns: The destination.
    /// - Throws: ``RouteError`` when the build fails.
    public func value(isolation: isolated (any Actor)? = #isolation) throws -> Destination {
        try read(onMainActor: MainActorCheck.isMainActor(isolation))
    }

    /// The built destination, or a lookup that builds it once.
    private func read(onMainActor: Bool) throws -> Destination {
        // Shut down: not the instance it built (torn down), but the registry's answer, `shutDown`.
        if let closed = lifecycle?.tableAfterShutdown {
            return try Resolver.lookupAfterShutdown(in: closed, of: entry, onMainActor: onMainActor)
        }
        if let made = cell.instance { return made }
        // `self` keeps the table alive for the whole lookup.
        return try Resolver.lookup(
            in: Borrowed(table), reporting: table.reporter.registry, seeding: origin, onMainActor: onMainActor
        ) {
            resolver in try resolver.buildOnce(entry, in: cell)
        }
    }

    /// Whether the destination was built already.
    public var isBuilt: Bool { cell.isPublished }
}

// @unchecked: every stored property is an immutable reference to a self-synchronising object (the table
// and entry never change after sealing; the cell publishes its value once with a releasing store; the
// lifecycle is Sendable, its flag atomic and its state locked), and a
// Sendable destination may then be handed to any thread.
extension Lazy: @unchecked Sendable where Destination: Sendable {}

/// Builds a new destination on each call, with the arguments the key's factory takes.
///
/// ```swift
/// try registry.register(.orderScreen) { r in
///     OrderScreen(makeReceipt: try r.provider(.receipt, arguments: Int.self))
/// }.dependencies(.lazy(.receipt))
/// // later:
/// let receipt = try makeReceipt(42)
/// ```
///
/// Each call reads its registry's state: after ``RouteRegistry/resetSingletons()`` it gives the new
/// instance of a resettable singleton, and after ``RouteRegistry/shutdown()`` it fails with
/// ``RouteError/Code/shutDown``.
public struct Provider<Destination, each Argument>: Sendable {
    /// Makes a destination; the flag says whether the caller is on the main actor.
    private let make: @Sendable (Bool, repeat each Argument) throws -> Destination

    init(make: @escaping @Sendable (Bool, repeat each Argument) throws -> Destination) {
        self.make = make
    }

    /// Builds a destination: inside the lookup running on this thread, if it is of the same registry;
    /// otherwise as a lookup of its own.
    /// - Parameters:
    ///   - argument: The arguments for the key's factory, if it takes any.
    ///   - isolation: The caller's isolation; leave the default. Called from main-actor code, the lookup
    ///     may run main-actor factories, synchronously.
    /// - Returns: The destination, made or shared according to its scope.
    /// - Throws: ``RouteError`` when the build fails.
    public func callAsFunction(
        _ argument: repeat each Argument, isolation: isolated (any Actor)? = #isolation
    ) throws -> Destination {
        try make(MainActorCheck.isMainActor(isolation), repeat each argument)
    }
}

extension Resolver {
    /// A ``Lazy`` for `key`: the key is checked now, the destination built on first read.
    /// - Parameter key: The key.
    /// - Returns: The lazy dependency.
    /// - Throws: ``RouteError`` when no router is registered for `key`.
    public mutating func lazy<Destination>(_ key: RoutableService<Destination>) throws -> Lazy<Destination> {
        Lazy(table: table, entry: try entry(for: key), origin: state.creation.snapshotForDeferredLookups())
    }

    /// A ``Provider`` for `key` that takes no arguments.
    /// - Parameter key: The key.
    /// - Returns: A provider that builds a destination on each call.
    /// - Throws: ``RouteError`` when no router is registered for `key`.
    public mutating func provider<Destination>(_ key: RoutableService<Destination>) throws -> Provider<Destination> {
        let entry = try entry(for: key)
        let table = self.table
        let origin = state.creation.snapshotForDeferredLookups()
        let lifecycle = table.reporter.registry?.lifecycle
        // The provider's closure holds `table`, so the unretained reference the door gets stays valid.
        return Provider { onMainActor in
            // Shut down: the registry's answer, `shutDown`, not a torn-down singleton.
            if let closed = lifecycle?.tableAfterShutdown {
                return try Resolver.lookupAfterShutdown(in: closed, of: entry, onMainActor: onMainActor)
            }
            return try Resolver.lookup(
                in: Borrowed(table), reporting: table.reporter.registry, seeding: origin, onMainActor: onMainActor
            ) {
                resolver in
                try withExtendedLifetime(table) { try resolver.build(entry) }
            }
        }
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
        let types = ArgumentList(first, repeat (each Argument).self)
        let entry = try entry(for: key, taking: types)
        try checkTakesArguments(entry, given: types)
        let table = self.table
        let origin = state.creation.snapshotForDeferredLookups()
        let lifecycle = table.reporter.registry?.lifecycle
        // The provider's closure holds `table`, so the unretained reference the door gets stays valid.
        return Provider { (onMainActor: Bool, head: First, tail: repeat each Argument) in
            if let closed = lifecycle?.tableAfterShutdown {
                return try Resolver.lookupAfterShutdown(in: closed, of: entry, onMainActor: onMainActor)
            }
            return try ArgumentHandoff.with(types, head, repeat each tail, making: Destination.self) { handoff in
                try Resolver.lookup(
                    in: Borrowed(table), reporting: table.reporter.registry, seeding: origin, onMainActor: onMainActor
                ) {
                    resolver in
                    try withExtendedLifetime(table) { try resolver.build(entry, arguments: handoff) }
                }
            }
        }
    }

    /// The lookup of a ``Lazy`` or a ``Provider`` of a registry that is shut down: run in its closed table
    /// (`closed`), where `entry` is not found, so it fails with ``RouteError/Code/shutDown`` as the registry's
    /// other lookups do (`SealedTable.missingError`), reported to its error handler.
    static func lookupAfterShutdown<Destination>(
        in closed: SealedTable, of entry: Entry<Destination>, onMainActor: Bool
    ) throws -> Destination {
        try withExtendedLifetime(closed) {
            try lookup(in: Borrowed(closed), reporting: closed.reporter.registry, onMainActor: onMainActor) {
                resolver in
                throw resolver.table.missingError(entry.id, key: entry.key, path: resolver.pathTo(entry.key.short))
            }
        }
    }

    /// Builds `entry` once for a `Lazy`: claims the lazy's cell in this lookup's creation transaction, so
    /// a concurrent first read waits and a read during its own build is a cycle error. A driver of
    /// ``SharedCreation``, as `createShared` is; the lazy's cell is claimed through the machine only, and
    /// no reset or scope releases it.
    mutating func buildOnce<Destination>(_ entry: Entry<Destination>, in cell: SharedCell<Destination>) throws
        -> Destination
    {
        let transaction = state.transaction
        var creation = SharedCreation()
        if let found = try claim(cell, for: entry, published: { cell.instance }) { return found }
        _ = creation.claimed(onWord: false, released: false)
        let mark = pendingCount
        let made: Destination
        do {
            made = try build(entry)
            transaction.setProvisional(cell) { cell.provisional = made }
        } catch {
            _ = creation.failed(node: -1)
            transaction.abandon(cell)
            throw error
        }
        let stateID = ObjectIdentifier(state)
        // Its preparations run in this lookup's drain: the value is published after them.
        let queued = pendingCount > mark
        switch creation.built(
            SharedCreation.Shape(deferred: queued, reachedUnfinished: false, reachedOuter: false, node: -1, lowest: -1))
        {
        case .now:
            transaction.finish(
                cell, state: stateID, publish: { _ in cell.publish(made) }, discard: { cell.discardProvisional() })
        case .held, .group:
            transaction.finish(
                cell, queuedAfter: pendingCount, state: stateID, publish: { _ in cell.publish(made) },
                discard: { cell.discardProvisional() })
        }
        return made
    }
}

extension RouteRegistry {
    /// A ``Lazy`` for `key`, for code outside factories.
    /// - Parameter key: The key.
    /// - Returns: The lazy dependency.
    /// - Throws: ``RouteError`` when the registry is not sealed or no router is registered for `key`.
    public func lazy<Destination>(_ key: RoutableService<Destination>) throws -> Lazy<Destination> {
        try lookup { resolver in try resolver.lazy(key) }
    }

    /// A ``Provider`` for `key`, for code outside factories.
    /// - Parameter key: The key.
    /// - Returns: A provider that builds a destination on each call.
    /// - Throws: ``RouteError`` when the registry is not sealed or no router is registered for `key`.
    public func provider<Destination>(_ key: RoutableService<Destination>) throws -> Provider<Destination> {
        try lookup { resolver in try resolver.provider(key) }
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
        try lookup { resolver in try resolver.provider(key, arguments: first, repeat (each Argument).self) }
    }
}
