/// The registry that ``Injected`` properties of an object made outside any lookup resolve from: the one a
/// task bound (``RouteRegistry/withInjectionBinding(operation:)-hmwp``), else the one bound for the
/// process (``RouteRegistry/bindForInjection()``), else none.
enum InjectionBinding {
    /// What a task states about the binding; nil (the default) defers to the process's.
    enum Scoped: Sendable {
        /// This registry, whatever the process binds.
        case bound(RouteRegistry)
        /// No registry, whatever the process binds.
        case unbound
    }

    /// The task's binding: set by `withInjectionBinding` / `withoutInjectionBinding`, inherited by the tasks
    /// started inside, as task-locals are. (On a thread no task runs, it is the thread's, for the call.)
    @TaskLocal static var scoped: Scoped?

    /// The process's binding. Read only for an `@Injected` property made outside any lookup, so the lock is
    /// off every lookup's path.
    static let process = Locked<RouteRegistry?>(nil)

    /// The registry in force for the current task: its own binding, else the process's.
    static var current: RouteRegistry? {
        switch scoped {
        case .bound(let registry): return registry
        case .unbound: return nil
        case nil: return process.withLock { $0 }
        }
    }
}

extension RouteRegistry {
    /// Binds this registry for the whole process as the one ``Injected`` properties resolve from when
    /// their object is made outside any lookup: by hand, in a test, a preview, or by a UI framework.
    ///
    /// ```swift
    /// let registry = try RouteRegistry(modules: [AppModule()])
    /// registry.bindForInjection()  // once, at launch
    /// let model = DashboardModel()  // made by hand: its @Injected properties resolve in registry
    /// ```
    ///
    /// Each such property is then a top-level lookup of this registry, as `makeDestination(to:)` is: its
    /// failure is reported to the ``errorHandler``, overrides in force for the task apply, and a singleton
    /// is this registry's singleton. An object made inside a lookup still joins that lookup, whatever is
    /// bound; a task's own binding (``withInjectionBinding(operation:)-hmwp``) wins over this one.
    ///
    /// Binding again replaces the binding: the registry bound last is the one resolved from. The process
    /// binding keeps the registry alive until it is replaced or ``unbindForInjection()`` removes it. Tests
    /// running in parallel should bind with ``withInjectionBinding(operation:)-hmwp`` instead, which is
    /// scoped to the test's task.
    public func bindForInjection() {
        InjectionBinding.process.withLock { $0 = self }
    }

    /// Removes the process binding if it is this registry (``bindForInjection()``); a binding of another
    /// registry stays, so a caller unbinding its own registry cannot remove one bound since.
    /// - Returns: Whether this registry was bound and now is not.
    @discardableResult
    public func unbindForInjection() -> Bool {
        InjectionBinding.process.withLock { bound in
            guard bound === self else { return false }
            bound = nil
            return true
        }
    }

    /// The registry an ``Injected`` property made outside any lookup resolves from, in the current task:
    /// the task's binding, else the process's; nil when there is none (or the task stated none with
    /// ``withoutInjectionBinding(operation:)-7jbho``).
    public static var boundForInjection: RouteRegistry? { InjectionBinding.current }

    /// Binds this registry, for the duration of `operation` and in this task and the tasks it starts
    /// only, as the one ``Injected`` properties resolve from when their object is made outside any
    /// lookup. It wins over the process binding (``bindForInjection()``); the innermost call wins.
    ///
    /// This is the binding for tests and previews: tests running in parallel, each in its own
    /// `withInjectionBinding`, never see each other's registry.
    ///
    /// ```swift
    /// let model = registry.withInjectionBinding { DashboardModel() }
    /// ```
    /// - Parameter operation: The code whose hand-made objects resolve in this registry.
    /// - Returns: What `operation` returns.
    /// - Throws: Whatever `operation` throws.
    public func withInjectionBinding<Result>(operation: () throws -> Result) rethrows -> Result {
        try InjectionBinding.$scoped.withValue(.bound(self), operation: operation)
    }

    /// Binds this registry for the duration of an async `operation`, in this task and its child tasks,
    /// as ``withInjectionBinding(operation:)-hmwp`` does for a synchronous one.
    ///
    /// Runs on the caller's executor (`nonisolated(nonsending)`): from main-actor code, `operation` runs
    /// on the main actor.
    /// - Parameter operation: The code whose hand-made objects resolve in this registry.
    /// - Returns: What `operation` returns.
    /// - Throws: Whatever `operation` throws.
    public nonisolated(nonsending) func withInjectionBinding<Result>(
        operation: nonisolated(nonsending) () async throws -> Result
    ) async rethrows -> Result {
        try await InjectionBinding.$scoped.withValue(.bound(self)) { try await operation() }
    }

    /// Runs `operation` with no registry bound for injection in this task and the tasks it starts, even
    /// if one is bound for the process: an ``Injected`` property made outside any lookup during it is an
    /// ``RouteError/Code/injectedOutsideLookup`` error. For tests of that path, which stay deterministic
    /// while other tests bind a registry.
    /// - Parameter operation: The code that sees no binding.
    /// - Returns: What `operation` returns.
    /// - Throws: Whatever `operation` throws.
    public static func withoutInjectionBinding<Result>(operation: () throws -> Result) rethrows -> Result {
        try InjectionBinding.$scoped.withValue(.unbound, operation: operation)
    }

    /// Runs an async `operation` with no registry bound for injection in this task and its child tasks,
    /// as ``withoutInjectionBinding(operation:)-7jbho`` does for a synchronous one.
    /// - Parameter operation: The code that sees no binding.
    /// - Returns: What `operation` returns.
    /// - Throws: Whatever `operation` throws.
    public static nonisolated(nonsending) func withoutInjectionBinding<Result>(
        operation: nonisolated(nonsending) () async throws -> Result
    ) async rethrows -> Result {
        try await InjectionBinding.$scoped.withValue(.unbound) { try await operation() }
    }
}
