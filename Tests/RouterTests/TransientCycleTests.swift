import Router
import Testing

// An initializer-only cycle of transients (nothing shared, so no creation transaction and no graph sees
// it) must stop at its first repeat with `circularDependency`, each factory having run once, not run
// hundreds of times until the depth guard notices.

protocol LoopA: AnyObject {}
protocol LoopB: AnyObject {}
protocol LoopC: AnyObject {}
final class LoopAImpl: LoopA { init(_: Any) {} }
final class LoopBImpl: LoopB { init(_: Any) {} }
final class LoopCImpl: LoopC { init(_: Any) {} }
extension RoutableService where Destination == any LoopA {
    static var loopA: Self { Self(declaring: (any LoopA).self) }
}
extension RoutableService where Destination == any LoopB {
    static var loopB: Self { Self(declaring: (any LoopB).self) }
}
extension RoutableService where Destination == any LoopC {
    static var loopC: Self { Self(declaring: (any LoopC).self) }
}

struct TransientCycleTests {
    @Test(arguments: [Scope.transient, .graph])
    func aTwoStepInitializerCycleStopsAtItsFirstRepeat(scope: Scope) throws {
        let runs = EventLog()
        let registry = try sealedRegistry { registry in
            try registry.register(.loopA) { r in
                runs.record("a")
                return LoopAImpl(try r.resolve(.loopB))
            }.scope(scope)
            try registry.register(.loopB) { r in
                runs.record("b")
                return LoopBImpl(try r.resolve(.loopA))
            }.scope(scope)
        }
        let error = #expect(throws: RouteError.self) { try registry.makeDestination(to: .loopA) }
        #expect(error?.code == .circularDependency)
        #expect(error?.path.map { $0 } == ["LoopA", "LoopB", "LoopA"], "\(String(describing: error))")
        #expect(runs.events == ["a", "b"])
    }

    @Test func aThreeStepInitializerCycleStopsAtItsFirstRepeat() throws {
        let runs = EventLog()
        let registry = try sealedRegistry { registry in
            try registry.register(.loopA) { r in
                runs.record("a")
                return LoopAImpl(try r.resolve(.loopB))
            }
            try registry.register(.loopB) { r in
                runs.record("b")
                return LoopBImpl(try r.resolve(.loopC))
            }
            try registry.register(.loopC) { r in
                runs.record("c")
                return LoopCImpl(try r.resolve(.loopA))
            }
        }
        let error = #expect(throws: RouteError.self) { try registry.makeDestination(to: .loopB) }
        #expect(error?.code == .circularDependency)
        #expect(runs.events == ["b", "c", "a"])
    }

    @Test func aFactoryThatAsksForItselfStopsAtOnce() throws {
        let runs = Counter()
        let registry = try sealedRegistry { registry in
            try registry.register(.loopA) { r in
                runs.increment()
                return LoopAImpl(try r.resolve(.loopA))
            }
        }
        #expect(throws: RouteError.self) { try registry.makeDestination(to: .loopA) }
        #expect(runs.value == 1)
    }
}
