import Router
import Testing

// An async lookup that needs a shared instance another async lookup holds back (built, its preparation
// waiting for that lookup's suspended factory) waits for it suspended, in every shared scope: before it
// enters the synchronous code that claims the instance, it finds the cell that claim will take, through
// the same scope lookup (issue 44). Had it not waited, the claim would fail with `heldByAsyncLookup`.

/// The shared scopes an instance held back by an async lookup can be in, and how a test registers and
/// looks up each.
enum HeldScope: CustomStringConvertible, Sendable {
    case singleton, eagerSingleton, weakSingleton, resettableSingleton, custom, request

    var description: String {
        switch self {
        case .singleton: "singleton"
        case .eagerSingleton: "eagerSingleton"
        case .weakSingleton: "weakSingleton"
        case .resettableSingleton: "resettableSingleton"
        case .custom: "custom"
        case .request: "request"
        }
    }
}

struct AsyncWaitEveryScopeTests {
    let a = RoutableService.joined.named("a")
    let b = RoutableService.joined.named("b")
    let s = RoutableService.joined.named("s")

    /// `s`, in `scope`, in a property cycle with a transient `b`; an async transient `a` whose factory
    /// resolves `s` (held back until `a`'s lookup ends: `s`'s preparation runs after `a`'s factory
    /// returns), increments `held`, then suspends until `release` ends. While `a` is suspended, `waiters`
    /// async lookups of `s` run through the same door; then `a` is released. Returns `a`'s `s` and what each
    /// waiter got: `s`'s identity or the error's code.
    func waitersForAHeldInstance(in scope: HeldScope, waiters: Int = 5) throws -> (
        owner: ObjectIdentifier?, outcomes: [Result<ObjectIdentifier, RouteError>]
    ) {
        let (a, b, s) = (self.a, self.b, self.s)
        let held = Counter()
        let (release, opener) = AsyncStream<Void>.makeStream()
        let custom = CustomScope("held")
        let registry = RouteRegistry()
        let registration = try registry.register(s) { _ in JoinedImpl("s") }
            .preparing { s, r in s.partner = try r.resolve(b) }
        switch scope {
        case .singleton: try registration.scope(.singleton)
        case .eagerSingleton: try registration.scope(.eagerSingleton)
        case .weakSingleton: try registration.scope(.weakSingleton)
        case .resettableSingleton: try registration.scope(.singleton).resettable()
        case .custom: try registration.scope(.custom(custom))
        case .request: try registration.scope(.request)
        }
        try registry.register(b) { _ in JoinedImpl("b") }
            .preparing { b, r in b.partner = try r.resolve(s) }
        try registry.registerAsync(a) { r async throws in
            let made = JoinedImpl("a")
            made.partner = try r.resolve(s)
            held.increment()
            for await _ in release {}
            return made
        }
        try registry.seal()
        let request = registry.openRequestScope()
        defer { request.end() }
        let throughScope = scope == .request
        let door: @Sendable (RoutableService<any Joined>) async throws -> any Joined = { key in
            if throughScope { return try await request.makeDestinationAsync(to: key) }
            return try await registry.makeDestinationAsync(to: key)
        }
        let started = Counter()
        let outcomes = TestLocked<[Result<ObjectIdentifier, RouteError>]>([])
        let fromOwner = TestLocked<ObjectIdentifier?>(nil)
        asyncScenarioFinishes(width: 2, bound: 20) {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    let made = try? await door(a)
                    fromOwner.withLock { $0 = made?.partner.map { ObjectIdentifier($0) } }
                }
                while held.value == 0 { await Task.yield() }
                for _ in 0..<waiters {
                    group.addTask {
                        started.increment()
                        let outcome: Result<ObjectIdentifier, RouteError>
                        do {
                            outcome = .success(ObjectIdentifier(try await door(s)))
                        } catch let error as RouteError {
                            outcome = .failure(error)
                        } catch {
                            return
                        }
                        outcomes.withLock { $0.append(outcome) }
                    }
                }
                // The pool runs its jobs in order: the waiters reach their lookups (and fail or suspend)
                // before this task's turn comes back.
                while started.value < waiters { await Task.yield() }
                for _ in 0..<waiters * 4 { await Task.yield() }
                opener.finish()
            }
        }
        return (fromOwner.withLock { $0 }, outcomes.withLock { $0 })
    }

    func expectEveryWaiterGetsTheHoldersInstance(in scope: HeldScope) throws {
        let (owner, outcomes) = try waitersForAHeldInstance(in: scope)
        let built = try #require(owner)
        #expect(outcomes.count == 5)
        for outcome in outcomes {
            switch outcome {
            case .success(let found): #expect(found == built)
            case .failure(let error): Issue.record("An async lookup failed instead of waiting: \(error)")
            }
        }
    }

    @Test func asyncLookupsWaitSuspendedForARequestScopedInstanceAnotherAsyncLookupInTheScopeHolds() throws {
        try expectEveryWaiterGetsTheHoldersInstance(in: .request)
    }

    @Test func asyncLookupsWaitSuspendedForACustomScopedInstanceAnotherAsyncLookupHolds() throws {
        try expectEveryWaiterGetsTheHoldersInstance(in: .custom)
    }

    @Test(arguments: [HeldScope.singleton, .eagerSingleton, .weakSingleton, .resettableSingleton])
    func asyncLookupsWaitSuspendedForASingletonAnotherAsyncLookupHolds(in scope: HeldScope) throws {
        try expectEveryWaiterGetsTheHoldersInstance(in: scope)
    }

    /// The issue's shape: request-scoped `A` ⇄ `B` (`.injecting` each other); an async transient `T` resolves
    /// `A` (which, with `B`, its lookup holds back until `T`'s factory returns) and suspends; meanwhile async
    /// lookups of `A` and of `B` in the same scope wait for them suspended, and get the same two.
    @Test func asyncLookupsOfARequestScopedPropertyCycleAnotherAsyncLookupHoldsWaitSuspended() throws {
        let a = RoutableService.joined.named("A")
        let b = RoutableService.joined.named("B")
        let t = RoutableService.joined.named("T")
        let held = Counter()
        let (release, opener) = AsyncStream<Void>.makeStream()
        let registry = RouteRegistry()
        try registry.register(a) { _ in JoinedImpl("A") }.scope(.request).injecting(\.partner, b)
        try registry.register(b) { _ in JoinedImpl("B") }.scope(.request).injecting(\.partner, a)
        try registry.registerAsync(t) { r async throws in
            let made = JoinedImpl("T")
            made.partner = try r.resolve(a)
            held.increment()
            for await _ in release {}
            return made
        }
        try registry.seal()
        let scope = registry.openRequestScope()
        defer { scope.end() }
        let fromOwner = TestLocked<(ObjectIdentifier, ObjectIdentifier)?>(nil)
        let found = TestLocked<[String: Result<ObjectIdentifier, RouteError>]>([:])
        let started = Counter()
        asyncScenarioFinishes(width: 2, bound: 20) {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    guard let made = try? await scope.makeDestinationAsync(to: t), let first = made.partner,
                        let second = first.partner
                    else { return }
                    fromOwner.withLock { $0 = (ObjectIdentifier(first), ObjectIdentifier(second)) }
                }
                while held.value == 0 { await Task.yield() }
                for (name, key) in [("A", a), ("B", b)] {
                    group.addTask {
                        started.increment()
                        let outcome: Result<ObjectIdentifier, RouteError>
                        do {
                            outcome = .success(ObjectIdentifier(try await scope.makeDestinationAsync(to: key)))
                        } catch let error as RouteError {
                            outcome = .failure(error)
                        } catch {
                            return
                        }
                        found.withLock { $0[name] = outcome }
                    }
                }
                // As above: the waiters reach their lookups before this task's turn comes back.
                while started.value < 2 { await Task.yield() }
                for _ in 0..<8 { await Task.yield() }
                opener.finish()
            }
        }
        let (first, second) = try #require(fromOwner.withLock { $0 })
        let outcomes = found.withLock { $0 }
        #expect(try outcomes["A"]?.get() == first)
        #expect(try outcomes["B"]?.get() == second)
    }
}
