import Foundation
import Router
import Testing

struct DiagnosticsTests {
    func registry() throws -> RouteRegistry {
        try sealedRegistry { registry in
            try registry.register(.engine, scope: .singleton) { _ in V8() }
            for position in 0..<4 { try registry.register(.wheel) { _ in WheelImpl(position: position) } }
            try registry.register(.radio) { _ in RadioImpl() }
            try registry.register(
                .car, dependencies: [.initializer(.engine), .many(.wheel)], injections: [.property(\.radio, .radio)]
            ) { r in
                _ = try r.resolveAll(.wheel)
                return CarImpl(engine: try r.resolve(.engine))
            }
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
}

/// DITranquillity's validation cases, ported by intent.
struct ValidationCaseTests {
    @Test func aMissingRegistrationIsReported() throws {
        let registry = RouteRegistry()
        try registry.register(.car, dependencies: [.initializer(.engine)]) { r in
            CarImpl(engine: try r.resolve(.engine))
        }
        #expect(try registry.validate().problems.map(\.code) == [.unregisteredKey])
    }

    @Test func twoImplementationsOfOneProtocolWithoutATagAreReportedWhereOneIsNeeded() throws {
        let registry = RouteRegistry()
        try registry.register(.engine) { _ in V8() }
        try registry.register(.engine) { _ in V8() }
        try registry.register(.car, dependencies: [.initializer(.engine)]) { r in
            CarImpl(engine: try r.resolve(.engine))
        }
        let problems = try registry.validate().problems
        #expect(problems.map(\.code) == [.ambiguousRegistration])
        #expect(
            problems.first?.reason
                == "RoutableService<Car> depends on RoutableService<Engine>, which has 2 registrations and no default.")
    }

    @Test func aSelfInitializerIsACycle() throws {
        let registry = RouteRegistry()
        try registry.register(.nodeA, dependencies: [.initializer(.nodeA)]) { r in AImpl(b: nil) }
        #expect(try registry.validate().problems.first?.path == ["NodeA", "NodeA"])
    }

    @Test func anInitializerOnlyThreeCycleIsReportedOnce() throws {
        let registry = RouteRegistry()
        try registry.register(.nodeA, dependencies: [.initializer(.nodeB)]) { _ in AImpl(b: nil) }
        try registry.register(.nodeB, dependencies: [.initializer(.nodeC)]) { _ in BImpl() }
        try registry.register(.nodeC, dependencies: [.initializer(.nodeA)]) { _ in CImpl() }
        #expect(try registry.validate().problems.map(\.code) == [.circularDependency])
    }

    @Test func argumentsAreNotEdges() throws {
        let registry = RouteRegistry()
        try registry.register(.engine, arguments: Int.self) { _, horsepower in V8(horsepower: horsepower) }
        try registry.register(.car, dependencies: [.initializer(.engine)]) { r in
            CarImpl(engine: try r.resolve(.engine, arguments: 1))
        }
        #expect(try registry.validate().isValid)
    }
}
