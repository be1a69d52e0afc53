import Router
import Testing

// Issue 44: a request scope guards its state (its cells and supplied values) with a lock of its own, not the
// creation coordinator's process-wide lock. These scenarios try to break that locking the way a user would:
// many threads opening, supplying, looking up and ending scopes at once, and an instance released by `end()`
// whose deinit looks things up through the same registry and through other scopes.

private protocol LockProbeInfo: Sendable { var serial: Int { get } }
private struct LockProbeInfoValue: LockProbeInfo { let serial: Int }

/// A request-scoped instance that counts its deinits, and may run a lookup from its deinit.
private final class LockProbeUnit: Sendable {
    let info: any LockProbeInfo
    let freed: Counter
    let onDeinit: @Sendable () -> Void
    init(info: any LockProbeInfo, freed: Counter, onDeinit: @escaping @Sendable () -> Void = {}) {
        self.info = info
        self.freed = freed
        self.onDeinit = onDeinit
    }
    deinit {
        onDeinit()
        freed.increment()
    }
}

private final class LockProbeSingleton: Sendable {}
private final class LockProbeTransient: Sendable {}

extension RoutableService where Destination == any LockProbeInfo {
    fileprivate static var lockProbeInfo: Self { Self(declaring: (any LockProbeInfo).self) }
}
extension RoutableService where Destination == LockProbeUnit {
    fileprivate static var lockProbeUnit: Self { Self(declaring: LockProbeUnit.self) }
}
extension RoutableService where Destination == LockProbeSingleton {
    fileprivate static var lockProbeSingleton: Self { Self(declaring: LockProbeSingleton.self) }
}
extension RoutableService where Destination == LockProbeTransient {
    fileprivate static var lockProbeTransient: Self { Self(declaring: LockProbeTransient.self) }
}

/// One scope of the race, with the serial its supplied value carries and the unit its lookups got.
private final class RacedScope: Sendable {
    let scope: RequestScope
    let serial: Int
    let unit = TestLocked<ObjectIdentifier?>(nil)
    init(_ scope: RequestScope, serial: Int) {
        self.scope = scope
        self.serial = serial
    }
}

struct RequestScopeLockTests {
    /// Six threads share eight slots of scopes; each step opens a scope into a slot (ending the one it replaces),
    /// supplies a slot's scope, looks a request-scoped instance up in it, reads its count, or ends it. Each
    /// lookup gets its own scope's instance or a typed error, each scope makes at most one instance, and every
    /// instance made is released once every scope is ended.
    @Test func scopesOpenedSuppliedLookedUpAndEndedOnManyThreadsAtOnceStayApart() throws {
        let made = Counter()
        let freed = Counter()
        let registry = try sealedRegistry { registry in
            try registry.registerSupplied(.lockProbeInfo)
            try registry.register(.lockProbeUnit) { r in
                let info = try r.resolve(.lockProbeInfo)
                made.increment()
                return LockProbeUnit(info: info, freed: freed)
            }.scope(.request).dependencies(.initializer(.lockProbeInfo))
        }
        let serials = Counter()
        let slots = TestLocked<[RacedScope?]>(Array(repeating: nil, count: 8))
        let opened = TestLocked<[RacedScope]>([])
        let wrong = TestLocked<[String]>([])
        let lookedUp = Counter()
        finishesOnItsOwnThread(bound: 120) {
            onThreads(6) { thread in
                var random = RelSplitMix64(seed: UInt64(thread + 1))
                for _ in 0..<1_500 {
                    let slot = random.below(8)
                    let action = random.below(8)
                    if action == 0 {
                        let fresh = RacedScope(registry.openRequestScope(), serial: serials.increment())
                        opened.withLock { $0.append(fresh) }
                        let replaced = slots.withLock { slots in
                            let old = slots[slot]
                            slots[slot] = fresh
                            return old
                        }
                        replaced?.scope.end()
                        continue
                    }
                    guard let raced = slots.withLock({ $0[slot] }) else { continue }
                    do {
                        switch action {
                        case 1, 2:
                            try raced.scope.supply(LockProbeInfoValue(serial: raced.serial), for: .lockProbeInfo)
                        case 3, 4, 5:
                            let unit = try raced.scope.makeDestination(to: .lockProbeUnit)
                            lookedUp.increment()
                            if unit.info.serial != raced.serial {
                                wrong.withLock {
                                    $0.append("scope \(raced.serial) got scope \(unit.info.serial)'s unit")
                                }
                            }
                            let first = raced.unit.withLock { seen in
                                if seen == nil { seen = ObjectIdentifier(unit) }
                                return seen
                            }
                            if first != ObjectIdentifier(unit) {
                                wrong.withLock { $0.append("scope \(raced.serial) made two units") }
                            }
                        case 6:
                            let count = raced.scope.count
                            if count > 1 { wrong.withLock { $0.append("scope \(raced.serial) counts \(count)") } }
                        default:
                            raced.scope.end()
                        }
                    } catch let error as RouteError {
                        // Supplied twice or not yet, or the scope was ended: each a typed error, nothing else.
                        if error.code != .notSupplied && error.code != .scopeClosed {
                            wrong.withLock { $0.append("unexpected \(error.code): \(error)") }
                        }
                    } catch {
                        wrong.withLock { $0.append("untyped \(error)") }
                    }
                }
            }
        }
        #expect(wrong.withLock { $0 } == [])
        // The race really ran: some lookups reached a supplied scope.
        #expect(lookedUp.value > 0)
        let scopes = opened.withLock { $0 }
        for raced in scopes { raced.scope.end() }
        #expect(scopes.allSatisfy { $0.scope.isEnded && $0.scope.count == 0 })
        // Each scope made at most one unit, and ending every scope released every unit made.
        #expect(made.value == scopes.count(where: { $0.unit.withLock { $0 } != nil }))
        #expect(freed.value == made.value)
    }

    /// `end()` releases the scope's instances outside any lock: a request-scoped instance whose deinit looks up a
    /// singleton not built yet (a claim under the creation coordinator's lock), looks up through its own
    /// ended scope (`scopeClosed`), supplies to it, reads its count, and looks up through forty other open
    /// scopes (each taking that scope's lock) neither deadlocks nor fails otherwise.
    @Test func aRequestScopedInstanceWhoseDeinitLooksUpThroughTheSameRegistryDoesNotDeadlockTheEnd() throws {
        let freed = Counter()
        let others = TestLocked<[RequestScope]>([])
        let seenInDeinit = TestLocked<[String]>([])
        let ending = TestLocked<RequestScope?>(nil)
        let registryBox = TestLocked<RouteRegistry?>(nil)
        let registry = try sealedRegistry { registry in
            try registry.registerSupplied(.lockProbeInfo)
            try registry.register(.lockProbeSingleton) { _ in LockProbeSingleton() }.scope(.singleton)
            try registry.register(.lockProbeTransient) { _ in LockProbeTransient() }
            try registry.register(.lockProbeUnit) { r in
                let info = try r.resolve(.lockProbeInfo)
                // Only the unit of the scope that the test ends (serial 0) looks things up from its deinit.
                guard info.serial == 0 else { return LockProbeUnit(info: info, freed: freed) }
                return LockProbeUnit(info: info, freed: freed) {
                    let seen = lookUpsFromDeinit(
                        registry: registryBox.withLock { $0 }, ended: ending.withLock { $0 },
                        others: others.withLock { $0 })
                    seenInDeinit.withLock { $0.append(contentsOf: seen) }
                }
            }.scope(.request).dependencies(.initializer(.lockProbeInfo))
        }
        registryBox.withLock { $0 = registry }
        let finished = finishesOnItsOwnThread(bound: 60) {
            let opened = (0..<40).map { _ in registry.openRequestScope() }
            for other in opened { try? other.supply(LockProbeInfoValue(serial: 1), for: .lockProbeInfo) }
            others.withLock { $0 = opened }
            let scope = registry.openRequestScope()
            ending.withLock { $0 = scope }
            do {
                try scope.supply(LockProbeInfoValue(serial: 0), for: .lockProbeInfo)
                _ = try scope.makeDestination(to: .lockProbeUnit)
            } catch {
                seenInDeinit.withLock { $0.append("setup failed: \(error)") }
            }
            scope.end()
            for other in opened { other.end() }
        }
        #expect(finished)
        #expect(
            seenInDeinit.withLock { $0 } == [
                "singleton", "scopeClosed", "scopeClosed", "count 0", "others 40",
            ])
        // The ended scope's unit and the forty others' units.
        #expect(freed.value == 41)
        ending.withLock { $0 = nil }
        registryBox.withLock { $0 = nil }
    }
}

/// What the deinit of the ended scope's unit does: a singleton's first lookup, a lookup and a supply through
/// the ended scope, its count, and a lookup through each of `others`; returns what each gave.
private func lookUpsFromDeinit(registry: RouteRegistry?, ended: RequestScope?, others: [RequestScope]) -> [String] {
    guard let registry, let ended else { return ["no registry"] }
    var seen: [String] = []
    seen.append((try? registry.makeDestination(to: .lockProbeSingleton)) != nil ? "singleton" : "none")
    do {
        _ = try ended.makeDestination(to: .lockProbeTransient)
        seen.append("looked up in the ended scope")
    } catch {
        seen.append((error as? RouteError).map { "\($0.code)" } ?? "untyped \(error)")
    }
    do {
        try ended.supply(LockProbeInfoValue(serial: 9), for: .lockProbeInfo)
        seen.append("supplied the ended scope")
    } catch {
        seen.append((error as? RouteError).map { "\($0.code)" } ?? "untyped \(error)")
    }
    seen.append("count \(ended.count)")
    let reached = others.filter { other in (try? other.makeDestination(to: .lockProbeUnit))?.info.serial == 1 }
    seen.append("others \(reached.count)")
    return seen
}
