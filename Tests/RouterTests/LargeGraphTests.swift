import Router
import Testing

// Issue 15: sealing, validation and the graph exports of very long declared chains and very large graphs.

struct LargeGraphTests {
    /// `length` services, each declaring an initializer dependency on the next.
    /// With `closed`, the last one depends on the first, closing a cycle through all of them.
    static func declaredChain(length: Int, closed: Bool = false) throws -> RouteRegistry {
        let registry = RouteRegistry()
        let keys = (0..<length).map { RoutableService.engine.named("link\($0)") }
        for index in 0..<length {
            if index == length - 1 && closed {
                let first = keys[0]
                try registry.register(keys[index]) { r in try r.resolve(first) }.dependencies(.initializer(first))
            } else if index == length - 1 {
                try registry.register(keys[index]) { _ in V8(horsepower: index) }
            } else {
                let next = keys[index + 1]
                try registry.register(keys[index]) { r in try r.resolve(next) }.dependencies(.initializer(next))
            }
        }
        return registry
    }

    @Test func aDeclaredChainOfOneHundredThousandSealsAndValidatesOnA256KiBStack() {
        let outcome = TestLocked<[String]>([])
        finishesOnItsOwnThread(stackSize: 256 * 1024, bound: 120) {
            do {
                let registry = try Self.declaredChain(length: 100_000)
                let report = try registry.validate()
                try registry.seal()
                let sealedReport = try registry.validate()
                let graph = try registry.dependencyGraph()
                let dot = graph.dot
                let tree = graph.textTree
                let last = try registry.makeDestination(to: .engine.named("link99999"))
                outcome.withLock {
                    $0 = [
                        report.description, sealedReport.description, "\(graph.nodes.count) nodes",
                        "\(graph.edges.count) edges", "\(dot.split(separator: "\n").count) dot lines",
                        "\(tree.split(separator: "\n").count) tree lines", "\(last.horsepower)",
                    ]
                }
            } catch {
                outcome.withLock { $0 = ["\(error)"] }
            }
        }
        #expect(
            outcome.withLock { $0 } == [
                "No problems found.", "No problems found.", "100000 nodes", "99999 edges",
                "\(3 + 100_000 + 99_999 + 1) dot lines", "100000 tree lines", "99999",
            ])
    }

    @Test func aDeclaredCycleThroughOneHundredThousandLinksIsReportedOnA256KiBStack() {
        let outcome = TestLocked<[String]>([])
        finishesOnItsOwnThread(stackSize: 256 * 1024, bound: 120) {
            do {
                let registry = try Self.declaredChain(length: 100_000, closed: true)
                let problems = try registry.validate().problems
                var sealing = "sealed"
                do { try registry.seal() } catch let error as RouteError { sealing = "\(error.code)" }
                let summary = problems.map { "\($0.code) \($0.path.count) \($0.path.first ?? "")" } + [sealing]
                outcome.withLock { $0 = summary }
            } catch {
                outcome.withLock { $0 = ["\(error)"] }
            }
        }
        #expect(outcome.withLock { $0 } == ["circularDependency 100001 Engine[\"link0\"]", "validationFailed"])
    }

    @Test func theTextTreeOfAChainGrowsLinearlyWithItsLength() throws {
        let short = try Self.declaredChain(length: 5_000).dependencyGraph().textTree.utf8.count
        let long = try Self.declaredChain(length: 10_000).dependencyGraph().textTree.utf8.count
        // Twice the links, about twice the text: no indentation proportional to the depth.
        #expect(long < short * 21 / 10)
        #expect(long > short * 19 / 10)
        // 5,000 links printed 38 MB before indentation was capped.
        #expect(short < 500_000)
    }

    @Test func linesPastTheIndentationCapShowTheirDepthAsANumber() throws {
        let tree = try Self.declaredChain(length: 40).dependencyGraph().textTree
        let lines = tree.split(separator: "\n").map(String.init)
        #expect(lines.count == 40)
        func link(_ number: Int) -> String { "Engine[\"link\(number)\"] (transient, RouteRegistry)" }
        let cap = DependencyGraph.maxTextTreeIndent
        #expect(lines[0] == link(0))
        #expect(lines[1] == "└─ initializer → " + link(1))
        #expect(lines[2] == "   └─ initializer → " + link(2))
        #expect(lines[cap] == String(repeating: " ", count: 3 * (cap - 1)) + "└─ initializer → " + link(cap))
        #expect(lines[cap + 1] == "[depth \(cap + 1)] └─ initializer → " + link(cap + 1))
        #expect(lines[39] == "[depth 39] └─ initializer → " + link(39))
    }

    @Test func aGraphOfOneHundredThousandNodesWithTwoEdgesEachExportsOnA256KiBStack() {
        let outcome = TestLocked<[Int]>([])
        finishesOnItsOwnThread(stackSize: 256 * 1024, bound: 120) {
            do {
                let count = 100_000
                let registry = RouteRegistry()
                let keys = (0..<count).map { RoutableService.wheel.named("w\($0)") }
                for index in 0..<count {
                    let next = (index + 1..<min(index + 3, count)).map { RouteDependency.initializer(keys[$0]) }
                    try registry.register(keys[index]) { _ in WheelImpl(position: index) }.dependencies(next)
                }
                try registry.seal()
                let graph = try registry.dependencyGraph()
                let tree = graph.textTree
                outcome.withLock {
                    $0 = [
                        graph.nodes.count, graph.edges.count, tree.split(separator: "\n").count,
                        tree.split(separator: "\n").filter { $0.hasSuffix("(shown above)") }.count,
                    ]
                }
            } catch {
                outcome.withLock { $0 = [-1] }
            }
        }
        // One line per edge plus the root; every second edge reaches a node shown above.
        #expect(outcome.withLock { $0 } == [100_000, 199_997, 199_998, 99_998])
    }
}
