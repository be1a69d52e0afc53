import Router
import Testing

struct CircularDependencyTests {
    /// A(init B), B.a by property.
    func twoCycle(scope: Scope, calls: Calls) throws -> RouteRegistry {
        try sealedRegistry { registry in
            try registry.register(.nodeA) { r in
                calls.a.increment()
                return AImpl(b: try r.resolve(.nodeB))
            }.scope(scope)
            try registry.register(.nodeB) { _ in
                calls.b.increment()
                return BImpl()
            }.scope(scope).injecting(\.a, .nodeA)
        }
    }

    @Test(arguments: [Scope.transient, .graph])
    func initializerThenPropertyCycleClosesWithOneInstanceFromA(scope: Scope) throws {
        let calls = Calls()
        let a = try twoCycle(scope: scope, calls: calls).makeDestination(to: .nodeA)
        #expect(a.b?.a === a)
        #expect(calls.a.value == 1)
        #expect(calls.b.value == 1)
        breakCycles(a)
    }

    @Test(arguments: [Scope.transient, .graph])
    func initializerThenPropertyCycleClosesWithOneInstanceFromB(scope: Scope) throws {
        let calls = Calls()
        let b = try twoCycle(scope: scope, calls: calls).makeDestination(to: .nodeB)
        #expect(b.a?.b === b)
        #expect(calls.a.value == 1)
        #expect(calls.b.value == 1)
        b.a = nil
    }

    /// A(init B), B(init C), C.a by property.
    func threeCycle(calls: Calls) throws -> RouteRegistry {
        try sealedRegistry { registry in
            try registry.register(.nodeA) { r in
                calls.a.increment()
                return AImpl(b: try r.resolve(.nodeB))
            }
            try registry.register(.nodeB) { r in
                calls.b.increment()
                return BImpl(c: try r.resolve(.nodeC))
            }
            try registry.register(.nodeC) { _ in
                calls.c.increment()
                return CImpl()
            }.injecting(\.a, .nodeA)
        }
    }

    @Test func threeObjectLoopClosesFromEveryEntryPoint() throws {
        let calls = Calls()
        let registry = try threeCycle(calls: calls)

        let a = try registry.makeDestination(to: .nodeA)
        #expect(a.b?.c?.a === a)
        breakCycles(a)

        let b = try registry.makeDestination(to: .nodeB)
        #expect(b.c?.a?.b === b)
        b.c?.a = nil

        let c = try registry.makeDestination(to: .nodeC)
        #expect(c.a?.b?.c === c)
        c.a = nil

        #expect(calls.a.value == 3)
        #expect(calls.b.value == 3)
        #expect(calls.c.value == 3)
    }

    /// A has two B properties; B takes A in its initializer.
    func doubleInjection(bScope: Scope, calls: Calls) throws -> RouteRegistry {
        try sealedRegistry { registry in
            try registry.register(.nodeA) { _ in
                calls.a.increment()
                return AImpl(b: nil)
            }.injecting(\.b1, .nodeB).injecting(\.b2, .nodeB)
            try registry.register(.nodeB) { r in
                calls.b.increment()
                return BImpl(a: try r.resolve(.nodeA))
            }.scope(bScope)
        }
    }

    @Test func doubleInjectionWithTransientBGivesTwoBsPointingToOneA() throws {
        let calls = Calls()
        let a = try doubleInjection(bScope: .transient, calls: calls).makeDestination(to: .nodeA)
        #expect(a.b1 !== a.b2)
        #expect(a.b1?.a === a)
        #expect(a.b2?.a === a)
        #expect(calls.a.value == 1)
        #expect(calls.b.value == 2)
        breakCycles(a)
    }

    @Test func doubleInjectionWithGraphScopedBSharesOneB() throws {
        let calls = Calls()
        let a = try doubleInjection(bScope: .graph, calls: calls).makeDestination(to: .nodeA)
        #expect(a.b1 === a.b2)
        #expect(a.b1?.a === a)
        #expect(calls.b.value == 1)
        breakCycles(a)
    }

    @Test func cycleAcrossSingletonAndGraphScopesBuildsOneOfEach() throws {
        let calls = Calls()
        let registry = try sealedRegistry { registry in
            try registry.register(.nodeA) { r in
                calls.a.increment()
                return AImpl(b: try r.resolve(.nodeB))
            }.scope(.singleton)
            try registry.register(.nodeB) { _ in
                calls.b.increment()
                return BImpl()
            }.scope(.graph).injecting(\.a, .nodeA)
        }
        let a = try registry.makeDestination(to: .nodeA)
        #expect(a.b?.a === a)
        #expect(try registry.makeDestination(to: .nodeA) === a)
        let b = try registry.makeDestination(to: .nodeB)
        #expect(b.a === a)
        #expect(calls.a.value == 1)
        #expect(calls.b.value == 2)  // one for the singleton's graph, one for the second lookup
        breakCycles(a)
        b.a = nil
    }

    @Test func injectionsRunInOrderWithCycleClosingOnesLastThenThePostInitHook() throws {
        let calls = Calls()
        let registry = try sealedRegistry { registry in
            try registry.register(.radio) { _ in RadioImpl() }
            try registry.register(.nodeA) { r in AImpl(b: try r.resolve(.nodeB)) }
            try registry.register(.nodeB) { _ in BImpl() }
                .preparing { _, _ in calls.log.record("first") }
                .injecting(\.a, .nodeA)  // closes the cycle: runs after the others
                .preparing { _, r in
                    _ = try r.resolve(.radio)
                    calls.log.record("third")
                }
                .didFinishPrepare { b, _ in calls.log.record("post-init sees a: \(b.a != nil)") }
        }
        let a = try registry.makeDestination(to: .nodeA)
        #expect(calls.log.events == ["first", "third", "post-init sees a: true"])
        breakCycles(a)
    }

    @Test(arguments: 1...4)
    func initializerOnlyCyclesFailWithTheCyclePrinted(length: Int) throws {
        let keys: [RoutableService<any Engine>] = (0..<length).map { RoutableService.engine.named("e\($0)") }
        let registry = try sealedRegistry { registry in
            for index in 0..<length {
                let next = keys[(index + 1) % length]
                try registry.register(keys[index]) { r in try r.resolve(next) }
            }
        }
        let error = #expect(throws: RouteError.self) { try registry.makeDestination(to: keys[0]) }
        let names = (0..<length).map { "Engine[\"e\($0)\"]" } + ["Engine[\"e0\"]"]
        #expect(error?.code == .circularDependency)
        #expect(error?.path == names)
        #expect(
            error?.reason
                == "Circular dependency: \(names.joined(separator: " → ")) cannot be built, because Engine[\"e0\"] is needed before its initializer has returned."
        )
    }

    @Test func aSingletonInItsOwnInitializerCycleFailsWithoutDeadlock() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.nodeA) { r in AImpl(b: try r.resolve(.nodeB)) }.scope(.singleton)
            try registry.register(.nodeB) { r in BImpl(a: try r.resolve(.nodeA)) }
        }
        let error = #expect(throws: RouteError.self) { try registry.makeDestination(to: .nodeA) }
        #expect(error?.code == .circularDependency)
        #expect(error?.path == ["NodeA", "NodeB", "NodeA"])
    }

    @Test func declaredInitializerCyclesAreReportedAtSealing() throws {
        let registry = RouteRegistry()
        try registry.register(.nodeA) { r in AImpl(b: try r.resolve(.nodeB)) }.dependencies(.initializer(.nodeB))
        try registry.register(.nodeB) { r in BImpl(c: try r.resolve(.nodeC)) }.dependencies(.initializer(.nodeC))
        try registry.register(.nodeC) { _ in CImpl() }.dependencies(.initializer(.nodeA))
        let error = #expect(throws: RouteError.self) { try registry.seal() }
        #expect(error?.code == .validationFailed)
        #expect(
            error?.reason
                == "Sealing found 1 problem:\n- Circular dependency: NodeA → NodeB → NodeC → NodeA is made only of initializer dependencies, so none of them can be built. Hint: Inject one edge after creation (.injecting or .preparing), or through Lazy or Provider."
        )
        #expect(!registry.isSealed)
    }

    @Test func aCycleClosedByAPropertyIsValidAtSealing() throws {
        let registry = RouteRegistry()
        try registry.register(.nodeA) { r in AImpl(b: try r.resolve(.nodeB)) }.dependencies(.initializer(.nodeB))
        try registry.register(.nodeB) { r in BImpl(c: try r.resolve(.nodeC)) }.dependencies(.initializer(.nodeC))
        try registry.register(.nodeC) { _ in CImpl() }.injecting(\.a, .nodeA)
        #expect(try registry.validate().isValid)
        try registry.seal()
    }

    /// Two singletons, A(init B) and B.a by property.
    func singletonPair(calls: Calls) throws -> RouteRegistry {
        try sealedRegistry { registry in
            try registry.register(.nodeA) { r in
                calls.a.increment()
                return AImpl(b: try r.resolve(.nodeB))
            }.scope(.singleton)
            try registry.register(.nodeB) { _ in
                calls.b.increment()
                return BImpl()
            }.scope(.singleton).injecting(\.a, .nodeA)
        }
    }

    @Test func aPropertyClosedCycleOfTwoSingletonsResolvesFromEitherSide() throws {
        let calls = Calls()
        let fromA = try singletonPair(calls: calls)
        let a = try fromA.makeDestination(to: .nodeA)
        #expect(a.b?.a === a)
        #expect(try fromA.makeDestination(to: .nodeB) === a.b)

        let fromB = try singletonPair(calls: calls)
        let b = try fromB.makeDestination(to: .nodeB)
        #expect(b.a?.b === b)
        #expect(try fromB.makeDestination(to: .nodeA) === b.a)
        #expect(calls.a.value == 2)
        #expect(calls.b.value == 2)
        breakCycles(a)
        breakCycles(b.a)
    }

    @Test func twoThreadsEnteringASingletonCycleFromOppositeSidesShareOnePair() throws {
        for _ in 0..<50 {
            let calls = Calls()
            let registry = try singletonPair(calls: calls)
            let seen = EventLog()
            onThreads(2) { index in
                if index == 0, let a = try? registry.makeDestination(to: .nodeA), let b = a.b {
                    seen.record("\(ObjectIdentifier(a)) \(ObjectIdentifier(b))")
                } else if index == 1, let b = try? registry.makeDestination(to: .nodeB), let a = b.a {
                    seen.record("\(ObjectIdentifier(a)) \(ObjectIdentifier(b))")
                }
            }
            #expect(seen.events.count == 2)
            #expect(Set(seen.events).count == 1)
            #expect(calls.a.value == 1)
            #expect(calls.b.value == 1)
            breakCycles(try registry.makeDestination(to: .nodeA))
        }
    }

    @Test func aSingletonHandedToAFactoryIsAlreadyPrepared() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.radio) { _ in RadioImpl() }
            try registry.register(.engine) { _ in V8() }
            try registry.register(.car) { r in
                CarImpl(engine: try r.resolve(.engine))
            }.scope(.singleton).injecting(\.radio, .radio)
            try registry.register(.wheel) { r in
                let car = try r.resolve(.car)
                return WheelImpl(position: car.radio == nil ? 0 : 1)
            }
        }
        #expect(try registry.makeDestination(to: .wheel).position == 1)
    }
}
