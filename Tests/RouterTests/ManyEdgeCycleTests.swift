import Router
import Testing

// Issue 16 item 4: a cycle through a `many` edge is an initializer-only cycle like any other.

/// A car whose initializer takes every wheel; each wheel's initializer takes the car.
private func carNeedingWheelsNeedingTheCar(wheelBack: RouteDependency) throws -> RouteRegistry {
    let registry = RouteRegistry()
    try registry.register(.car) { r in
        let wheels = try r.resolveAll(.wheel)
        return CarImpl(engine: V8(horsepower: wheels.count))
    }.dependencies(.many(.wheel))
    for position in 0..<2 {
        try registry.register(.wheel) { r in
            _ = try r.resolve(.car)
            return WheelImpl(position: position)
        }.dependencies(wheelBack)
    }
    return registry
}

struct ManyEdgeCycleTests {
    @Test func membersOfAManyEdgeNeedingTheObjectByInitializerAreReportedAsACycle() throws {
        let registry = try carNeedingWheelsNeedingTheCar(wheelBack: .initializer(.car))
        let problems = try registry.validate().problems
        // One cycle per wheel registration: each closes Car → Wheel → Car on its own.
        #expect(problems.map(\.code) == [.circularDependency, .circularDependency])
        #expect(problems.map(\.path) == [["Car", "Wheel", "Car"], ["Car", "Wheel", "Car"]])
        #expect(
            problems.first?.description
                == "Circular dependency: Car → Wheel → Car is made only of initializer dependencies, so none of them can be built. Hint: Inject one edge after creation (.injecting or .preparing), or through Lazy or Provider."
        )
        let sealing = #expect(throws: RouteError.self) { try registry.seal() }
        #expect(sealing?.code == .validationFailed)
        #expect(
            sealing?.reason.hasPrefix("Sealing found 2 problems:\n- Circular dependency: Car → Wheel → Car") == true)
        #expect(!registry.isSealed)
    }

    @Test func membersOfAManyEdgeNeedingTheObjectByPropertyOrLazilyAreNoCycle() throws {
        for back in [RouteDependency.property(.car), .lazy(.car)] {
            let registry = try carNeedingWheelsNeedingTheCar(wheelBack: back)
            #expect(try registry.validate().description == "No problems found.")
        }
    }

    @Test func aManyEdgeToAKeyWithNoRegistrationIsNoCycleAndNoProblem() throws {
        let registry = RouteRegistry()
        try registry.register(.car) { r in
            CarImpl(engine: V8(horsepower: try r.resolveAll(.wheel).count))
        }.dependencies(.many(.wheel))
        try registry.seal()
        #expect(try registry.makeDestination(to: .car).engine.horsepower == 0)
    }
}
