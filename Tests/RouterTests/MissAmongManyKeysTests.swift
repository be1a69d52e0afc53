import Router
import Testing

// A lookup of a key nobody registered, among many registered keys of the same protocol: its hint names a
// few of them and counts the rest, and building it is one pass over the keys. The bound is a hang
// detector, far above the expected time (a few milliseconds); the test asserts on the message, never on time.
struct MissAmongManyKeysTests {
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
