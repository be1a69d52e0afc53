import Foundation
import Router
import Testing

struct DiagnosticsTests {
    func registry() throws -> RouteRegistry {
        try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8() }.scope(.singleton)
            for position in 0..<4 { try registry.register(.wheel) { _ in WheelImpl(position: position) } }
            try registry.register(.radio) { _ in RadioImpl() }
            try registry.register(.car) { r in
                _ = try r.resolveAll(.wheel)
                return CarImpl(engine: try r.resolve(.engine))
            }.dependencies(.initializer(.engine), .many(.wheel)).injecting(\.radio, .radio)
        }
    }

    @Test func theTextTreeShowsKeysScopesAndLabelledEdges() throws {
        let tree = try registry().dependencyGraph().textTree
        #expect(
            tree == """
                Car (transient, RouteRegistry)
                ├─ initializer → Engine (singleton, RouteRegistry)
                ├─ many → Wheel (transient, RouteRegistry) [1 of 4]
                ├─ many → Wheel (transient, RouteRegistry) [2 of 4]
                ├─ many → Wheel (transient, RouteRegistry) [3 of 4]
                ├─ many → Wheel (transient, RouteRegistry) [4 of 4]
                └─ property → Radio (transient, RouteRegistry)

                """)
    }

    @Test func printingTheGraphPrintsItsTextTreeNotItsFields() throws {
        let graph = try registry().dependencyGraph()
        let printed = "\(graph)"
        #expect(printed == graph.textTree)
        #expect(printed.hasPrefix("Car (transient, RouteRegistry)"))
        #expect(!printed.contains("nodes:"))
    }

    @Test func theDotExportDrawsWithGraphviz() throws {
        let dot = try registry().dependencyGraph().dot
        #expect(dot.hasPrefix("digraph Router {"))
        #expect(dot.contains("-> n0 [label=\"initializer\"]"))
        #expect(dot.contains("[label=\"property\", style=dashed]"))
        let candidates = ["/usr/bin/dot", "/usr/local/bin/dot"]
        guard let dotPath = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            return  // Graphviz is not installed here; .ci/run installs it
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: dotPath)
        process.arguments = ["-Tsvg"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(dot.utf8))
        try input.fileHandleForWriting.close()
        let svg = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(String(decoding: svg, as: UTF8.self).contains("<svg"))
    }

    @Test func theTraceShowsWhatWasBuiltAndWhatWasShared() throws {
        let registry = try registry()
        _ = try registry.makeDestination(to: .engine)
        let log = EventLog()
        registry.traceHandler = { step in log.record("\(step.depth) \(step.key) \(step.outcome)") }
        _ = try registry.makeDestination(to: .car)
        registry.traceHandler = nil
        _ = try registry.makeDestination(to: .car)
        #expect(
            log.events == [
                "1 RoutableService<Wheel> built", "1 RoutableService<Wheel> built", "1 RoutableService<Wheel> built",
                "1 RoutableService<Wheel> built", "1 RoutableService<Engine> shared", "0 RoutableService<Car> built",
                "1 RoutableService<Radio> built",
            ])
    }

    /// The inline fast cases of a top-level lookup (a built singleton, a transient with nothing to prepare)
    /// do not trace; a trace handler must send every lookup past them, and stop doing so once removed.
    @Test func aTraceHandlerSeesTopLevelFastCasesUntilItIsRemoved() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8() }.scope(.singleton)
            try registry.register(.radio) { _ in RadioImpl() }
        }
        _ = try registry.makeDestination(to: .engine)
        let log = EventLog()
        for _ in 0..<2 {
            registry.traceHandler = { step in log.record("\(step.key) \(step.outcome)") }
            // Set twice: the second handler replaces the first.
            registry.traceHandler = { step in log.record("\(step.key) \(step.outcome)") }
            _ = try registry.makeDestination(to: .engine)
            _ = try registry.makeDestination(to: .radio)
            registry.traceHandler = nil
            _ = try registry.makeDestination(to: .engine)
            _ = try registry.makeDestination(to: .radio)
        }
        #expect(
            log.events == [
                "RoutableService<Engine> shared", "RoutableService<Radio> built",
                "RoutableService<Engine> shared", "RoutableService<Radio> built",
            ])
    }

    /// A child's handler sees the child's lookups, the parent's registrations included; the parent, which
    /// shares the child's family (and so its slow path), is not traced by it, before or after the child is gone.
    @Test func aChildsTraceHandlerTracesTheChildButNotItsParent() throws {
        let parent = try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8() }.scope(.singleton)
        }
        let log = EventLog()
        do {
            let child = RouteRegistry(parent: parent)
            try child.register(.radio) { _ in RadioImpl() }
            try child.seal()
            child.traceHandler = { step in log.record("child: \(step.key) \(step.outcome)") }
            _ = try child.makeDestination(to: .engine)
            _ = try child.makeDestination(to: .radio)
            _ = try parent.makeDestination(to: .engine)
        }
        parent.traceHandler = { step in log.record("parent: \(step.key) \(step.outcome)") }
        _ = try parent.makeDestination(to: .engine)
        parent.traceHandler = nil
        _ = try parent.makeDestination(to: .engine)
        #expect(
            log.events == [
                "child: RoutableService<Engine> built", "child: RoutableService<Radio> built",
                "parent: RoutableService<Engine> shared",
            ])
    }
}

/// DITranquillity's validation cases, ported by intent.
struct ValidationCaseTests {
    @Test func aMissingRegistrationIsReported() throws {
        let registry = RouteRegistry()
        try registry.register(.car) { r in
            CarImpl(engine: try r.resolve(.engine))
        }.dependencies(.initializer(.engine))
        #expect(try registry.validate().problems.map(\.code) == [.unregisteredKey])
    }

    @Test func aKeyRegisteredTwiceIsReportedAtSealWhereOneIsNeededNamingBothPlaces() throws {
        struct EngineModule: RouteModule {
            func register(in registry: RouteRegistry) throws {
                try registry.register(.engine, line: 10) { _ in V8() }
            }
        }
        let registry = RouteRegistry()
        try registry.load(EngineModule())
        try registry.register(.engine, line: 20) { _ in V8() }  // meant to replace the module's: it does not
        try registry.register(.car, initializer: CarImpl.init, line: 30)  // no `dependencies`: auto-wiring records them
        let problems = try registry.validate().problems
        #expect(problems.map(\.code) == [.ambiguousRegistration])
        #expect(
            problems.first?.description
                == "RoutableService<Car> depends on RoutableService<Engine>, which has 2 registrations (from EngineModule (RouterTests/DiagnosticsTests.swift:10) and from RouterTests/DiagnosticsTests.swift:20) and no default (resolving Car → Engine). Hint: Mark exactly one with .asDefault(), tag the others, or look them all up with resolveAll. Registering a key again adds a registration, it does not replace one: to replace one for a test or a variant of the app, use withOverrides or a child registry (RouteRegistry(parent:))."
        )
    }

    @Test func aSelfInitializerIsACycle() throws {
        let registry = RouteRegistry()
        try registry.register(.nodeA) { r in AImpl(b: nil) }.dependencies(.initializer(.nodeA))
        #expect(try registry.validate().problems.first?.path == ["NodeA", "NodeA"])
    }

    @Test func anInitializerOnlyThreeCycleIsReportedOnce() throws {
        let registry = RouteRegistry()
        try registry.register(.nodeA) { _ in AImpl(b: nil) }.dependencies(.initializer(.nodeB))
        try registry.register(.nodeB) { _ in BImpl() }.dependencies(.initializer(.nodeC))
        try registry.register(.nodeC) { _ in CImpl() }.dependencies(.initializer(.nodeA))
        #expect(try registry.validate().problems.map(\.code) == [.circularDependency])
    }

    @Test func argumentsAreNotEdges() throws {
        let registry = RouteRegistry()
        try registry.register(.engine, arguments: Int.self) { _, horsepower in V8(horsepower: horsepower) }
        try registry.register(.car) { r in
            CarImpl(engine: try r.resolve(.engine, arguments: 1))
        }.dependencies(.initializer(.engine))
        #expect(try registry.validate().isValid)
    }
}
