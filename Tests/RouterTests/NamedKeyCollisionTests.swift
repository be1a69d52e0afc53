import Router
import Testing

// Named keys are found by a 64-bit hash of their text, but identified by the text. These two names have
// the same FNV-1a hash (found in a few minutes with Brent's cycle search over 16-character hex strings).

private let first = "c5bde799c2362419"
private let second = "a1a9a9bf38687075"

struct NamedKeyCollisionTests {
    @Test func aNameWhoseHashCollidesWithARegisteredOneIsNotThatRegistration() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.engine.named(first)) { _ in V8(horsepower: 1) }
        }
        #expect(try registry.makeDestination(to: .engine.named(first)).horsepower == 1)
        let error = #expect(throws: RouteError.self) { try registry.makeDestination(to: .engine.named(second)) }
        #expect(error?.code == .unregisteredKey, "\(String(describing: error))")
        #expect(try registry.makeDestinationIfRegistered(to: .engine.named(second)) == nil)
        #expect(try registry.makeDestinations(to: RoutableService<any Engine>.engine.named(second)).isEmpty)
    }

    @Test func twoRegisteredNamesThatCollideAreReportedAtSealing() throws {
        let registry = RouteRegistry()
        try registry.register(.engine.named(first)) { _ in V8(horsepower: 1) }
        try registry.register(.engine.named(second)) { _ in V8(horsepower: 2) }
        let problems = try registry.validate().problems
        #expect(problems.map(\.code) == [.ambiguousRegistration], "\(problems)")
        #expect(problems.first?.description.contains(first) == true)
        #expect(problems.first?.description.contains(second) == true)
        #expect(throws: RouteError.self) { try registry.seal() }
    }

    @Test func keysWithCollidingNamesAreNotEqual() {
        #expect(RoutableService<any Engine>.engine.named(first) != .engine.named(second))
        #expect(RoutableService<any Engine>.engine.named(first) == .engine.named(first))
    }

    @Test func aDependencyOnACollidingNameIsReportedAsMissing() throws {
        let registry = RouteRegistry()
        try registry.register(.engine.named(first)) { _ in V8() }
        try registry.register(.car) { r in CarImpl(engine: try r.resolve(.engine.named(second))) }
            .dependencies(.initializer(.engine.named(second)))
        let problems = try registry.validate().problems
        #expect(problems.count == 1, "\(problems)")
        #expect(problems.first?.description.contains(second) == true, "\(problems)")
    }
}
