import Router
import Testing

// Adversarial tests of "a lookup cannot overflow the stack of the thread it runs on": chains of every
// scope and injection kind, and chains through Lazy, Provider and the registry itself, on a thread with a
// 256 KiB stack (what secondary threads get on Apple platforms, and less than Swift concurrency's) and on
// one with the usual 8 MiB. Each either resolves or throws `resolutionTooDeep`; none may crash.

protocol Link: AnyObject {
    var next: (any Link)? { get set }
    var length: Int { get }
}
final class LinkImpl: Link {
    var next: (any Link)?
    init(next: (any Link)?) {
        self.next = next
    }
    var length: Int {
        var count = 0
        var cursor: (any Link)? = self
        while let link = cursor {
            count += 1
            cursor = link.next
        }
        return count
    }
}
extension RoutableService where Destination == any Link {
    static var link: Self { Self(declaring: (any Link).self) }
}

/// How one link of a chain reaches the next.
enum ChainKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case transient, singleton, injectedSingleton, weakSingleton, custom, graphInjected, lazy, provider, registry

    var testDescription: String { rawValue }
}

struct DepthGuardTests {
    static let session = CustomScope("depth")

    /// A chain of `length` links of `kind`; the first key starts it.
    func chain(_ kind: ChainKind, length: Int, maxDepth: Int = 1_000) throws -> RouteRegistry {
        let registry = RouteRegistry(maxDepth: maxDepth)
        for index in 0..<length {
            let key = RoutableService.link.named("\(index)")
            let next = RoutableService.link.named("\(index + 1)")
            let last = index == length - 1
            switch kind {
            case .transient, .singleton, .weakSingleton, .custom:
                let scope: Scope =
                    kind == .transient
                    ? .transient
                    : kind == .singleton
                        ? .singleton
                        : kind == .weakSingleton ? .weakSingleton : .custom(Self.session)
                try registry.register(key) { r in LinkImpl(next: last ? nil : try r.resolve(next)) }.scope(scope)
            case .injectedSingleton, .graphInjected:
                let scope: Scope = kind == .graphInjected ? .graph : .singleton
                let link = try registry.register(key) { _ in LinkImpl(next: nil) }.scope(scope)
                if !last { try link.injecting(\.next, next) }
            case .lazy:
                try registry.register(key) { r in LinkImpl(next: last ? nil : try r.lazy(next).value) }
            case .provider:
                try registry.register(key) { r in LinkImpl(next: last ? nil : try r.provider(next)()) }
            case .registry:
                try registry.register(key) { _ in
                    LinkImpl(next: last ? nil : try registry.makeDestination(to: next))
                }
            }
        }
        try registry.seal()
        return registry
    }

    /// Looks up the chain's first link on a thread with `stackSize`: it must resolve whole or fail with
    /// `resolutionTooDeep`.
    @discardableResult
    func resolvesOrStops(_ registry: RouteRegistry, length: Int, stackSize: Int) -> RouteError? {
        let outcome = TestLocked<Result<Int, RouteError>?>(nil)
        finishesOnItsOwnThread(stackSize: stackSize, bound: 20) {
            do {
                let first = try registry.makeDestination(to: .link.named("0"))
                let measured = first.length
                outcome.withLock { $0 = .success(measured) }
            } catch let error as RouteError {
                outcome.withLock { $0 = .failure(error) }
            } catch {}
        }
        switch outcome.withLock({ $0 }) {
        case .success(let measured):
            #expect(measured == length)
            return nil
        case .failure(let error):
            #expect(error.code == .resolutionTooDeep, "\(error)")
            return error
        case nil:
            Issue.record("The lookup neither returned nor threw a RouteError.")
            return nil
        }
    }

    @Test(arguments: ChainKind.allCases)
    func aChainAtTheDefaultLimitResolvesOrStopsOnA256KiBThread(kind: ChainKind) throws {
        let registry = try chain(kind, length: 1_000)
        resolvesOrStops(registry, length: 1_000, stackSize: 256 * 1_024)
        Self.session.reset()
    }

    @Test(arguments: ChainKind.allCases)
    func aChainAtTheDefaultLimitResolvesOn8MiBThread(kind: ChainKind) throws {
        let registry = try chain(kind, length: 1_000)
        let error = resolvesOrStops(registry, length: 1_000, stackSize: 8 * 1_024 * 1_024)
        #if !DEBUG
            // A release build has room for the whole default limit on the usual stack.
            #expect(error == nil)
        #endif
        _ = error
        Self.session.reset()
    }

    @MainActor @Test(arguments: [ChainKind.transient, .injectedSingleton, .registry])
    func aChainAtTheDefaultLimitResolvesOrStopsOnTheMainThread(kind: ChainKind) throws {
        let registry = try chain(kind, length: 1_000)
        do {
            #expect(try registry.makeDestination(to: .link.named("0")).length == 1_000)
        } catch let error as RouteError {
            #expect(error.code == .resolutionTooDeep, "\(error)")
        }
    }

    @Test(arguments: [ChainKind.transient, .injectedSingleton, .lazy, .registry])
    func aChainFarPastTheStackStopsWithATypedErrorNamingTheStack(kind: ChainKind) throws {
        // No count limit to speak of: only the stack guard can stop this one.
        let registry = try chain(kind, length: 20_000, maxDepth: 1_000_000)
        let error = resolvesOrStops(registry, length: 20_000, stackSize: 256 * 1_024)
        // The stack the thread really has: glibc may hand a new thread a cached stack up to four times the
        // size asked for (seen once: "this thread's stack of 1024 KiB" for a 256 KiB request).
        let named = error?.reason.firstMatch(of: /would overflow this thread's stack of (\d+) KiB/)
        let kibibytes = named.flatMap { Int($0.1) } ?? 0
        #expect((256...1_024).contains(kibibytes), "\(String(describing: error))")
        // The registry is unharmed: a short tail still resolves.
        #expect(try registry.makeDestination(to: .link.named("19990")).length == 10)
    }

    // MARK: Cycles through lookups inside lookups

    @Test(arguments: [ChainKind.lazy, .provider, .registry])
    func aCycleThroughLookupsInsideFactoriesIsACycleError(kind: ChainKind) throws {
        let registry = RouteRegistry()
        let ping = RoutableService.link.named("ping")
        let pong = RoutableService.link.named("pong")
        for (key, other) in [(ping, pong), (pong, ping)] {
            try registry.register(key) { r in
                switch kind {
                case .lazy: return LinkImpl(next: try r.lazy(other).value)
                case .provider: return LinkImpl(next: try r.provider(other)())
                default: return LinkImpl(next: try registry.makeDestination(to: other))
                }
            }
        }
        try registry.seal()
        let error = #expect(throws: RouteError.self) { try registry.makeDestination(to: ping) }
        #expect(error?.code == .circularDependency)
        #expect(error?.path == ["Link[\"ping\"]", "Link[\"pong\"]", "Link[\"ping\"]"])
    }

    @Test func aLookupThroughTheRegistryInsideAFactorySharesTheGraph() throws {
        let registry = RouteRegistry()
        try registry.register(.engine) { _ in V8() }.scope(.graph)
        try registry.register(.car) { _ in CarImpl(engine: try registry.makeDestination(to: .engine)) }
        try registry.register(.link) { r in
            let car = try r.resolve(.car)
            let engine = try r.resolve(.engine)
            return LinkImpl(next: car.engine === engine ? nil : LinkImpl(next: nil))
        }
        try registry.seal()
        #expect(try registry.makeDestination(to: .link).length == 1)
    }

    // MARK: Handlers

    @Test func anErrorHandlerWhoseOwnLookupFailsIsNotCalledAgain() throws {
        let registry = try sealedRegistry { _ in }
        let calls = Counter()
        registry.errorHandler = { _ in
            calls.increment()
            _ = try? registry.makeDestination(to: .unregistered)
        }
        #expect(throws: RouteError.self) { try registry.makeDestination(to: .engine) }
        #expect(calls.value == 1)
    }

    @Test func aTraceHandlerWhoseOwnLookupsAreTracedIsNotCalledForThem() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8() }
            try registry.register(.car) { r in CarImpl(engine: try r.resolve(.engine)) }
        }
        let steps = EventLog()
        registry.traceHandler = { step in
            steps.record(step.key)
            _ = try? registry.makeDestination(to: .car)
        }
        _ = try registry.makeDestination(to: .car)
        registry.traceHandler = nil
        #expect(steps.events == ["RoutableService<Engine>", "RoutableService<Car>"])
    }

    // MARK: Async parity

    @Test func aTransientWhoseSingletonPointsBackByPropertyBuildsTheSameSyncAndAsync() async throws {
        func registry() throws -> RouteRegistry {
            try sealedRegistry { registry in
                try registry.register(.nodeA) { r in AImpl(b: try r.resolve(.nodeB)) }
                try registry.register(.nodeB) { _ in
                    BImpl()
                }.scope(.singleton).injecting(\.a, .nodeA)
            }
        }
        let sync = try registry().makeDestination(to: .nodeA)
        #expect(sync.b?.a === sync)
        let async = try await registry().makeDestinationAsync(to: .nodeA)
        #expect(async.b?.a === async)
        breakCycles(sync)
        breakCycles(async)
    }
}
