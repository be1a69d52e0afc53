import Synchronization

extension RouteRegistry {
    /// Validates the registrations, builds eager singletons and makes the registry read-only.
    ///
    /// Sealing a sealed registry does nothing. When validation finds problems, the registry stays open
    /// so they can be fixed, and the error lists every one.
    ///
    /// Sealing is safe to race: a `register` or `load` made while another thread seals either lands in
    /// the sealed table or throws ``RouteError/Code/registrationAfterSeal``; a second thread calling
    /// `seal()` waits for the first and returns once the registry is sealed (or seals it itself if the
    /// first failed). Only the sealing thread itself, calling `seal()` again from a factory that runs
    /// during sealing, gets ``RouteError/Code/sealInProgress``.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/validationFailed``, or
    ///   ``RouteError/Code/sealInProgress`` when called from a factory that runs during sealing.
    public func seal() throws {
        if isSealed { return }
        let thread = CurrentThread.id
        // Only this thread ever stores its own id, so seeing it means this call is nested in its own seal.
        if sealingThread.load(ordering: .acquiring) == thread {
            throw RouteError.sealInProgress()
        }
        sealLock.lock()
        defer { sealLock.unlock() }
        // Another thread may have sealed while this one waited for the lock.
        if isSealed { return }
        sealingThread.store(thread, ordering: .releasing)
        defer { sealingThread.store(0, ordering: .releasing) }
        // Leave the open phase before `makeTable` takes the assembly lock for its snapshot: see
        // `isAcceptingRegistrations`.
        phase.store(Phase.sealing.rawValue, ordering: .releasing)
        let table: SealedTable
        let report: ValidationReport
        do {
            (table, report) = try makeTable()
        } catch {
            phase.store(Phase.open.rawValue, ordering: .releasing)
            throw error
        }
        if !report.isValid {
            phase.store(Phase.open.rawValue, ordering: .releasing)
            throw RouteError.sealingFailed(report)
        }
        do {
            try buildEagerSingletons(in: table)
        } catch {
            phase.store(Phase.open.rawValue, ordering: .releasing)
            throw error
        }
        publishSealedTable(table)
        phase.store(Phase.sealed.rawValue, ordering: .releasing)
        // Warnings do not stop sealing; the error handler sees each (and `validate()` lists them).
        for warning in report.warnings { _ = self.report(warning) }
    }

    /// Checks the registrations without sealing: every problem sealing would report.
    /// - Returns: The report; ``ValidationReport/isValid`` is true when sealing would succeed.
    /// - Throws: ``RouteError`` when the parent registry is not sealed.
    public func validate() throws -> ValidationReport {
        if isSealed, let table = sealedTable { return Validator(table: table, assembly: nil).report() }
        return try makeTable().1
    }

    private func makeTable() throws -> (table: SealedTable, report: ValidationReport) {
        var parentTable: SealedTable?
        if let parent {
            // The phase first: `sealedTable` is written before the releasing store of `sealed`, so it may be
            // read only after an acquiring load has seen that store (a parent sealing right now reads as
            // not sealed).
            guard parent.isSealed, let table = parent.sealedTable else {
                throw RouteError.parentNotSealed()
            }
            parentTable = table
        }
        let snapshot = withAssembly { $0 }
        // The registrations that serve a registration's other keys (`Registration.also`) are made now that the
        // registration itself can no longer change, and filed right after it: a many-lookup returns a key's
        // registrations in the order they were registered, whichever key each was registered for.
        let table = SealedTable(
            entries: AnyEntry.filed(snapshot.entries), parent: parentTable, maxDepth: maxDepth, tracer: tracer,
            paths: snapshot.paths, reporter: self)
        return (table, Validator(table: table, assembly: snapshot).report())
    }

    private func buildEagerSingletons(in table: SealedTable) throws {
        guard table.features.eagerSingletons else { return }
        // An async one is built by `warmUp()`: synchronous code cannot await its factory.
        for entry in table.entries where entry.scope.kind == .eagerSingleton && !entry.isAsync {
            do {
                _ = try Resolver.lookup(in: Borrowed(table), reporting: nil) { resolver in
                    try entry.buildErased(&resolver)
                }
            } catch let error as RouteError {
                let failure = RouteError.eagerSingletonFailed(entry, error)
                // A top-level lookup like any other: the error handler sees it, once.
                errorHandler?(failure)
                throw failure
            }
        }
    }
}

extension RouteRegistry {
    /// Builds every eager singleton with an async factory, after ``seal()`` (which builds the synchronous
    /// ones but cannot await): the start-up step of a registry with async eager singletons.
    ///
    /// ```swift
    /// try registry.registerAsync(.database) { _ async throws in try await Database.open() }
    ///     .scope(.eagerSingleton)
    /// try registry.seal()
    /// try await registry.warmUp()
    /// ```
    ///
    /// Each is built once, as any singleton: a lookup racing the call shares its build. A synchronous factory
    /// may then declare an edge to one (sealing accepts it), and its lookups find it built. Every failure is
    /// collected: the call throws one error that lists each, after trying them all, and a failed one is
    /// built again by its next lookup.
    /// - Throws: ``RouteError``: ``RouteError/Code/notSealed`` before ``seal()``; otherwise
    ///   ``RouteError/Code/validationFailed`` listing each failed build (each also reaches the error
    ///   handler).
    public nonisolated(nonsending) func warmUp() async throws {
        let table = try self.table()
        var failures: [RouteError] = []
        for entry in table.entries where entry.scope.kind == .eagerSingleton && entry.isAsync {
            do {
                _ = try await lookupAsync(onMainActor: MainActorCheck.isMainActor(#isolation)) { resolver in
                    try await entry.buildAsyncErased(&resolver)
                }
            } catch let error as RouteError {
                failures.append(error)
            }
        }
        guard !failures.isEmpty else { return }
        throw RouteError.warmUpFailed(failures)
    }
}
