import Router
import Testing

// A running lookup that takes an edge its registration did not declare, while the registration declared
// others, is reported to the error handler the first time (issue 35, item 1): the declarations are what
// validation and the graph trust, so the one that went stale is named with the fix.
struct UndeclaredEdgeReportTests {
    /// The errors the handler saw, in order.
    private func collectingHandler(_ registry: RouteRegistry) -> TestLocked<[RouteError]> {
        let seen = TestLocked<[RouteError]>([])
        registry.errorHandler = { error in seen.withLock { $0.append(error) } }
        return seen
    }

    @Test func theFirstUndeclaredEdgeOfARegistrationThatDeclaresOthersReachesTheErrorHandlerOnce() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8() }
            try registry.register(.radio) { _ in RadioImpl() }
            try registry.register(.car) { r in
                let car = CarImpl(engine: try r.resolve(.engine))
                car.radio = try r.resolve(.radio)
                return car
            }.dependencies(.initializer(.engine))
        }
        let seen = collectingHandler(registry)
        #expect(try registry.makeDestination(to: .car).radio != nil)
        #expect(try registry.makeDestination(to: .car).radio != nil)
        let errors = seen.withLock { $0 }
        #expect(errors.count == 1)
        #expect(errors.first?.code == .undeclaredDependency)
        #expect(errors.first?.path == ["Car", "Radio"])
        #expect(
            errors.first?.description.hasPrefix(
                "RoutableService<Car> from RouterTests/UndeclaredEdgeReportTests.swift:") == true)
        #expect(
            errors.first?.description.hasSuffix(
                " looked up RoutableService<Radio> in its factory, but declares only Engine (resolving Car → Radio). Hint: Declare it, .dependencies(.initializer(…)) (or .lazy, .many), so that sealing checks it and the graph shows it."
            ) == true)
    }

    @Test func aRegistrationThatDeclaresNothingOrAllItTakesIsNotReported() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8() }
            try registry.register(.radio) { r in
                // Declares nothing: only verifyByMaking() reports its edges.
                _ = try r.resolve(.engine)
                return RadioImpl()
            }
            try registry.register(.car) { r in CarImpl(engine: try r.resolve(.engine)) }
                .dependencies(.initializer(.engine))
        }
        let seen = collectingHandler(registry)
        _ = try registry.makeDestination(to: .radio)
        _ = try registry.makeDestination(to: .car)
        #expect(seen.withLock { $0 }.isEmpty)
    }

    @Test func aTracedLookupChecksEveryRunNotOnlyTheFirst() throws {
        let takesRadio = TestLocked(false)
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8() }
            try registry.register(.radio) { _ in RadioImpl() }
            try registry.register(.car) { r in
                let car = CarImpl(engine: try r.resolve(.engine))
                if takesRadio.withLock({ $0 }) { car.radio = try r.resolve(.radio) }
                return car
            }.dependencies(.initializer(.engine))
        }
        let seen = collectingHandler(registry)
        // The first run takes only the declared edge.
        _ = try registry.makeDestination(to: .car)
        takesRadio.withLock { $0 = true }
        _ = try registry.makeDestination(to: .car)
        // Untraced, a later run is not checked again.
        #expect(seen.withLock { $0 }.isEmpty)
        // Traced, every run is.
        registry.traceHandler = { _ in }
        defer { registry.traceHandler = nil }
        _ = try registry.makeDestination(to: .car)
        _ = try registry.makeDestination(to: .car)
        #expect(seen.withLock { $0 }.map(\.code) == [.undeclaredDependency])
    }
}
