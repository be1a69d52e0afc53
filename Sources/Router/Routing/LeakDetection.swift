import Synchronization

extension RouteRegistry {
    /// When set, each destination a ``Route`` removes is checked after this delay: if it is still alive,
    /// the registry's ``errorHandler`` receives a ``RouteError/Code/destinationLeaked`` error naming it.
    /// Off (nil) by default. Child registries use their parent's setting unless they set their own.
    public var leakCheckDelay: Duration? {
        get { routing.withLock { $0.leakCheckDelay } ?? parent?.leakCheckDelay }
        set { routing.withLock { $0.leakCheckDelay = newValue } }
    }

    /// Waits until every leak check scheduled so far has run. Tests use it instead of sleeping.
    public func waitForLeakChecks() async {
        let checks = routing.withLock { state -> [Task<Void, Never>] in
            let checks = state.leakChecks
            state.leakChecks = []
            return checks
        }
        for check in checks { await check.value }
    }

    func scheduleLeakCheck(of object: AnyObject, key: String) {
        guard let delay = leakCheckDelay else { return }
        let watched = WeakReference(object)
        let typeName = TypeName.of(type(of: object))
        let check = Task { [self] in
            try? await Task.sleep(for: delay)
            guard watched.isAlive else { return }
            notify(
                RouteError(
                    .destinationLeaked, key: key,
                    reason: "The destination \(typeName) of \(key) was removed but is still alive after \(delay).",
                    hint: "Look for a strong reference to it: a closure capturing it, a delegate, a cache."))
        }
        routing.withLock { $0.leakChecks.append(check) }
    }
}

/// A weak reference that can cross to the leak-check task.
final class WeakReference: @unchecked Sendable {
    // @unchecked: the weak reference is only loaded to test for nil; the object is never used.
    private weak var object: AnyObject?
    init(_ object: AnyObject) { self.object = object }
    var isAlive: Bool { object != nil }
}
