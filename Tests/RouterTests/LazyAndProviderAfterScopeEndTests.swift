import Router
import Testing

// A `Lazy` or `Provider` made by a lookup in a request or custom scope reads the registry's and the
// scope's current state when it is used: after the scope ends it answers `scopeClosed`, after the
// registry shuts down `shutDown` (issue 44: every door, `Lazy` and `Provider` included). These passed
// before they were written: they pin the behaviour, they fixed nothing.

final class LateRequestHolder: Sendable {
    let lazy: Lazy<any RequestUnit>
    let provider: Provider<any RequestUnit>
    init(lazy: Lazy<any RequestUnit>, provider: Provider<any RequestUnit>) {
        self.lazy = lazy
        self.provider = provider
    }
}

extension RoutableService where Destination == LateRequestHolder {
    static var lateRequestHolder: Self { Self(declaring: LateRequestHolder.self) }
}

struct LazyAndProviderAfterScopeEndTests {
    func registry() throws -> RouteRegistry {
        try sealedRegistry { registry in
            try registry.registerSupplied(.requestInfo)
            try registry.register(.requestUnit) { r in RequestUnitImpl(info: try r.resolve(.requestInfo)) }
                .scope(.request).dependencies(.initializer(.requestInfo))
            try registry.register(.lateRequestHolder) { r in
                LateRequestHolder(lazy: try r.lazy(.requestUnit), provider: try r.provider(.requestUnit))
            }.dependencies(.lazy(.requestUnit))
        }
    }

    func codes(_ holder: LateRequestHolder) async -> [RouteError.Code?] {
        [
            await routeErrorCode { _ = try holder.lazy.value() },
            await routeErrorCode { _ = try holder.provider() },
        ]
    }

    @Test func aLazyAndAProviderOfARequestScopedKeyUsedAfterTheirScopeEndedAnswerScopeClosed() async throws {
        let registry = try registry()
        let scope = registry.openRequestScope()
        try scope.supply(RequestInfoValue(id: 1), for: .requestInfo)
        let holder = try scope.makeDestination(to: .lateRequestHolder)
        scope.end()
        #expect(await codes(holder) == [.scopeClosed, .scopeClosed])
    }

    @Test func aLazyAndAProviderMadeInAnOpenRequestScopeAnswerShutDownAfterShutdown() async throws {
        let registry = try registry()
        let scope = registry.openRequestScope()
        defer { scope.end() }
        try scope.supply(RequestInfoValue(id: 2), for: .requestInfo)
        let holder = try scope.makeDestination(to: .lateRequestHolder)
        try registry.shutdown()
        #expect(await codes(holder) == [.shutDown, .shutDown])
    }

    @Test func aLazyAndAProviderMadeInAnEndedRequestScopeAnswerShutDownAfterShutdown() async throws {
        let registry = try registry()
        let scope = registry.openRequestScope()
        try scope.supply(RequestInfoValue(id: 3), for: .requestInfo)
        let holder = try scope.makeDestination(to: .lateRequestHolder)
        scope.end()
        try registry.shutdown()
        #expect(await codes(holder) == [.shutDown, .shutDown])
    }

    @Test func aLazyAndAProviderMadeInAnAsyncLookupOfARequestScopeAnswerScopeClosedAfterItEnds() async throws {
        let registry = try registry()
        let scope = registry.openRequestScope()
        try scope.supply(RequestInfoValue(id: 4), for: .requestInfo)
        let holder = try await scope.makeDestinationAsync(to: .lateRequestHolder)
        #expect(try holder.lazy.value().info.id == 4)
        scope.end()
        #expect(await routeErrorCode { _ = try holder.provider() } == .scopeClosed)
    }

    @Test func aLazyAndAProviderOfACustomScopedKeyAnswerScopeClosedAfterCloseAndShutDownAfterShutdown() async throws {
        let session = CustomScope("session")
        let registry = try sealedRegistry { registry in
            try registry.register(.requestUnit) { _ in RequestUnitImpl(info: RequestInfoValue(id: 0)) }
                .scope(.custom(session))
            try registry.register(.lateRequestHolder) { r in
                LateRequestHolder(lazy: try r.lazy(.requestUnit), provider: try r.provider(.requestUnit))
            }.dependencies(.lazy(.requestUnit))
        }
        let holder = try registry.makeDestination(to: .lateRequestHolder)
        session.close()
        #expect(await codes(holder) == [.scopeClosed, .scopeClosed])
        try registry.shutdown()
        #expect(await codes(holder) == [.shutDown, .shutDown])
    }
}
