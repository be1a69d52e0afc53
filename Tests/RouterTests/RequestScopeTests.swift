import Dispatch
import Router
import Testing

// The request scope (issue 36): keys supplied per scope, request-scoped instances made once per scope and
// released with it, concurrent scopes kept apart, and the errors for lookups outside one.

protocol RequestInfo: Sendable { var id: Int { get } }
struct RequestInfoValue: RequestInfo { let id: Int }

protocol RequestUnit: AnyObject, Sendable { var info: any RequestInfo { get } }
final class RequestUnitImpl: RequestUnit {
    let info: any RequestInfo
    init(info: any RequestInfo) { self.info = info }
}

protocol RequestHolder: AnyObject, Sendable { var unit: any RequestUnit { get } }
final class RequestHolderImpl: RequestHolder {
    let unit: any RequestUnit
    init(unit: any RequestUnit) { self.unit = unit }
}

final class LazyRequestHolder: Sendable {
    let unit: Lazy<any RequestUnit>
    init(unit: Lazy<any RequestUnit>) { self.unit = unit }
}

extension RoutableService where Destination == any RequestInfo {
    static var requestInfo: Self { Self(declaring: (any RequestInfo).self) }
}
extension RoutableService where Destination == any RequestUnit {
    static var requestUnit: Self { Self(declaring: (any RequestUnit).self) }
}
extension RoutableService where Destination == any RequestHolder {
    static var requestHolder: Self { Self(declaring: (any RequestHolder).self) }
}
extension RoutableService where Destination == LazyRequestHolder {
    static var lazyRequestHolder: Self { Self(declaring: LazyRequestHolder.self) }
}

/// A registry with a supplied `requestInfo` and a request-scoped `requestUnit` made from it; `built` counts
/// the unit's factory runs, which wait `pause` milliseconds (to make lookups overlap).
private func requestRegistry(
    built: Counter = Counter(), pause: Int = 0, _ more: (RouteRegistry) throws -> Void = { _ in }
) throws -> RouteRegistry {
    try sealedRegistry { registry in
        try registry.registerSupplied(.requestInfo)
        try registry.register(.requestUnit) { r in
            built.increment()
            if pause > 0 { _ = DispatchSemaphore(value: 0).wait(timeout: .now() + .milliseconds(pause)) }
            return RequestUnitImpl(info: try r.resolve(.requestInfo))
        }.scope(.request).dependencies(.initializer(.requestInfo))
        try more(registry)
    }
}

struct RequestScopeTests {
    // MARK: Made once per scope

    @Test func aRequestScopedInstanceIsMadeOnceForConcurrentLookupsOnThreadsInOneScope() throws {
        for _ in 0..<20 {
            let built = Counter()
            let registry = try requestRegistry(built: built, pause: 1)
            let scope = registry.openRequestScope()
            try scope.supply(RequestInfoValue(id: 7), for: .requestInfo)
            let seen = TestLocked<[ObjectIdentifier]>([])
            finishesOnItsOwnThread(bound: 20) {
                onThreads(4) { _ in
                    guard let unit = try? scope.makeDestination(to: .requestUnit) else { return }
                    seen.withLock { $0.append(ObjectIdentifier(unit)) }
                }
            }
            let identities = seen.withLock { $0 }
            #expect(identities.count == 4)
            #expect(Set(identities).count == 1)
            #expect(built.value == 1)
            #expect(scope.count == 1)
        }
    }

    @Test func aRequestScopedAsyncInstanceIsMadeOnceForAsyncLetLookupsInOneScope() throws {
        let built = Counter()
        let registry = try sealedRegistry { registry in
            try registry.registerSupplied(.requestInfo)
            try registry.registerAsync(.requestUnit) { r async throws in
                built.increment()
                for _ in 0..<50 { await Task.yield() }
                return RequestUnitImpl(info: try r.resolve(.requestInfo))
            }.scope(.request).dependencies(.initializer(.requestInfo))
        }
        let identities = TestLocked<[ObjectIdentifier]>([])
        // On a pool of its own (FixedPool.swift): on the shared cooperative pool, the other tests running in
        // parallel could starve both the scenario and its timer, and a slow run would read as a hang.
        let finished = asyncScenarioFinishes {
            let scope = registry.openRequestScope()
            try? scope.supply(RequestInfoValue(id: 1), for: .requestInfo)
            async let a = scope.makeDestinationAsync(to: .requestUnit)
            async let b = scope.makeDestinationAsync(to: .requestUnit)
            async let c = scope.makeDestinationAsync(to: .requestUnit)
            async let d = scope.makeDestinationAsync(to: .requestUnit)
            guard let made = try? await [a, b, c, d] else { return }
            identities.withLock { $0 = made.map { ObjectIdentifier($0) } }
        }
        #expect(finished)
        let seen = identities.withLock { $0 }
        #expect(seen.count == 4)
        #expect(Set(seen).count == 1)
        #expect(built.value == 1)
    }

    @Test func twoConcurrentScopesNeverShareAnInstance() throws {
        for _ in 0..<20 {
            let built = Counter()
            let registry = try requestRegistry(built: built, pause: 1)
            let scopes = [registry.openRequestScope(), registry.openRequestScope()]
            for (index, scope) in scopes.enumerated() {
                try scope.supply(RequestInfoValue(id: index), for: .requestInfo)
            }
            let seen = TestLocked<[(scope: Int, unit: ObjectIdentifier, info: Int)]>([])
            finishesOnItsOwnThread(bound: 20) {
                onThreads(4) { index in
                    let scope = index % 2
                    guard let unit = try? scopes[scope].makeDestination(to: .requestUnit) else { return }
                    seen.withLock { $0.append((scope, ObjectIdentifier(unit), unit.info.id)) }
                }
            }
            let results = seen.withLock { $0 }
            #expect(results.count == 4)
            for scope in 0..<2 {
                let mine = results.filter { $0.scope == scope }
                #expect(Set(mine.map(\.unit)).count == 1)
                #expect(mine.allSatisfy { $0.info == scope })
            }
            #expect(Set(results.map(\.unit)).count == 2)
            #expect(built.value == 2)
        }
    }

    @Test func endingAScopeReleasesItsInstancesAndSuppliedValues() throws {
        final class Tracked: RequestInfo, @unchecked Sendable {
            let id = 3
        }
        let registry = try requestRegistry()
        let scope = registry.openRequestScope()
        weak var unit: (any RequestUnit)?
        weak var info: Tracked?
        do {
            let supplied = Tracked()
            info = supplied
            try scope.supply(supplied, for: .requestInfo)
            unit = try scope.makeDestination(to: .requestUnit)
        }
        #expect(unit != nil)
        #expect(info != nil)
        scope.end()
        #expect(unit == nil)
        #expect(info == nil)
        #expect(scope.isEnded)
        #expect(scope.count == 0)
    }

    @Test func droppingTheLastReferenceToAScopeReleasesItsInstances() throws {
        let registry = try requestRegistry()
        weak var unit: (any RequestUnit)?
        do {
            let scope = registry.openRequestScope()
            try scope.supply(RequestInfoValue(id: 1), for: .requestInfo)
            unit = try scope.makeDestination(to: .requestUnit)
            #expect(unit != nil)
        }
        #expect(unit == nil)
    }

    // MARK: Filed under identities that are never reused

    /// Issue 44: a scope filed its instances under the registration's address, and an override block's
    /// registrations are freed when the block ends, so a later block's could reuse one of those addresses
    /// and get an earlier block's fake (or, when the types differed, `scopeClosed` from an open scope).
    @Test func eachOverrideBlockGetsItsOwnFakeInAScopeThatOutlivesTheBlocks() throws {
        let registry = try requestRegistry { registry in
            try registry.register(.requestHolder) { r in RequestHolderImpl(unit: try r.resolve(.requestUnit)) }
                .scope(.request).dependencies(.initializer(.requestUnit))
        }
        func found(in scope: RequestScope) -> String {
            do {
                let holder = try scope.makeDestination(to: .requestHolder).unit.info.id
                let unit = try scope.makeDestination(to: .requestUnit).info.id
                return "unit \(unit), holder's unit \(holder)"
            } catch {
                return "\(error)"
            }
        }
        let outliving = registry.openRequestScope()
        defer { outliving.end() }
        try outliving.supply(RequestInfoValue(id: -1), for: .requestInfo)
        var wrong: [String] = []
        for block in 0..<1_000 {
            try registry.withOverrides { overrides in
                try overrides.register(.requestUnit) { _ in RequestUnitImpl(info: RequestInfoValue(id: block)) }
                    .scope(.request)
            } operation: {
                let expected = "unit \(block), holder's unit \(block)"
                let fresh = registry.openRequestScope()
                defer { fresh.end() }
                try fresh.supply(RequestInfoValue(id: -2), for: .requestInfo)
                for (name, scope) in [("the outliving scope", outliving), ("a fresh scope", fresh)] {
                    let seen = found(in: scope)
                    if seen != expected { wrong.append("block \(block), \(name): \(seen)") }
                }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) wrong lookups, first: \(wrong.prefix(3))")
        #expect(!outliving.isEnded)
    }

    // MARK: Seen at any depth

    @Test func aSuppliedKeyReachesASyncFactoryThreeLevelsDown() throws {
        let registry = try requestRegistry { registry in
            try registry.register(.requestHolder) { r in RequestHolderImpl(unit: try r.resolve(.requestUnit)) }
            // Depth 3: engine (transient) → holder (transient) → unit (request) → info (supplied).
            try registry.register(.engine) { r in
                _ = try r.resolve(.requestHolder)
                return V8()
            }
        }
        let scope = registry.openRequestScope()
        try scope.supply(RequestInfoValue(id: 42), for: .requestInfo)
        _ = try scope.makeDestination(to: .engine)
        let holder = try scope.makeDestination(to: .requestHolder)
        #expect(holder.unit.info.id == 42)
        #expect(holder.unit === (try scope.makeDestination(to: .requestUnit)))
    }

    @Test func aSuppliedKeyReachesAnAsyncFactoryThreeLevelsDown() async throws {
        let registry = try sealedRegistry { registry in
            try registry.registerSupplied(.requestInfo)
            try registry.registerAsync(.requestUnit) { r async throws in
                await Task.yield()
                return RequestUnitImpl(info: try r.resolve(.requestInfo))
            }.scope(.request)
            try registry.registerAsync(.requestHolder) { r async throws in
                RequestHolderImpl(unit: try await r.resolveAsync(.requestUnit))
            }
            try registry.registerAsync(.lazyRequestHolder) { r async throws in
                // The registry's own async call, made inside the scoped lookup, joins it.
                _ = try await r.resolveAsync(.requestHolder)
                return LazyRequestHolder(unit: try r.lazy(.requestUnit))
            }
        }
        let scope = registry.openRequestScope()
        try scope.supply(RequestInfoValue(id: 9), for: .requestInfo)
        let top = try await scope.makeDestinationAsync(to: .lazyRequestHolder)
        let holder = try await scope.makeDestinationAsync(to: .requestHolder)
        #expect(holder.unit.info.id == 9)
        #expect(try top.unit.value() === holder.unit)
    }

    @Test func theRegistryCalledFromAFactoryInAScopedLookupSeesTheScope() throws {
        let holder = TestLocked<RouteRegistry?>(nil)
        let registry = try requestRegistry { registry in
            try registry.register(.requestHolder) { _ in
                // Not `r`: the registry itself, which joins the running (scoped) lookup.
                guard let registry = holder.withLock({ $0 }) else { throw Boom() }
                return RequestHolderImpl(unit: try registry.makeDestination(to: .requestUnit))
            }
        }
        holder.withLock { $0 = registry }
        let scope = registry.openRequestScope()
        try scope.supply(RequestInfoValue(id: 5), for: .requestInfo)
        let made = try scope.makeDestination(to: .requestHolder)
        #expect(made.unit.info.id == 5)
        #expect(made.unit === (try scope.makeDestination(to: .requestUnit)))
    }

    @Test func aLazyMadeInsideAScopedLookupResolvesInThatScope() throws {
        let built = Counter()
        let registry = try requestRegistry(built: built) { registry in
            try registry.register(.lazyRequestHolder) { r in LazyRequestHolder(unit: try r.lazy(.requestUnit)) }
                .dependencies(.lazy(.requestUnit))
        }
        let scope = registry.openRequestScope()
        try scope.supply(RequestInfoValue(id: 11), for: .requestInfo)
        let holder = try scope.makeDestination(to: .lazyRequestHolder)
        #expect(built.value == 0)
        // Read after the lookup that made it has ended, outside any scope call.
        let unit = try holder.unit.value()
        #expect(unit.info.id == 11)
        #expect(unit === (try scope.makeDestination(to: .requestUnit)))
        #expect(built.value == 1)
    }

    @Test func theArgumentFormAndAProviderMadeInAScopedLookupSeeTheScope() throws {
        let providers = TestLocked<[Provider<any RequestUnit>]>([])
        let registry = try requestRegistry { registry in
            try registry.register(.requestHolder, arguments: Int.self) { r, _ in
                let provider = try r.provider(.requestUnit)
                providers.withLock { $0.append(provider) }
                return RequestHolderImpl(unit: try r.resolve(.requestUnit))
            }
        }
        let scope = registry.openRequestScope()
        try scope.supply(RequestInfoValue(id: 4), for: .requestInfo)
        let unit = try scope.makeDestination(to: .requestUnit)
        #expect(try scope.makeDestination(to: .requestHolder, arguments: 1).unit === unit)
        // Called after the lookup that made it ended: it looks up in that lookup's scope.
        let provider = try #require(providers.withLock { $0.first })
        #expect(try provider() === unit)
    }

    @Test func theAsyncArgumentFormLooksUpInTheScopeAsTheRegistrysDoes() async throws {
        let registry = try requestRegistry { registry in
            // An async factory with arguments, and a synchronous one: the async form takes either.
            try registry.registerAsync(.requestHolder, arguments: Int.self) { r, id async throws in
                await Task.yield()
                #expect(id == 3)
                return RequestHolderImpl(unit: try await r.resolveAsync(.requestUnit))
            }
            try registry.register(.lazyRequestHolder, arguments: String.self) { r, _ in
                LazyRequestHolder(unit: try r.lazy(.requestUnit))
            }
        }
        let scope = registry.openRequestScope()
        try scope.supply(RequestInfoValue(id: 6), for: .requestInfo)
        let unit = try scope.makeDestination(to: .requestUnit)
        let holder = try await scope.makeDestinationAsync(to: .requestHolder, arguments: 3)
        #expect(holder.unit === unit)
        #expect(holder.unit.info.id == 6)
        let lazy = try await scope.makeDestinationAsync(to: .lazyRequestHolder, arguments: "x")
        #expect(try lazy.unit.value() === unit)

        // The registry's checks, with the scope's: the wrong argument types, then an ended scope.
        let mismatch = await #expect(throws: RouteError.self) {
            try await scope.makeDestinationAsync(to: .requestHolder, arguments: "three")
        }
        #expect(mismatch?.code == .argumentMismatch)
        scope.end()
        let ended = await #expect(throws: RouteError.self) {
            try await scope.makeDestinationAsync(to: .requestHolder, arguments: 3)
        }
        #expect(ended?.code == .scopeClosed)
        // Outside any scope, the registry's own form reaches the request-scoped key and says so.
        let outside = await #expect(throws: RouteError.self) {
            try await registry.makeDestinationAsync(to: .requestHolder, arguments: 3)
        }
        #expect(outside?.code == .outsideRequestScope)
    }

    // MARK: Errors

    @Test func aRequestScopedKeyLookedUpOutsideAScopeIsATypedError() throws {
        let registry = try requestRegistry()
        let error = try #require(throws: RouteError.self) { try registry.makeDestination(to: .requestUnit) }
        #expect(error.code == .outsideRequestScope)
        #expect(
            error.description
                == "RoutableService<RequestUnit> is request-scoped, but this lookup runs outside any request scope. Hint: Look it up through the request's scope (let scope = registry.openRequestScope(), then scope.makeDestination(to:) or scope.makeDestinationAsync(to:)): every factory that lookup runs sees the scope."
        )
    }

    @Test func aSuppliedKeyReachedOutsideAScopeNamesThePath() throws {
        let registry = try requestRegistry { registry in
            try registry.register(.requestHolder) { r in
                RequestHolderImpl(unit: RequestUnitImpl(info: try r.resolve(.requestInfo)))
            }
        }
        let error = try #require(throws: RouteError.self) { try registry.makeDestination(to: .requestHolder) }
        #expect(error.code == .outsideRequestScope)
        #expect(
            error.description
                == "RoutableService<RequestInfo> is supplied by each request scope, but this lookup runs outside any request scope (resolving RequestHolder → RequestInfo). Hint: Look it up through the request's scope (let scope = registry.openRequestScope(), then scope.makeDestination(to:) or scope.makeDestinationAsync(to:)): every factory that lookup runs sees the scope."
        )
    }

    @Test func aScopeThatDidNotSupplyTheKeyIsATypedError() throws {
        let registry = try requestRegistry()
        let scope = registry.openRequestScope()
        let error = try #require(throws: RouteError.self) { try scope.makeDestination(to: .requestUnit) }
        #expect(error.code == .notSupplied)
        #expect(
            error.description
                == "RoutableService<RequestInfo> is supplied by each request scope, but this scope was not given one (resolving RequestUnit → RequestInfo). Hint: Call scope.supply(value, for: RequestInfo) after opening the scope, before its lookups."
        )
    }

    @Test func aLookupInAnEndedScopeIsATypedError() async throws {
        let registry = try requestRegistry()
        let scope = registry.openRequestScope()
        try scope.supply(RequestInfoValue(id: 1), for: .requestInfo)
        scope.end()
        let expected =
            "RoutableService<RequestUnit> was looked up in a request scope that was ended. Hint: Open a scope for each request (registry.openRequestScope()) and end it once the request's work is done; keep no lookup, Lazy or Provider of it past that."
        let sync = try #require(throws: RouteError.self) { try scope.makeDestination(to: .requestUnit) }
        #expect(sync.code == .scopeClosed)
        #expect(sync.description == expected)
        await #expect(throws: RouteError.self) { try await scope.makeDestinationAsync(to: .requestUnit) }
        #expect(throws: RouteError.self) { try scope.supply(RequestInfoValue(id: 2), for: .requestInfo) }
    }

    @Test func aProviderOfASuppliedKeyCalledAfterItsScopeEndedIsATypedError() throws {
        let providers = TestLocked<[Provider<any RequestInfo>]>([])
        let registry = try requestRegistry { registry in
            try registry.register(.requestHolder) { r in
                let provider = try r.provider(.requestInfo)
                providers.withLock { $0.append(provider) }
                return RequestHolderImpl(unit: try r.resolve(.requestUnit))
            }
        }
        let scope = registry.openRequestScope()
        try scope.supply(RequestInfoValue(id: 8), for: .requestInfo)
        #expect(try scope.makeDestination(to: .requestHolder).unit.info.id == 8)
        let provider = try #require(providers.withLock { $0.first })
        #expect(try provider().id == 8)
        scope.end()
        let error = try #require(throws: RouteError.self) { try provider() }
        #expect(error.code == .scopeClosed)
        #expect(
            error.description
                == "RoutableService<RequestInfo> was looked up in a request scope that was ended. Hint: Open a scope for each request (registry.openRequestScope()) and end it once the request's work is done; keep no lookup, Lazy or Provider of it past that."
        )
    }

    @Test func supplyingAKeyNotDeclaredAsSuppliedOrTwiceIsATypedError() throws {
        let registry = try requestRegistry { registry in
            try registry.register(.requestHolder) { _ in
                RequestHolderImpl(unit: RequestUnitImpl(info: RequestInfoValue(id: 0)))
            }
        }
        let scope = registry.openRequestScope()
        let undeclared = try #require(throws: RouteError.self) {
            try scope.supply(
                RequestHolderImpl(unit: RequestUnitImpl(info: RequestInfoValue(id: 0))) as any RequestHolder,
                for: .requestHolder)
        }
        #expect(undeclared.code == .notSupplied)
        try scope.supply(RequestInfoValue(id: 1), for: .requestInfo)
        let twice = try #require(throws: RouteError.self) {
            try scope.supply(RequestInfoValue(id: 2), for: .requestInfo)
        }
        #expect(twice.code == .notSupplied)
        #expect(try scope.makeDestination(to: .requestUnit).info.id == 1)
    }

    // MARK: Captive dependencies

    @Test func sealingRefusesASingletonThatDependsOnARequestScopedOrSuppliedKey() throws {
        for target in [RouteDependency.initializer(.requestUnit), .initializer(.requestInfo)] {
            let registry = RouteRegistry()
            try registry.registerSupplied(.requestInfo)
            try registry.register(.requestUnit) { r in RequestUnitImpl(info: try r.resolve(.requestInfo)) }
                .scope(.request).dependencies(.initializer(.requestInfo))
            try registry.register(.requestHolder) { _ in
                RequestHolderImpl(unit: RequestUnitImpl(info: RequestInfoValue(id: 0)))
            }
            .scope(.singleton).dependencies(target)
            let report = try registry.validate()
            #expect(report.problems.map(\.code) == [.captiveDependency])
            #expect(throws: RouteError.self) { try registry.seal() }
        }
    }

    @Test func aSingletonReachingARequestScopedKeyUndeclaredIsRefusedAtRunTime() throws {
        let registry = try requestRegistry { registry in
            try registry.register(.requestHolder) { r in RequestHolderImpl(unit: try r.resolve(.requestUnit)) }
                .scope(.singleton)
        }
        let scope = registry.openRequestScope()
        try scope.supply(RequestInfoValue(id: 1), for: .requestInfo)
        let error = try #require(throws: RouteError.self) { try scope.makeDestination(to: .requestHolder) }
        #expect(error.code == .captiveDependency)
        #expect(
            error.description
                == ("RoutableService<RequestHolder> is a singleton but asked for RoutableService<RequestUnit>, which is request-scoped: it would keep one request's RequestUnit for every later request (resolving RequestHolder → RequestUnit). Hint: Make RequestHolder request-scoped or transient, or pass what it needs from the request to the method that uses it.")
        )
        // Nothing was captured: the singleton was not published.
        #expect(throws: RouteError.self) { try scope.makeDestination(to: .requestHolder) }
    }
}
