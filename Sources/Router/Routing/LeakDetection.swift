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
        let checks = routing.withLock { Array($0.leakChecks.values) }
        for check in checks { await check.value }
    }

    /// How many leak checks are scheduled and have not finished yet. A check forgets itself when it
    /// finishes, so this goes back to zero once the delay has passed after the last removal.
    public var pendingLeakChecks: Int { routing.withLock { $0.leakChecks.count } }

    func scheduleLeakCheck(of object: AnyObject, key: String) {
        guard let delay = leakCheckDelay else { return }
        let watched = WeakReference(object)
        let typeName = TypeName.of(type(of: object))
        // The task is made and filed under the routing lock, and removes itself under the same lock when
        // it finishes: its removal therefore always comes after its filing, and nothing is kept once it
        // has run (before, every removed route kept its finished task until the registry died).
        routing.withLock { state in
            let number = state.nextLeakCheck
            state.nextLeakCheck += 1
            state.leakChecks[number] = Task { [self] in
                try? await Task.sleep(for: delay)
                if watched.isAlive {
                    notify(RouteError.destinationLeaked(key, typeName: typeName, after: delay))
                }
                routing.withLock { _ = $0.leakChecks.removeValue(forKey: number) }
            }
        }
    }
}

/// A weak reference that can cross to the leak-check task.
final class WeakReference: @unchecked Sendable {
    // @unchecked: the weak reference is only loaded to test for nil; the object is never used.
    private weak var object: AnyObject?
    init(_ object: AnyObject) { self.object = object }
    var isAlive: Bool { object != nil }
}
