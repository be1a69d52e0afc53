import Router
import Testing

/// How the `position`-th registration of a wheel (1, 2, 3, …) is made for the many-lookup of `.wheel`.
enum WheelFiling: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// `register(.wheel)`.
    case direct
    /// `register(.wheel.named(…)).also(.wheel)`, the modifier chained onto the registering call.
    case also
    /// `register(.wheel.named(…))`, and `.also(.wheel)` called on its registration once every wheel is
    /// registered: the registration's position is still where `register` was called.
    case alsoAddedLater

    var testDescription: String { rawValue }

    /// Every way of filing `count` wheels, one filing per position.
    static func mixes(of count: Int) -> [[WheelFiling]] {
        (0..<count).reduce([[]]) { mixes, _ in mixes.flatMap { mix in allCases.map { mix + [$0] } } }
    }
}

/// Registers one wheel per filing, numbered from `first`, into `registry`.
func registerWheels(_ filings: [WheelFiling], from first: Int = 1, in registry: RouteRegistry) throws {
    var later: [Registration<any Wheel, any Wheel>] = []
    for (offset, filing) in filings.enumerated() {
        let position = first + offset
        switch filing {
        case .direct:
            try registry.register(.wheel) { _ in WheelImpl(position: position) }.oneOfMany()
        case .also:
            try registry.register(.wheel.named("wheel \(position)")) { _ in WheelImpl(position: position) }
                .also(.wheel).oneOfMany()
        case .alsoAddedLater:
            later.append(
                try registry.register(.wheel.named("wheel \(position)")) { _ in WheelImpl(position: position) })
        }
    }
    for registration in later { try registration.also(.wheel).oneOfMany() }
}

struct ManyLookupOrderTests {
    @Test func aKeyAddedWithAlsoToAnEarlierRegistrationComesFirst() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.wheel.named("front")) { _ in WheelImpl(position: 1) }.also(.wheel).oneOfMany()
            try registry.register(.wheel) { _ in WheelImpl(position: 2) }.oneOfMany()
            try registry.register(.wheel) { _ in WheelImpl(position: 3) }.oneOfMany()
        }
        #expect(try registry.makeDestinations(to: .wheel).map(\.position) == [1, 2, 3])
    }

    @Test func aKeyAddedWithAlsoBetweenDirectRegistrationsKeepsItsPlace() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.wheel) { _ in WheelImpl(position: 1) }.oneOfMany()
            try registry.register(.wheel.named("spare")) { _ in WheelImpl(position: 2) }.also(.wheel).oneOfMany()
            try registry.register(.wheel) { _ in WheelImpl(position: 3) }.oneOfMany()
        }
        #expect(try registry.makeDestinations(to: .wheel).map(\.position) == [1, 2, 3])
    }

    @Test(arguments: WheelFiling.mixes(of: 3))
    func everyMixOfDirectAndAlsoRegistrationsIsReturnedInRegistrationOrder(filings: [WheelFiling]) throws {
        let registry = try sealedRegistry { try registerWheels(filings, in: $0) }
        #expect(try registry.makeDestinations(to: .wheel).map(\.position) == [1, 2, 3])
        let inFactory = try sealedRegistry { registry in
            try registerWheels(filings, in: registry)
            try registry.register(.car) { r in
                CarImpl(engine: V8(horsepower: try r.resolveAll(.wheel).map(\.position).reduce(0) { $0 * 10 + $1 }))
            }
        }
        #expect(try inFactory.makeDestination(to: .car).engine.horsepower == 123)
    }

    @Test(arguments: [
        [WheelFiling.also, .direct, .alsoAddedLater, .direct], [.direct, .also, .also, .direct],
        [.alsoAddedLater, .alsoAddedLater, .also, .also],
    ])
    func aChildsRegistrationsFollowItsParentsEachInRegistrationOrder(filings: [WheelFiling]) throws {
        let parent = try sealedRegistry { try registerWheels(Array(filings[0..<2]), in: $0) }
        let child = try sealedRegistry(parent: parent) { try registerWheels(Array(filings[2...]), from: 3, in: $0) }
        #expect(try child.makeDestinations(to: .wheel).map(\.position) == [1, 2, 3, 4])
    }

    @Test func anOverridesAlsoKeyServesThatKeyInsideWithOverrides() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.wheel) { _ in WheelImpl(position: 1) }.oneOfMany()
        }
        let positions = try registry.withOverrides { overrides in
            try overrides.register(.wheel.named("spare")) { _ in WheelImpl(position: 2) }.also(.wheel)
        } operation: {
            try registry.makeDestinations(to: .wheel).map(\.position)
        }
        #expect(positions == [1, 2])
        #expect(try registry.makeDestinations(to: .wheel).map(\.position) == [1])
    }
}

struct AlsoKeyGraphTests {
    @Test func theGraphListsAnAlsoKeyRightAfterItsRegistrationBeforeAndAfterSealing() throws {
        let registry = RouteRegistry()
        try registry.register(.wheel) { _ in WheelImpl(position: 1) }.oneOfMany()
        try registry.register(.wheel.named("spare")) { _ in WheelImpl(position: 2) }.also(.wheel).oneOfMany()
        try registry.register(.wheel) { _ in WheelImpl(position: 3) }.oneOfMany()
        let unsealed = try registry.dependencyGraph()
        try registry.seal()
        let sealed = try registry.dependencyGraph()
        #expect(sealed.nodes.map(\.name) == ["Wheel", "Wheel[\"spare\"]", "Wheel", "Wheel"])
        #expect(sealed.edges.map { [$0.from] + $0.to } == [[2, 1]])
        #expect(unsealed.nodes == sealed.nodes)
        #expect(unsealed.edges == sealed.edges)
    }
}
