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

    /// Issue 44: the task's override tables are filed by registry; a task that outlives `withOverrides`
    /// keeps them after that registry is freed, and a registry made later at its address must not take
    /// the freed registry's registrations.
    @Test func aTaskThatOutlivesWithOverridesNeverTakesAFreedRegistrysTablesForANewOne() async throws {
        // Whether the task's thread reuses the freed address is up to the allocator: 20 rounds.
        var wrong: [String] = []
        for round in 0..<20 {
            wrong += try await freedRegistrysTablesSeenByANewOne().map { "round \(round), \($0)" }
        }
        #expect(wrong.isEmpty, "\(wrong.count) wrong lookups, first: \(wrong.prefix(3))")
    }

    /// Overrides a registry, starts a task in the override that outlives it, frees the registry in that
    /// task, then makes registries there and looks each up: what each lookup that did not get the new
    /// registry's own engine got.
    private func freedRegistrysTablesSeenByANewOne() async throws -> [String] {
        let release = Signal()
        let escaped: Task<[String], Never>
        // Dropped by the task, so that the address it frees is one that thread reuses first.
        let kept = TestLocked<RouteRegistry?>(nil)
        do {
            let first = try sealedRegistry { registry in
                try registry.register(.engine) { _ in V8(horsepower: 400) }
            }
            kept.withLock { $0 = first }
            escaped = try first.withOverrides { overrides in
                try overrides.register(.engine) { _ in V8(horsepower: 1) }
            } operation: {
                Task {
                    release.wait()
                    let dropped = kept.withLock { kept in
                        defer { kept = nil }
                        return kept
                    }
                    _ = consume dropped
                    var wrong: [String] = []
                    for attempt in 0..<50 {
                        let seen: String
                        do {
                            let later = try sealedRegistry { registry in
                                try registry.register(.engine) { _ in V8(horsepower: 2) }
                            }
                            // Any running override makes the lookup read the task's override tables.
                            seen = try RouteRegistry.withOverridesEverywhere { _ in
                            } operation: {
                                "\(try later.makeDestination(to: .engine).horsepower)"
                            }
                        } catch {
                            seen = "\(error)"
                        }
                        if seen != "2" { wrong.append("registry \(attempt): \(seen)") }
                    }
                    return wrong
                }
            }
        }
        release.fire()
        return await escaped.value
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

    /// Issue 44: an override layer keeps the view it made of each child registry, filed by the child's
    /// address; a child freed during the override must not hand its view to a child made later at its
    /// address.
    @Test func underAParentsOverrideEachChildMadeInTurnLooksUpItsOwnRegistrations() throws {
        let parent = try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8(horsepower: 400) }
        }
        let wrong = try parent.withOverrides { overrides in
            try overrides.register(.engine) { _ in V8(horsepower: 1) }
        } operation: { () throws -> [String] in
            var wrong: [String] = []
            for child in 0..<200 {
                let registry = try sealedRegistry(parent: parent) { registry in
                    try registry.register(.car) { r in CarImpl(engine: V8(horsepower: 1_000 + child)) }
                }
                let seen = try registry.makeDestination(to: .car).engine.horsepower
                if seen != 1_000 + child { wrong.append("child \(child) got \(seen)") }
            }
            return wrong
        }
        #expect(wrong.isEmpty, "\(wrong.count) wrong lookups, first: \(wrong.prefix(3))")
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
