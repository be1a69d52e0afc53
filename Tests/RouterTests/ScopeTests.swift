import Router
import Testing

struct ScopeTests {
    func registry(scope: Scope, made: Counter) throws -> RouteRegistry {
        try sealedRegistry { registry in
            try registry.register(.engine) { _ in
                made.increment()
                return V8()
            }.scope(scope)
            try registry.register(.car) { r in CarImpl(engine: try r.resolve(.engine)) }
            try registry.register(.wheel) { r in
                _ = try r.resolve(.engine)
                return WheelImpl(position: 0)
            }
        }
    }

    @Test func transientMakesANewInstanceForEveryLookup() throws {
        let made = Counter()
        let registry = try registry(scope: .transient, made: made)
        #expect(try registry.makeDestination(to: .engine) !== registry.makeDestination(to: .engine))
        #expect(made.value == 2)
    }

    @Test func graphSharesOneInstancePerTopLevelLookup() throws {
        let made = Counter()
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in
                made.increment()
                return V8()
            }.scope(.graph)
            try registry.register(.radio) { r in
                _ = try r.resolve(.engine)
                return RadioImpl()
            }
            try registry.register(.car) { r in
                CarImpl(engine: try r.resolve(.engine))
            }.injecting(\.radio, .radio)
        }
        _ = try registry.makeDestination(to: .car)
        #expect(made.value == 1)
        let cars = try registry.makeDestinations(to: .car) + [registry.makeDestination(to: .car)]
        #expect(cars.count == 2)
        #expect(cars[0].engine !== cars[1].engine)
        #expect(made.value == 3)
    }

    @Test func singletonIsBuiltOnceAndShared() throws {
        let made = Counter()
        let registry = try registry(scope: .singleton, made: made)
        let first = try registry.makeDestination(to: .car).engine
        #expect(try registry.makeDestination(to: .engine) === first)
        #expect(made.value == 1)
    }

    @Test func singletonIsBuiltExactlyOnceWhenEightThreadsAskAtTheSameMoment() throws {
        for _ in 0..<20 {
            let made = Counter()
            let registry = try sealedRegistry { registry in
                try registry.register(.engine) { _ in
                    made.increment()
                    return V8()
                }.scope(.singleton)
            }
            let seen = EventLog()
            onThreads(8) { _ in
                if let engine = try? registry.makeDestination(to: .engine) {
                    seen.record("\(ObjectIdentifier(engine))")
                }
            }
            #expect(made.value == 1)
            #expect(Set(seen.events).count == 1)
            #expect(seen.events.count == 8)
        }
    }

    @Test func weakSingletonIsSharedWhileHeldAndRebuiltAfterRelease() throws {
        let made = Counter()
        let registry = try registry(scope: .weakSingleton, made: made)
        var held: (any Engine)? = try registry.makeDestination(to: .engine)
        #expect(try registry.makeDestination(to: .engine) === held)
        #expect(made.value == 1)
        weak let released = held
        held = nil
        #expect(released == nil)
        _ = try registry.makeDestination(to: .engine)
        #expect(made.value == 2)
    }

    @Test func eagerSingletonIsBuiltWhenTheRegistryIsSealed() throws {
        let made = Counter()
        let registry = RouteRegistry()
        try registry.register(.engine) { _ in
            made.increment()
            return V8()
        }.scope(.eagerSingleton)
        #expect(made.value == 0)
        try registry.seal()
        #expect(made.value == 1)
        _ = try registry.makeDestination(to: .engine)
        #expect(made.value == 1)
    }

    @Test func anEagerSingletonThatFailsKeepsTheRegistryOpen() throws {
        let registry = RouteRegistry()
        try registry.register(.engine) { _ in throw Boom() }.scope(.eagerSingleton)
        let error = #expect(throws: RouteError.self) { try registry.seal() }
        #expect(error?.code == .factoryFailed)
        #expect(!registry.isSealed)
    }

    @Test func customScopeSharesUntilResetAndReleasesItsInstances() throws {
        let session = CustomScope("session")
        let made = Counter()
        let registry = try registry(scope: .custom(session), made: made)
        var first: (any Engine)? = try registry.makeDestination(to: .engine)
        #expect(try registry.makeDestination(to: .engine) === first)
        #expect(session.count == 1)
        weak let weakFirst = first
        first = nil
        #expect(weakFirst != nil)  // the scope holds it
        session.reset()
        #expect(weakFirst == nil)
        #expect(session.count == 0)
        _ = try registry.makeDestination(to: .engine)
        #expect(made.value == 2)
    }

    @Test func aClosedCustomScopeIsATypedError() throws {
        let session = CustomScope("session")
        let registry = try registry(scope: .custom(session), made: Counter())
        session.close()
        let error = #expect(throws: RouteError.self) { try registry.makeDestination(to: .car) }
        #expect(error?.code == .scopeClosed)
        #expect(
            error?.description
                == "RoutableService<Engine> lives in CustomScope(\"session\"), which was closed (resolving Car → Engine). Hint: Create a new CustomScope for a new session; reset() empties a scope without closing it."
        )
    }

    @Test func resettingACustomScopeWhileEightThreadsLookUpNeverDeadlocks() throws {
        let session = CustomScope("session")
        let registry = try registry(scope: .custom(session), made: Counter())
        let failures = Counter()
        onThreads(8) { index in
            for _ in 0..<2_000 {
                if index == 0 {
                    session.reset()
                } else if (try? registry.makeDestination(to: .car)) == nil {
                    failures.increment()
                }
            }
        }
        #expect(failures.value == 0)
    }

    @Test func aSingletonDependingOnAGraphScopedKeyIsACaptiveDependency() throws {
        let registry = RouteRegistry()
        try registry.register(.engine) { _ in V8() }.scope(.graph)
        try registry.register(.car) { r in
            CarImpl(engine: try r.resolve(.engine))
        }.scope(.singleton).dependencies(.initializer(.engine))
        let report = try registry.validate()
        #expect(report.problems.map(\.code) == [.captiveDependency])
        #expect(
            report.problems.first?.reason
                == "RoutableService<Car> is a singleton but depends on RoutableService<Engine>, which is graph-scoped: it would keep one Engine for longer than that scope lasts."
        )
    }

    @Test func aChildRegistrysCustomScopedInstancesDieWithIt() throws {
        let session = CustomScope("session")
        let parent = try sealedRegistry { try $0.register(.radio) { _ in RadioImpl() } }
        weak var engine: (any Engine)?
        do {
            let child = try sealedRegistry(parent: parent) { registry in
                try registry.register(.engine) { _ in V8() }.scope(.custom(session))
            }
            engine = try child.makeDestination(to: .engine)
            #expect(engine != nil)
            #expect(session.count == 1)
        }
        #expect(engine == nil)
        #expect(session.count == 0)
    }
}
