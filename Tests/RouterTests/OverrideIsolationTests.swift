import Router
import Testing

// Overrides are visible exactly inside the `withOverrides` body and the tasks it starts while it runs,
// and reach lookups made through child registries.

struct OverrideIsolationTests {
    func registry() throws -> RouteRegistry {
        try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8(horsepower: 400) }
        }
    }

    @Test func aTaskThatOutlivesWithOverridesNeverSeesTheFakeAgain() async throws {
        let registry = try registry()
        let release = Signal()
        let escaped = try registry.withOverrides { overrides in
            try overrides.register(.engine) { _ in V8(horsepower: 1) }
        } operation: {
            Task {
                release.wait()
                return try registry.makeDestination(to: .engine).horsepower
            }
        }
        // Another task overriding at the same time must not bring the first fake back to the escaped task.
        let (seenByEscaped, seenInside) = try await registry.withOverrides { overrides in
            try overrides.register(.engine) { _ in V8(horsepower: 2) }
        } operation: { () async throws -> (Int, Int) in
            release.fire()
            return (try await escaped.value, try registry.makeDestination(to: .engine).horsepower)
        }
        #expect(seenByEscaped == 400)
        #expect(seenInside == 2)
    }

    @Test func aParentsOverrideReachesLookupsThroughAChildRegistry() throws {
        let parent = try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8(horsepower: 400) }
        }
        let child = try sealedRegistry(parent: parent) { registry in
            try registry.register(.car) { r in CarImpl(engine: try r.resolve(.engine)) }.scope(.singleton)
        }
        let inside = try parent.withOverrides { overrides in
            try overrides.register(.engine) { _ in V8(horsepower: 1) }
        } operation: { () throws -> [Int] in
            [try child.makeDestination(to: .engine).horsepower, try child.makeDestination(to: .car).engine.horsepower]
        }
        #expect(inside == [1, 1])
        // The child's singleton first built under the parent's override was forgotten with it.
        #expect(try child.makeDestination(to: .car).engine.horsepower == 400)
        #expect(try child.makeDestination(to: .engine).horsepower == 400)
    }

    @Test func underAParentsOverrideAChildsSharedRegistrationIsOneInstanceThroughEitherKey() throws {
        let parent = try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8(horsepower: 400) }
        }
        let child = try sealedRegistry(parent: parent) { registry in
            try registry.register(.car) { r in CarImpl(engine: try r.resolve(.engine)) }.scope(.singleton)
                .also(.motorised)
        }
        let same = try parent.withOverrides { overrides in
            try overrides.register(.engine) { _ in V8(horsepower: 1) }
        } operation: { () throws -> Bool in
            try child.makeDestination(to: .motorised) === child.makeDestination(to: .car)
        }
        #expect(same)
        // Nothing made under the override outlives it, through either key.
        #expect(try child.makeDestination(to: .car).engine.horsepower == 400)
        #expect(try child.makeDestination(to: .motorised) === child.makeDestination(to: .car))
    }
}
