/// Every sentence a registry says about its phases: a registration once it is sealed, a lookup before it
/// is, resetting singletons, and shutting down. The tests in `ShutdownTests`, `SingletonResetTests` and
/// `ErrorMessageTests` pin the exact texts.
extension RouteError {
    /// A registration of `key`, or a change to one, made once the registry is sealed.
    static func registeredAfterSeal(_ key: String) -> RouteError {
        RouteError(
            .registrationAfterSeal, key: key,
            reason: "Cannot register \(key): the registry is already sealed.",
            hint: "Register every router in a RouteModule before seal(), or use a child registry.")
    }

    /// A path pattern, `pattern`, registered once the registry is sealed.
    static func pathRegisteredAfterSeal(_ pattern: String) -> RouteError {
        RouteError(
            .registrationAfterSeal, key: "\"\(pattern)\"",
            reason: "Cannot register the path \"\(pattern)\": the registry is already sealed.",
            hint: "Register every path in a RouteModule before seal(), or use a child registry.")
    }

    /// A module, `key`, loaded once the registry is sealed.
    static func loadedAfterSeal(_ key: String) -> RouteError {
        RouteError(
            .registrationAfterSeal, key: key, reason: "Cannot load \(key): the registry is already sealed.",
            hint: "Load every module before seal(), or use a child registry.")
    }

    /// A lookup made before the registry was sealed.
    static func notSealedForLookups() -> RouteError {
        RouteError(
            .notSealed, key: "RouteRegistry", reason: "The registry is not sealed yet, so it cannot make destinations.",
            hint: "Call seal() after loading every module, or make the registry with RouteRegistry(modules:).")
    }
}

// MARK: Resets

extension RouteError {
    /// `resetSingletons` asked to reset `key` before the registry was sealed.
    static func notSealedForReset(_ key: String) -> RouteError {
        RouteError(
            .notSealed, key: key, reason: "The registry is not sealed yet, so it has no singletons to reset.",
            hint: "Call seal() first; a registry that is not sealed has built nothing.")
    }

    /// `resetSingletons` asked to reset `entry`, which is not a resettable singleton.
    static func notResettable(_ entry: AnyEntry) -> RouteError {
        RouteError(
            .captiveDependency, key: entry.key.full, path: [entry.key.short],
            reason:
                "\(entry.key.full) is \(entry.scope.phrase), not a resettable singleton, so resetSingletons cannot release its instance.",
            hint: "Register it with .resettable() (\(entry.owner)), or use a CustomScope and reset that.")
    }

    /// A reset released `entry`, whose teardown is async, which the reset cannot await: reported to the
    /// error handler.
    static func resetCannotAwaitTeardown(_ entry: AnyEntry) -> RouteError {
        RouteError(
            .teardownFailed, key: entry.key.full,
            reason:
                "resetSingletons() released \(entry.key.full), whose teardown is async, which a reset cannot await: it did not run.",
            hint:
                "Give \(entry.key.short) a synchronous teardown, or tear the instance down yourself before the reset."
        )
    }
}

// MARK: Shutdown

extension RouteError {
    /// A singleton, `key`, whose factory returned after shutdown began: it was torn down at once, and its
    /// lookup fails with this.
    static func shutDownWhileMaking(_ key: String) -> RouteError {
        RouteError(
            .shutDown, key: key, reason: "The registry shut down while \(key) was being made, so it was torn down.",
            hint: "Make lookups before shutdown(), or in a new registry.")
    }

    /// The synchronous `shutdown()` met `entry`'s async teardown, which it cannot await.
    static func shutdownCannotAwaitTeardown(_ entry: AnyEntry) -> RouteError {
        RouteError(
            .teardownFailed, key: entry.key.full,
            reason: "\(entry.key.full) has an async teardown, which shutdown() cannot await.",
            hint: "Call try await registry.shutdownAsync().")
    }

    /// The teardown of `entry` threw `error` (in a shutdown or a reset).
    static func teardownFailure(_ entry: AnyEntry, _ error: any Error) -> RouteError {
        RouteError(
            .teardownFailed, key: entry.key.full, reason: "The teardown of \(entry.key.full) threw \(error).",
            hint: "It was torn down from \(entry.owner); the other teardowns ran.", underlyingError: error)
    }

    /// A shutdown in which several teardowns failed: `failures`, each the error listed and what its teardown
    /// threw, the first one's kept as the error's `underlyingError`.
    static func teardownsFailed(_ failures: [(RouteError, any Error)]) -> RouteError {
        let listed = failures.map { "- \($0.0.description)" }.joined(separator: "\n")
        return RouteError(
            .teardownFailed, key: "RouteRegistry",
            reason: "shutdown() ran every teardown, and \(failures.count) failed:\n\(listed)",
            hint: "Each failure's error is in its line; the first is this error's underlyingError.",
            underlyingError: failures.first?.1)
    }
}
