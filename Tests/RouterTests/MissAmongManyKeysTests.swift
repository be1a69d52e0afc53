import Router
import Testing

// A lookup of a key nobody registered, among many registered keys of the same protocol: its hint names a
// few of them and counts the rest, and building it is one pass over the keys, made only when the hint is
// read, so that a miss itself costs about what a hit costs. The bounds are hang detectors, far above the
// expected time (a few seconds, most of it registering the keys); the tests assert on the messages and
// counts, never on time.
struct MissAmongManyKeysTests {
    /// A sealed registry with `count` named keys of `Engine`, `engine-0` to `engine-<count - 1>`, each also
    /// registered under the identifier `engines/<index>`.
    private static func manyNamedEngines(_ count: Int) throws -> RouteRegistry {
        try sealedRegistry { registry in
            for index in 0..<count {
                try registry.register(.engine.named("engine-\(index)")) { _ in V8() }.identifier("engines/\(index)")
            }
        }
    }

    @Test func twoThousandMissesAmongAHundredThousandNamedKeysFinishAndEachHintIsReadLater() {
        let misses = TestLocked<[RouteError]>([])
        finishesOnItsOwnThread(bound: 120) {
            guard let registry = try? Self.manyNamedEngines(100_000) else { return }
            for index in 0..<2_000 {
                do {
                    _ = try registry.makeDestination(to: .engine.named("engine-\(index)x"))
                } catch let error as RouteError {
                    misses.withLock { $0.append(error) }
                } catch {}
            }
        }
        let errors = misses.withLock { $0 }
        #expect(errors.count == 2_000)
        #expect(errors.allSatisfy { $0.code == .unregisteredKey })
        #expect(
            errors.dropFirst(1_234).first?.description
                == #"No router is registered for RoutableService<Engine>["engine-1234x"]. Hint: Registered for the same protocol: RoutableService<Engine>["engine-12340"], RoutableService<Engine>["engine-12341"], RoutableService<Engine>["engine-12342"], RoutableService<Engine>["engine-12343"], RoutableService<Engine>["engine-12344"], and 99,995 more."#
        )
    }

    @Test func twoThousandUnknownIdentifiersAmongAHundredThousandFinishAndEachHintIsReadLater() {
        let misses = TestLocked<[RouteError]>([])
        finishesOnItsOwnThread(bound: 120) {
            guard let registry = try? Self.manyNamedEngines(100_000) else { return }
            for index in 0..<2_000 {
                do {
                    _ = try registry.makeDestination(identifier: "engines/\(index)x", as: (any Engine).self)
                } catch let error as RouteError {
                    misses.withLock { $0.append(error) }
                } catch {}
            }
        }
        let errors = misses.withLock { $0 }
        #expect(errors.count == 2_000)
        #expect(errors.allSatisfy { $0.code == .unknownIdentifier })
        #expect(
            errors.first?.description
                == #"No router is registered for the identifier "engines/0x". Hint: Known identifiers: "engines/0", "engines/1", "engines/10", "engines/100", "engines/1000", "engines/10000", "engines/10001", "engines/10002"."#
        )
    }

    @Test func aMissAmongTenThousandNamedKeysNamesTheClosestFiveAndCountsTheRest() {
        let message = TestLocked("")
        finishesOnItsOwnThread(bound: 120) {
            do {
                let registry = RouteRegistry()
                for index in 0..<10_000 {
                    try registry.register(.engine.named("engine-\(index)")) { _ in V8() }
                }
                try registry.seal()
                _ = try registry.makeDestination(to: .engine.named("engine-1234x"))
                message.withLock { $0 = "found a destination" }
            } catch {
                message.withLock { $0 = "\(error)" }
            }
        }
        let text = message.withLock { $0 }
        #expect(
            text
                == #"No router is registered for RoutableService<Engine>["engine-1234x"]. Hint: Registered for the same protocol: RoutableService<Engine>["engine-1234"], RoutableService<Engine>["engine-1230"], RoutableService<Engine>["engine-1231"], RoutableService<Engine>["engine-1232"], RoutableService<Engine>["engine-1233"], and 9,995 more."#
        )
        #expect(text.utf8.count < 1_000)
    }

    @Test func aMissOfTheUnnamedKeyNamesTheFirstRegisteredFiveAndCountsTheRest() throws {
        let registry = try sealedRegistry { registry in
            for index in 0..<1_000 {
                try registry.register(.engine.named("engine-\(index)")) { _ in V8() }
            }
        }
        let error = #expect(throws: RouteError.self) { try registry.makeDestination(to: .engine) }
        #expect(
            error?.hint
                == #"Registered for the same protocol: RoutableService<Engine>["engine-0"], RoutableService<Engine>["engine-1"], RoutableService<Engine>["engine-2"], RoutableService<Engine>["engine-3"], RoutableService<Engine>["engine-4"], and 995 more."#
        )
    }

    @Test func aKeyRegisteredInAParentAndAChildIsCountedOnce() throws {
        let parent = try sealedRegistry { registry in
            try registry.register(.engine.named("shared")) { _ in V8() }
            try registry.register(.engine.named("parent")) { _ in V8() }
        }
        let child = RouteRegistry(parent: parent)
        try child.register(.engine.named("shared")) { _ in V8() }
        try child.seal()
        let error = #expect(throws: RouteError.self) { try child.makeDestination(to: .engine.named("sharde")) }
        #expect(
            error?.hint
                == #"Registered for the same protocol: RoutableService<Engine>["shared"], RoutableService<Engine>["parent"]."#
        )
    }
}
