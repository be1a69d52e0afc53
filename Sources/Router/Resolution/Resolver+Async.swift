import Synchronization

extension Resolver {
    /// Resolves `key` from an async factory, as ``resolve(_:arguments:preparation:)`` does in a synchronous
    /// one: keys with async factories need this form, keys with plain factories work with it too. (It has
    /// its own name so that `resolve` stays synchronous in async code.)
    ///
    /// ```swift
    /// let store = try await r.resolveAsync(.store)
    /// let report = try await r.resolveAsync(.report, arguments: 2026)
    /// ```
    /// - Parameters:
    ///   - key: The key to resolve.
    ///   - arguments: The factory's runtime arguments, in order; none for a registration that takes none.
    ///   - preparation: The caller's property and method injection, if any; it runs before the
    ///     registration's own preparation.
    /// - Returns: The destination.
    /// - Throws: ``RouteError``, as ``resolve(_:arguments:preparation:)``.
    @inlinable
    public nonisolated(nonsending) mutating func resolveAsync<Destination, each Argument>(
        _ key: RoutableService<Destination>, arguments: repeat each Argument,
        preparation: ((Destination) throws -> Void)? = nil
    ) async throws -> Destination {
        guard ArgumentList.isEmpty(repeat (each Argument).self), preparation == nil else {
            return try await resolveAsyncGenerally(key, arguments: repeat each arguments, preparation: preparation)
        }
        return try await resolvePlainAsync(key)
    }

    /// ``resolveAsync(_:arguments:preparation:)`` with no arguments and no preparation.
    @usableFromInline
    nonisolated(nonsending) mutating func resolvePlainAsync<Destination>(_ key: RoutableService<Destination>)
        async throws -> Destination
    {
        try await buildAsync(entry(for: key))
    }

    /// Builds `entry` in an async lookup: an async factory with `await`; a plain one exactly as a
    /// synchronous lookup would, as a synchronous segment of this lookup.
    ///
    /// Waiting for a shared instance another lookup is building suspends the lookup, never blocking a
    /// thread: an async singleton's claim waits suspended, and before a synchronous segment starts, the
    /// lookup waits suspended for the instance that segment would otherwise block on, in any shared scope
    /// (`unpublishedSharedCell(of:)`). (A segment's
    /// factories are synchronous code: an instance one of them asks for is waited for as a synchronous
    /// lookup waits.)
    @inlinable
    nonisolated(nonsending) mutating func buildAsync<Destination>(_ entry: Entry<Destination>) async throws
        -> Destination
    {
        guard let asyncFactory = entry.asyncFactory else {
            if let cell = unpublishedSharedCell(of: entry) {
                await state.transaction.awaitRelease(of: cell, for: entry)
            }
            return try synchronously { resolver in try resolver.build(entry) }
        }
        // An async factory's edge, noted as `buildTraced` notes a synchronous one's (TakenEdges.swift).
        if tracing { noteTakenEdge(to: entry) }
        if entry.isPlainTransient && injecting == 0 {
            // What `existingInstance` does for it, without its optional result (unspecialized here, a
            // `Destination?` costs two runtime metadata requests per lookup): a transient with nothing to
            // prepare, outside a preparation, has no earlier object to find and needs no graph (its object
            // is recorded only if its factory's own lookups start one); only the depth guard applies.
            try checkDepth(entry)
            return try await constructAsync(entry, asyncFactory)
        }
        if let made = entry.builtSingleton { return made }
        if let existing = try synchronously({ resolver in try resolver.existingInstance(entry, startingGraph: true) }) {
            return existing
        }
        // A request-scoped instance's cell is the running lookup's request scope's: built once per scope, as a
        // singleton is, through the same call (a built one is found by the claim). No `Destination?` local
        // here: in this unspecialized async function each costs every async lookup a task allocation.
        guard let cell = try entry.singletonCell ?? requestCellIfScoped(entry) else {
            return try await constructAsync(entry, asyncFactory)
        }
        // A parent registry's async singleton is built from the parent's registrations, as a synchronous one
        // is (`buildInOwner`): by an async lookup of the parent's table nested in this one.
        if cell.instance == nil, let owner = inheritedOwner(of: entry)?.object,
            let registry = owner.reporter.registry ?? table.reporter.registry
        {
            return try await Resolver.lookupAsync(
                in: owner, of: registry, reporting: false, onMainActor: state.context.onMainActor
            ) { resolver in try await resolver.buildAsync(entry) }
        }
        return try await createSharedAsync(entry, cell, asyncFactory)
    }

    /// The cell the synchronous claim of `entry` will take, when nothing is published in it yet: found as
    /// `buildShared` finds it, through the scope's own lookup (the registration's cell for a singleton or
    /// weak singleton, the current generation's for a resettable one, the lookup's generation's for a
    /// custom scope, the running lookup's request scope's for a request-scoped one). Nil for a registration
    /// that shares nothing, once published, and when the lookup cannot have one (a closed or missing
    /// scope): the synchronous segment then reports why.
    @inlinable
    mutating func unpublishedSharedCell<Destination>(of entry: Entry<Destination>) -> CreationCell? {
        let cell: CreationCell?
        switch entry.scope.kind {
        case .singleton, .eagerSingleton: cell = entry.singletonCell
        case .weakSingleton: cell = entry.weakCell
        case .custom:
            guard let scope = entry.scope.customScope else { return nil }
            cell = try? customCell(for: entry, in: scope)
        case .request: cell = try? requestCell(for: entry)
        case .transient, .graph, .supplied: cell = nil
        }
        guard let cell, !cell.isPublished else { return nil }
        return cell
    }

    /// Builds an async singleton inside this lookup's creation transaction, as `createShared` builds a
    /// synchronous one: claims its cell (waiting suspended while another lookup builds it), builds and
    /// prepares it, then publishes it, or gives the claim up when that fails.
    @inlinable
    nonisolated(nonsending) mutating func createSharedAsync<Destination>(
        _ entry: Entry<Destination>, _ cell: SharedCell<Destination>,
        _ factory: nonisolated(nonsending) @Sendable (inout Resolver) async throws -> Destination
    ) async throws -> Destination {
        let transaction = state.transaction
        var cell = cell
        var creation = SharedCreation()
        while true {
            // Uncontended: one exchange on the cell's word (see `createShared`); otherwise through the machine.
            let onWord = transaction.claimUncontended(cell, for: entry)
            if !onWord {
                switch try answer(
                    try await transaction.claimAsync(cell, for: entry), for: entry, published: { cell.instance })
                {
                case .found(let made): return made
                case .claimAgain: continue
                case .build: break
                }
            }
            // Whether this lookup built an instance in the released generation: only such builds count toward
            // the bound (see `SharedCreation.generationReleased(built:)`).
            var built = false
            switch creation.claimed(onWord: onWord, released: !onWord && cell.isReleased) {
            case .giveUp:
                // Claimed in a generation a reset or a shutdown released meanwhile: nothing is built there.
                transaction.abandon(cell)
            case .build:
                let mark = pendingCount
                let made: Destination
                do {
                    made = try await constructAsync(entry, factory)
                    try synchronously { resolver in try resolver.drain(from: mark) }
                } catch {
                    // An async build drains all it queued: it holds nothing, so nothing is dropped with it.
                    if !(creation.failed(node: -1).onWordFirst && transaction.abandonUncontended(cell)) {
                        transaction.abandon(cell)
                    }
                    throw error
                }
                // Drained whole: published now, alone.
                let now: Bool
                switch creation.drained() ? transaction.publishUncontended(cell, made) : .inMachine {
                case .done: return made
                case .rejected: now = true
                case .inMachine:
                    now = transaction.finish(
                        cell, state: ObjectIdentifier(state),
                        publish: { now in
                            // Held for its group and published by a later event: see `createShared`.
                            if !cell.publish(made), !now { entry.lateTeardown?.start(made) }
                        }, discard: { cell.discardProvisional() })
                }
                // Its generation was released while it was built: not served, torn down now, once (one
                // without a teardown keeps what it built, as the synchronous lookup does).
                let landing = creation.landed(rejected: now && cell.wasRejected, tearsDown: entry.lateTeardown != nil)
                guard landing == .tearDown, let teardown = entry.lateTeardown else { return made }
                await teardown.runAsync(made)
                built = true
            }
            // After a reset, the current generation's instance (built once, as any); after a shutdown, none.
            let failure = releasedGeneration(entry)
            guard failure is GenerationReleased, let current = entry.singletonCell else { throw failure }
            if let made = current.instance { return made }
            guard creation.generationReleased(built: built) == .claimCurrent else {
                throw RouteError.releasedDuringEveryBuild(entry, path: pathTo(entry.key.short))
            }
            cell = current
        }
    }

    /// Runs a synchronous part of an async lookup on the current thread: a lookup the registry starts
    /// from inside it joins this one, and the depth guard measures this thread's stack.
    @usableFromInline
    mutating func synchronously<Result>(_ body: (inout Resolver) throws -> Result) throws -> Result {
        try ThreadContext.current.withRunning(state) { try body(&self) }
    }
}

extension Resolver {
    /// An async top-level lookup of a transient registration with nothing to prepare, untraced, whose
    /// factory is async: the async door, `buildAsync` and `constructAsync` specialized in the caller, with
    /// what `buildAsync` would test known (no earlier object to find, no graph to start; only the depth
    /// guard applies). It keeps the door's rules: the session joins, nests or starts the lookup, files it
    /// under its task so that the factory's own lookups join it, finishes what they queued and reports a
    /// failure. A registration with a plain factory takes the general way (``RouteRegistry/makeDestinationAsyncSlow(to:)``).
    ///
    /// Specialized but never inlined: inlined into the door, its locals grew the door's async frame, and
    /// the built singleton (s12s), which returns before any of it runs, paid for them.
    @inlinable @inline(never)
    nonisolated(nonsending) static func resolvePlainAsyncTopLevel<Destination>(
        _ key: RoutableService<Destination>, _ found: Borrowed<AnyEntry>, in tableRef: Borrowed<SealedTable>,
        reporting registry: RouteRegistry, onMainActor: Bool
    ) async throws -> Destination {
        // Retained for the lookup: the table keeps it alive as well, but a borrowed reference cannot cross
        // the await below.
        let entry = try Entry<Destination>.borrow(found) { $0 }
        guard let factory = entry.asyncFactory else { return try await registry.makeDestinationAsyncSlow(to: key) }
        // Held to the end of the lookup, whose state borrows it, as `makeDestinationAsyncSlow` holds it.
        let table = tableRef.object
        defer { withExtendedLifetime(table) {} }
        let session = beginAsync(in: table, of: registry, reporting: true, onMainActor: onMainActor)
        var resolver = Resolver(state: session.state)
        do {
            try resolver.checkDepth(entry)
            let made = try await resolver.constructAsync(entry, factory)
            try session.finish(&resolver, of: registry)
            session.recycle()
            return made
        } catch {
            let failure = session.fail(error, &resolver, of: registry, reporting: true)
            session.recycle()
            throw failure
        }
    }
}

extension RouteRegistry {
    /// Registers an async factory, for destinations that must await something to exist (opening a
    /// database, reading a file).
    ///
    /// ```swift
    /// try registry.registerAsync(.database) { r async throws in
    ///     try await Database.open(path: try r.resolve(.settings).databasePath)
    /// }
    /// .scope(.singleton)
    /// let database = try await registry.makeDestinationAsync(to: .database)
    /// ```
    ///
    /// Look such a key up with `makeDestinationAsync(to:)` or `resolveAsync(_:)`; a synchronous lookup fails with ``RouteError/Code/asyncOnly``.
    /// The factory is `nonisolated(nonsending)`: between its awaits it runs on its lookup's executor, so a
    /// lookup made from main-actor code may look main-actor keys up in it.
    /// Async factories support the transient, graph, singleton, eager singleton and request scopes; a
    /// singleton is built once even when many tasks ask at the same time. Preparations stay synchronous.
    /// - Parameters:
    ///   - key: The key the factory serves.
    ///   - file: The registering file, for messages (leave the default).
    ///   - line: The registering line, for messages (leave the default).
    ///   - factory: Makes the destination; may await.
    /// - Returns: The registration, to modify; its scope may be ``Scope/transient`` (default),
    ///   ``Scope/graph``, ``Scope/singleton``, ``Scope/eagerSingleton`` or ``Scope/request``.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed.
    @discardableResult
    public func registerAsync<Destination>(
        _ key: RoutableService<Destination>, file: StaticString = #fileID, line: UInt = #line,
        factory: nonisolated(nonsending) @escaping @Sendable (inout Resolver) async throws -> Destination
    ) throws -> Registration<Destination, Destination> {
        let keyDescription = key.keyDescription
        var spec = RegistrationSpec<Destination> { resolver in
            throw RouteError.asyncOnly(keyDescription, path: resolver.pathHere(keyDescription.short))
        }
        spec.asyncFactory = factory
        return try add(id: key.id, key: keyDescription, file: file, line: line, spec: spec)
    }

    /// Makes the destination of a service key from async code, as
    /// ``makeDestination(to:arguments:isolation:preparation:)`` does from synchronous code: keys with async
    /// factories need this form, keys with plain factories work with it too. (It has its own name so that
    /// `makeDestination` stays synchronous in async code.)
    ///
    /// ```swift
    /// let store = try await registry.makeDestinationAsync(to: .store)
    /// let report = try await registry.makeDestinationAsync(to: .report, arguments: 2026)
    /// ```
    ///
    /// The lookup runs on the caller's executor (the method is `nonisolated(nonsending)`): called from
    /// main-actor code it may make main-actor destinations, there; called from elsewhere, such a key fails
    /// with ``RouteError/Code/mainActorRequired``.
    /// - Parameters:
    ///   - key: The key.
    ///   - arguments: The factory's runtime arguments, in order; none for a registration that takes none.
    ///     The factory may be synchronous or async (``registerAsync(_:arguments:file:line:factory:)``).
    ///   - preparation: The caller's property and method injection, if any; it runs before the
    ///     registration's.
    /// - Returns: The prepared destination.
    /// - Throws: ``RouteError``, as the synchronous form.
    @inlinable
    public nonisolated(nonsending) func makeDestinationAsync<Destination, each Argument>(
        to key: RoutableService<Destination>, arguments: repeat each Argument,
        preparation: ((Destination) throws -> Void)? = nil
    ) async throws -> Destination {
        guard ArgumentList.isEmpty(repeat (each Argument).self), preparation == nil else {
            return try await makeDestinationAsync(
                to: key, arguments: repeat each arguments, preparation: preparation, in: nil,
                onMainActor: MainActorCheck.isMainActor(#isolation))
        }
        // A built singleton, the commonest case, inline in the caller (specialized): no lookup at all. With
        // an override, an async lookup or a trace handler running, or named registrations, the general path
        // decides.
        if let tableRef = tableRef(),
            let found = tableRef.with({ $0.hasNamedKeys ? nil : $0.primaryRefInline(key.id) })
        {
            switch Entry<Destination>.fastCase(found) {
            case .built(let made): return made
            // A transient with nothing to prepare: if its factory is async, a lookup specialized here.
            case .plain:
                return try await Resolver.resolvePlainAsyncTopLevel(
                    key, found, in: tableRef, reporting: self, onMainActor: MainActorCheck.isMainActor(#isolation))
            case .other: break
            }
        }
        return try await makeDestinationAsyncSlow(to: key)
    }

    /// ``makeDestinationAsync(to:arguments:preparation:)`` past its inline fast case: a lookup through the async door.
    @usableFromInline
    nonisolated(nonsending) func makeDestinationAsyncSlow<Destination>(
        to key: RoutableService<Destination>
    ) async throws -> Destination {
        let table: SealedTable
        do {
            table = try self.table()
        } catch {
            throw report(error)
        }
        // The session itself, not `lookupAsync`'s closure (an async frame of its own).
        let session = Resolver.beginAsync(
            in: table, of: self, reporting: true, onMainActor: MainActorCheck.isMainActor(#isolation))
        var resolver = Resolver(state: session.state)
        defer { withExtendedLifetime(table) {} }
        do {
            let made = try await resolver.buildAsync(try resolver.entry(for: key))
            try session.finish(&resolver, of: self)
            session.recycle()
            return made
        } catch {
            let failure = session.fail(error, &resolver, of: self, reporting: true)
            session.recycle()
            throw failure
        }
    }

    /// Runs `body` as an async lookup of this registry through the async door
    /// (``Resolver/lookupAsync(in:of:reporting:onMainActor:_:)``, a session behind a closure), as ``lookup(reporting:onMainActor:_:)``
    /// does for synchronous code.
    @inline(__always)
    nonisolated(nonsending) func lookupAsync<Result>(
        reporting: Bool = true, onMainActor: Bool,
        _ body: nonisolated(nonsending) (inout Resolver) async throws -> Result
    ) async throws -> Result {
        let table: SealedTable
        do {
            table = try self.table()
        } catch {
            throw reporting ? report(error) : error
        }
        return try await Resolver.lookupAsync(
            in: table, of: self, reporting: reporting, onMainActor: onMainActor, body)
    }
}

// MARK: - The async forms of the synchronous lookups

extension Resolver {
    /// The general lookup of ``resolveAsync(_:arguments:preparation:)``: with runtime arguments, a
    /// caller's preparation, or both.
    @usableFromInline
    nonisolated(nonsending) mutating func resolveAsyncGenerally<Destination, each Argument>(
        _ key: RoutableService<Destination>, arguments: repeat each Argument,
        preparation: ((Destination) throws -> Void)?
    ) async throws -> Destination {
        let given = ArgumentList(repeat (each Argument).self)
        guard given.count > 0 else {
            return try await resolveAsyncGenerally(key, given: given, preparation: preparation)
        }
        return try await ArgumentHandoff.withAsync(given, repeat each arguments, making: Destination.self) {
            handoff in
            try await resolveAsyncGenerally(key, given: given, handoff: handoff, preparation: preparation)
        }
    }

    /// ``resolveAsyncGenerally(_:arguments:preparation:)`` once the values are in `handoff` (nil: no
    /// arguments), as `resolveGenerally(_:given:handoff:preparation:)` is for a synchronous lookup.
    nonisolated(nonsending) mutating func resolveAsyncGenerally<Destination>(
        _ key: RoutableService<Destination>, given: ArgumentList, handoff: ArgumentHandoff? = nil,
        preparation: ((Destination) throws -> Void)?
    ) async throws -> Destination {
        guard let handoff else {
            return try await buildAsync(entry(for: key), input: nil, preparation: preparation ?? { _ in })
        }
        let entry = try entry(for: key, taking: given)
        try checkTakesArguments(entry, given: given)
        return try await buildAsync(entry, arguments: handoff, preparation: preparation)
    }

    /// Resolves the destination of a module from an async factory, configured by `configuring` before it
    /// is made, as ``resolve(_:configuring:)`` does in a synchronous factory.
    ///
    /// - Parameters:
    ///   - key: The module key.
    ///   - configuring: Sets the module up, typically with a `construct…` call.
    /// - Returns: The destination.
    /// - Throws: ``RouteError``; ``RouteError/Code/invalidConfiguration`` when a required `construct…`
    ///   call was not made.
    public nonisolated(nonsending) mutating func resolveAsync<Configuration, Destination>(
        _ key: RoutableServiceModule<Configuration, Destination>, configuring: (Configuration) throws -> Void
    ) async throws -> Destination {
        let entry: Entry<Destination> = try moduleEntry(for: key)
        let configuration = try configure(entry, as: Configuration.self, configuring)
        let made = try await buildAsync(entry, input: configuration)
        reportUnreadConstructCalls(configuration, of: entry)
        return made
    }

    /// ``buildAsync(_:)`` with a configuration or arguments handed to the factory that takes them, then the
    /// caller's preparation: the async form of `build(_:input:preparation:)`. (An async factory never
    /// runs inside a preparation, so the caller's preparation always runs before the object's own, which
    /// the lookup's drain runs.)
    nonisolated(nonsending) mutating func buildAsync<Destination>(
        _ entry: Entry<Destination>, arguments handoff: ArgumentHandoff,
        preparation: ((Destination) throws -> Void)? = nil
    ) async throws -> Destination {
        let made = try await state.withArguments(handoff) { try await buildAsync(entry, input: nil) }
        if let preparation { try runCallerPreparation(made, entry, preparation) }
        return made
    }

    /// ``buildAsync(_:)`` with a configuration handed to the factory that takes it, then the caller's
    /// preparation: the async form of `build(_:input:preparation:)`.
    nonisolated(nonsending) mutating func buildAsync<Destination>(
        _ entry: Entry<Destination>, input given: AnyObject?, preparation: (Destination) throws -> Void = { _ in }
    ) async throws -> Destination {
        let made = try await state.withInput(given) { try await buildAsync(entry) }
        try runCallerPreparation(made, entry, preparation)
        return made
    }
}

extension RouteRegistry {
    /// ``makeDestinationAsync(to:arguments:preparation:)`` with arguments or a preparation, run in `scope`
    /// when one is given: the one body of the registry's and ``RequestScope``'s general async lookups. The
    /// lookup enters the scope before it looks the key up, and keeps it to its end (a lookup that ran in no
    /// scope keeps one it entered, `CreationScope.enterRequestScope`), so the preparations it drains see it too.
    @usableFromInline
    nonisolated(nonsending) func makeDestinationAsync<Destination, each Argument>(
        to key: RoutableService<Destination>, arguments: repeat each Argument,
        preparation: ((Destination) throws -> Void)?, in scope: RequestScope?, onMainActor: Bool
    ) async throws -> Destination {
        let given = ArgumentList(repeat (each Argument).self)
        // The lookup, in `scope` when one is given, with the values in `handoff` (nil: no arguments).
        nonisolated(nonsending) func lookup(_ handoff: ArgumentHandoff?) async throws -> Destination {
            try await lookupAsync(onMainActor: onMainActor) { resolver in
                let replaced = scope.flatMap { resolver.state.creation.enterRequestScope($0) }
                defer { resolver.state.creation.leaveRequestScope(replaced) }
                return try await resolver.resolveAsyncGenerally(
                    key, given: given, handoff: handoff, preparation: preparation)
            }
        }
        guard given.count > 0 else { return try await lookup(nil) }
        return try await ArgumentHandoff.withAsync(given, repeat each arguments, making: Destination.self) {
            handoff in try await lookup(handoff)
        }
    }

    /// Makes the destination of a module key from async code, configured first, as
    /// ``makeDestination(to:isolation:configuring:)`` does from synchronous code: the configuration's
    /// success or failure handler runs once the whole lookup has ended.
    ///
    /// - Parameters:
    ///   - key: The module key.
    ///   - configuring: Sets the module up: `construct…` calls, handlers.
    /// - Returns: The prepared destination.
    /// - Throws: ``RouteError``; ``RouteError/Code/invalidConfiguration`` when a required `construct…`
    ///   call was not made, in which case no destination is made.
    public nonisolated(nonsending) func makeDestinationAsync<Configuration, Destination>(
        to key: RoutableServiceModule<Configuration, Destination>, configuring: (Configuration) throws -> Void
    ) async throws -> Destination {
        var configuration: ModuleConfiguration<Destination>?
        do {
            let made = try await lookupAsync(onMainActor: MainActorCheck.isMainActor(#isolation)) { resolver in
                let entry = try resolver.moduleEntry(for: key)
                let made = try resolver.configure(entry, as: Configuration.self, configuring)
                configuration = made
                let built = try await resolver.buildAsync(entry, input: made)
                resolver.reportUnreadConstructCalls(made, of: entry)
                return built
            }
            configuration?.finish(.success(made))
            return made
        } catch let error as RouteError {
            configuration?.finish(.failure(error))
            throw error
        }
    }
}
