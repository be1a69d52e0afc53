// Resetting singletons (Swinject's `resetObjectScope(.container)`, on sign-out): the registrations that
// opt in with `resettable()`, their generations, and the registry's `resetSingletons` calls.
//
// A plain singleton's cell never changes, so that a built one is read with one acquiring load and no
// reference count (`Entry.builtSingleton`); nothing could then tell a reset when a reader is done with the
// old instance. A resettable singleton instead keeps its instance in the cell of the current generation,
// which a lookup takes retained, under a lock (`SingletonGenerations.current`): a reset swaps in an empty
// cell and releases the old one (`SharedCell.release`): the old cell serves nothing from then on, and an
// instance whose build in it finishes later is torn down by its own lookup, which then reads or builds the
// current generation's (see Shutdown.swift). Building and publishing in a cell is the creation protocol's,
// as for any shared instance, so each generation's factory runs once.

/// The generations of one resettable singleton: the cell its lookups use now.
@usableFromInline
final class SingletonGenerations<Value>: Sendable {
    private let cell = Locked(SharedCell<Value>())

    private init() {}

    /// Generations for a registration made from `spec`, if it is a resettable singleton.
    static func make(for spec: RegistrationSpec<Value>) -> SingletonGenerations? {
        isResettable(spec) ? SingletonGenerations() : nil
    }

    /// Whether `spec` is a resettable singleton: ``Registration/resettable()`` on a singleton or eager
    /// singleton (a later `.scope(_:)` to another scope makes it an ordinary registration of that scope).
    static func isResettable(_ spec: RegistrationSpec<Value>) -> Bool {
        spec.isResettable && (spec.scope.kind == .singleton || spec.scope.kind == .eagerSingleton)
    }

    /// The current generation's cell, retained: the caller reads or builds in it, and keeps what it read
    /// alive, whatever resets happen meanwhile.
    var current: SharedCell<Value> { cell.withLock { $0 } }

    /// Starts a new generation: lookups from now on build and share a new instance. Releases the old
    /// cell (see ``SharedCell/release()``) and returns the instance it held, if one was published: the
    /// caller owns its teardown, and drops it outside the lock.
    func reset() -> Value? {
        let fresh = SharedCell<Value>()
        let old = cell.withLock { current in
            let old = current
            current = fresh
            return old
        }
        return old.release()
    }

    /// Starts a new generation if `published` is still the current generation's cell: withdraws an
    /// instance published in a group another member of which landed in a released generation
    /// (``CreationTransaction/publishWhole(_:)``). Returns the instance the released cell held, if this
    /// call released it: the caller owns its teardown.
    func withdraw(_ published: CreationCell) -> Value? {
        let fresh = SharedCell<Value>()
        let old: SharedCell<Value>? = cell.withLock { current in
            guard current === published else { return nil }
            let old = current
            current = fresh
            return old
        }
        return old?.release()
    }

    /// Publishes this registration's built instance, if any, in `copy`'s cell (an override layer's copy
    /// of the registration shares the instance built before it, as it shares a plain singleton's).
    func seed(_ copy: SingletonGenerations<Value>) {
        guard let live = current.instance else { return }
        let target = copy.current
        CreationCoordinator.run { _ in _ = target.publish(live) }
    }
}

/// A registration that may be a resettable singleton, seen without its destination type.
protocol ResettableRegistration: AnyObject {
    /// Whether it is a resettable singleton.
    var isResettable: Bool { get }
    /// Starts a new generation; returns the instance the old one held, if one was published, for the
    /// caller to tear down and drop after every reset.
    func startGeneration() -> Any?
}

extension Entry: ResettableRegistration {
    var isResettable: Bool { resets != nil }

    func startGeneration() -> Any? {
        guard let made = resets?.reset() else { return nil }
        return made
    }
}

extension AnyEntry {
    /// Whether this is a resettable singleton (``Registration/resettable()``).
    var isResettableSingleton: Bool { (self as? any ResettableRegistration)?.isResettable ?? false }
}

extension Registration {
    /// Makes the registration a singleton that ``RouteRegistry/resetSingletons()`` can release, on sign-out
    /// for example (Swinject's `resetObjectScope(.container)`).
    ///
    /// ```swift
    /// try registry.register(.session) { _ in UserSession() }.resettable()
    /// // … sign out:
    /// registry.resetSingletons()
    /// ```
    ///
    /// It is a singleton (an eager singleton stays eager) whose lookups read the current generation's
    /// instance, retained, under a lock: a built one costs a lookup about what a first lookup costs, instead
    /// of a plain singleton's one load. A singleton that depends on it must be resettable too (sealing
    /// reports it as a ``RouteError/Code/captiveDependency``), and a reset of it resets them. A later
    /// ``scope(_:)`` to any other scope makes it an ordinary registration of that scope.
    /// - Returns: This registration, for the next modifier.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed.
    @discardableResult
    public func resettable() throws -> Self {
        try change { spec in
            spec.isResettable = true
            if spec.scope.kind != .eagerSingleton { spec.scope = .singleton }
        }
    }
}

extension RouteRegistry {
    /// Releases the instance of every resettable singleton this registry registered
    /// (``Registration/resettable()``); the next lookup of each builds a new one, once.
    ///
    /// What a lookup racing the reset sees, for each key: the old instance or the new one, whole (never one
    /// that is still being built, and never two new ones: each generation's factory runs once, and lookups
    /// that start after the call returns share the new generation's instance). A lookup that had started
    /// building the old instance finishes the build; when the registration declares a teardown, the
    /// instance is torn down at once, once, and the lookup returns the new generation's (pinned by
    /// `aResetWhileTheInstanceIsBeingBuiltTearsItDownOnceAndTheLookupGetsTheNewGeneration`), otherwise it
    /// returns what it built; lookups that waited for it read or build the new generation's. The old
    /// instance is released when the last lookup that holds it ends. A reset from inside a factory or
    /// preparation is allowed: the running lookup finishes as above (one that resets its own registration
    /// with a teardown at every build ends with ``RouteError/Code/scopeClosed``, each instance torn down:
    /// pinned by `aFactoryThatResetsItsOwnRegistrationAtEveryBuildEndsWithScopeClosedAndEveryInstanceTornDown`).
    ///
    /// Each released instance whose registration declares a synchronous `teardown(_:)` is torn down, once,
    /// dependents first, before the call returns (a lookup racing the reset may still hold it then); the
    /// new instance is torn down by `shutdown()` as any singleton. A reset during shutdown tears down what it
    /// releases, and shutdown does not again (pinned by `aResetDuringShutdownTearsTheReleasedInstanceDownOnce`).
    /// A teardown that throws, or an async one, which a reset cannot await, reaches the error handler as
    /// ``RouteError/Code/teardownFailed``.
    ///
    /// Before ``seal()`` there is nothing to reset, and the call does nothing.
    /// - Returns: How many registrations were reset.
    @discardableResult
    public func resetSingletons() -> Int {
        guard isSealed, let table = sealedTable else { return 0 }
        return resetInOrder(table.entries.filter(\.isResettableSingleton), in: table)
    }

    /// Releases the instance of the resettable singleton registered for `key` in this registry, and of
    /// every resettable singleton that depends on it (through declared dependencies, directly or not), so
    /// that none keeps the old instance. See ``resetSingletons()`` for what racing lookups see.
    ///
    /// ```swift
    /// try registry.resetSingletons(.session)
    /// ```
    /// - Parameter key: The key of a registration made `.resettable()`.
    /// - Returns: How many registrations were reset: the key's and its dependents'.
    /// - Throws: ``RouteError``: ``RouteError/Code/notSealed`` before ``seal()``,
    ///   ``RouteError/Code/unregisteredKey`` when this registry has no registration for `key`,
    ///   ``RouteError/Code/captiveDependency`` when it is not a resettable singleton.
    @discardableResult
    public func resetSingletons<Destination>(_ key: RoutableService<Destination>) throws -> Int {
        let table = try sealedForReset(key.keyDescription.full)
        let own = Set(table.entries.map(ObjectIdentifier.init))
        let found = table.allEntries(for: key.id, name: key.name).filter { own.contains(ObjectIdentifier($0)) }
        guard !found.isEmpty else {
            throw table.missingError(key.id, key: key.keyDescription, path: [key.keyDescription.short])
        }
        let resettable = found.filter(\.isResettableSingleton)
        guard !resettable.isEmpty else { throw RouteError.notResettable(found[0]) }
        return resetInOrder(withDependents(resettable, in: table), in: table)
    }

    /// Releases the instances of the resettable singletons `module` registered in this registry, and of
    /// every resettable singleton that depends on them. See ``resetSingletons()`` for what racing lookups
    /// see.
    ///
    /// ```swift
    /// try registry.resetSingletons(registeredBy: AccountModule.self)
    /// ```
    /// - Parameter module: A module loaded into this registry.
    /// - Returns: How many registrations were reset (none when the module registered no resettable
    ///   singleton).
    /// - Throws: ``RouteError`` with code ``RouteError/Code/notSealed`` before ``seal()``.
    @discardableResult
    public func resetSingletons(registeredBy module: any RouteModule.Type) throws -> Int {
        let name = TypeName.of(module)
        let table = try sealedForReset(name)
        let registered = table.entries.filter { $0.site.module == name && $0.isResettableSingleton }
        return resetInOrder(withDependents(registered, in: table), in: table)
    }

    private func sealedForReset(_ key: String) throws -> SealedTable {
        guard isSealed, let table = sealedTable else {
            throw RouteError.notSealedForReset(key)
        }
        return table
    }

    /// `roots` and every resettable singleton of this table that depends on one of them, through declared
    /// dependencies of any kind, directly or not.
    private func withDependents(_ roots: [AnyEntry], in table: SealedTable) -> [AnyEntry] {
        var chosen = Set(roots.map(ObjectIdentifier.init))
        var result = roots
        var changed = !roots.isEmpty
        let candidates = table.entries.filter(\.isResettableSingleton)
        while changed {
            changed = false
            for candidate in candidates where !chosen.contains(ObjectIdentifier(candidate)) {
                let reaches = candidate.dependencies.contains { dependency in
                    table.allEntries(for: dependency.id).contains { chosen.contains(ObjectIdentifier($0)) }
                }
                if reaches {
                    chosen.insert(ObjectIdentifier(candidate))
                    result.append(candidate)
                    changed = true
                }
            }
        }
        return result
    }

    /// Resets `entries`, each registration's dependencies before it (so that a lookup that gets a
    /// dependent's new instance built it from its dependencies' new ones), then releases the old instances
    /// nobody uses, after every reset.
    private func resetInOrder(_ entries: [AnyEntry], in table: SealedTable) -> Int {
        let members = Set(entries.map(ObjectIdentifier.init))
        var visited = Set<ObjectIdentifier>()
        var ordered: [AnyEntry] = []
        // Depth first, dependencies first, with an explicit stack (a declared chain may be long); a cycle
        // (through property edges) is cut where it is met.
        for root in entries where !visited.contains(ObjectIdentifier(root)) {
            var stack: [(entry: AnyEntry, expanded: Bool)] = [(root, false)]
            while let (entry, expanded) = stack.popLast() {
                if expanded {
                    ordered.append(entry)
                    continue
                }
                guard visited.insert(ObjectIdentifier(entry)).inserted else { continue }
                stack.append((entry, true))
                for dependency in entry.dependencies.reversed() {
                    for target in table.allEntries(for: dependency.id)
                    where members.contains(ObjectIdentifier(target)) && !visited.contains(ObjectIdentifier(target)) {
                        stack.append((target, false))
                    }
                }
            }
        }
        var released: [(entry: AnyEntry, instance: Any)] = []
        resetLock.lock()
        for entry in ordered {
            if let old = (entry as? any ResettableRegistration)?.startGeneration() { released.append((entry, old)) }
        }
        resetLock.unlock()
        // Their teardowns run once each, dependents first, outside every lock, on the caller's thread; then
        // the old instances nobody holds go.
        tearDownReleased(released)
        released.removeAll()
        return ordered.count
    }
}

extension Validator {
    /// A singleton that is not resettable, depending on a resettable one: it would keep the old instance
    /// after a reset. (A weak singleton or a custom scope's instance keeps it until it is released or its
    /// scope is reset, as it would keep any singleton.)
    func resettableCaptives() -> [RouteError] {
        var problems: [RouteError] = []
        for entry in table.entries where entry.scope.kind == .singleton || entry.scope.kind == .eagerSingleton {
            guard !entry.isResettableSingleton else { continue }
            for dependency in entry.dependencies where dependency.kind != .lazy {
                guard let target = table.primary(dependency.id, name: dependency.key.name),
                    target.isResettableSingleton
                else { continue }
                problems.append(RouteError.resettableCaptive(entry, on: target))
            }
        }
        return problems
    }
}
