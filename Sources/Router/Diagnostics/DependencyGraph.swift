/// The registry's dependency graph as registered: one node per registration, one edge per declared
/// dependency (and per adapter), labelled by how the dependency reaches the destination.
///
/// Edges come from what registrations declare (`dependencies:`, typed `Injection.property`, adapters);
/// declare a factory's dependencies to see its edges.
///
/// ```swift
/// print(try registry.dependencyGraph().textTree)
/// // Car (transient, CarModule)
/// // ├─ initializer → Engine (singleton, EngineModule)
/// // └─ many → Wheel (transient, WheelModule) ×4
/// ```
public struct DependencyGraph: Sendable {
    /// One registration.
    public struct Node: Sendable, Hashable {
        /// The key, e.g. `RoutableService<Engine>`.
        public let key: String
        /// The short name, e.g. `Engine`.
        public let name: String
        /// The scope, e.g. `singleton`.
        public let scope: String
        /// The module that registered it.
        public let owner: String
    }

    /// One declared dependency.
    public struct Edge: Sendable, Hashable {
        /// The index in ``nodes`` of the dependent registration.
        public let from: Int
        /// The indices in ``nodes`` of the registrations the dependency reaches (several for `many`,
        /// none when the key has no router).
        public let to: [Int]
        /// The dependency's key, e.g. `RoutableService<Engine>`.
        public let key: String
        /// How the dependency reaches the destination; adapters are `initializer` edges.
        public let kind: RouteDependency.Kind
    }

    /// The registrations, in registration order (a parent's first).
    public let nodes: [Node]
    /// The declared dependencies.
    public let edges: [Edge]

    init(table: SealedTable) {
        var all: [AnyEntry] = []
        var current: SealedTable? = table
        var chain: [SealedTable] = []
        while let layer = current {
            chain.append(layer)
            current = layer.parent
        }
        for layer in chain.reversed() { all += layer.entries }
        var index: [ObjectIdentifier: Int] = [:]
        for (position, entry) in all.enumerated() { index[ObjectIdentifier(entry)] = position }
        nodes = all.map { Node(key: $0.key.full, name: $0.key.short, scope: $0.scope.description, owner: $0.owner) }
        var edges: [Edge] = []
        for (position, entry) in all.enumerated() {
            for dependency in entry.dependencies {
                let targets: [AnyEntry]
                if dependency.kind == .many {
                    targets = table.allEntries(for: dependency.id)
                } else {
                    targets = table.primary(dependency.id).map { [$0] } ?? []
                }
                edges.append(
                    Edge(
                        from: position, to: targets.compactMap { index[ObjectIdentifier($0)] },
                        key: dependency.key.full, kind: dependency.kind))
            }
        }
        self.edges = edges
    }

    /// The graph in Graphviz DOT: `dot -Tsvg` draws it. Property edges are dashed, lazy edges dotted,
    /// and a dependency with no router points at a red node.
    public var dot: String {
        var lines = ["digraph Router {", "  rankdir=LR;", "  node [shape=box, fontname=\"Helvetica\"];"]
        for (position, node) in nodes.enumerated() {
            lines.append("  n\(position) [label=\"\(escaped(node.name))\\n\(escaped(node.scope))\"];")
        }
        var missing = 0
        for edge in edges {
            let style: String
            switch edge.kind {
            case .initializer: style = ""
            case .property: style = ", style=dashed"
            case .lazy: style = ", style=dotted"
            case .many: style = ", style=bold"
            }
            if edge.to.isEmpty {
                lines.append("  missing\(missing) [label=\"\(escaped(edge.key))\\nno router\", color=red];")
                lines.append("  n\(edge.from) -> missing\(missing) [label=\"\(edge.kind.rawValue)\"\(style)];")
                missing += 1
            }
            for target in edge.to {
                lines.append("  n\(edge.from) -> n\(target) [label=\"\(edge.kind.rawValue)\"\(style)];")
            }
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The graph as an indented tree, one root per registration nothing else depends on. A subtree shown
    /// once is not repeated, and an edge back to an ancestor is marked as a cycle.
    public var textTree: String {
        var dependedOn = Set<Int>()
        for edge in edges { dependedOn.formUnion(edge.to) }
        var roots = nodes.indices.filter { !dependedOn.contains($0) }
        if roots.isEmpty { roots = Array(nodes.indices.prefix(1)) }
        var shown = Set<Int>()
        var lines: [String] = []
        func label(_ index: Int) -> String {
            "\(nodes[index].name) (\(nodes[index].scope), \(nodes[index].owner))"
        }
        func walk(_ index: Int, prefix: String, path: [Int]) {
            let outgoing = edges.filter { $0.from == index }
            for (offset, edge) in outgoing.enumerated() {
                let last = offset == outgoing.count - 1
                let branch = prefix + (last ? "└─ " : "├─ ")
                let childPrefix = prefix + (last ? "   " : "│  ")
                guard let target = edge.to.first else {
                    lines.append(branch + "\(edge.kind.rawValue) → \(edge.key) (no router)")
                    continue
                }
                let count = edge.to.count > 1 ? " ×\(edge.to.count)" : ""
                if path.contains(target) {
                    lines.append(branch + "\(edge.kind.rawValue) → \(nodes[target].name) (cycle)")
                } else if shown.contains(target) {
                    lines.append(branch + "\(edge.kind.rawValue) → \(label(target))\(count) (shown above)")
                } else {
                    shown.formUnion(edge.to)
                    lines.append(branch + "\(edge.kind.rawValue) → \(label(target))\(count)")
                    walk(target, prefix: childPrefix, path: path + [target])
                }
            }
        }
        for root in roots where !shown.contains(root) {
            shown.insert(root)
            lines.append(label(root))
            walk(root, prefix: "", path: [root])
        }
        for index in nodes.indices where !shown.contains(index) {
            shown.insert(index)
            lines.append(label(index))
            walk(index, prefix: "", path: [index])
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    }
}

extension String {
    fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}

extension RouteRegistry {
    /// The dependency graph of every registration, this registry's and its parents'.
    /// - Returns: The graph; render it with ``DependencyGraph/dot`` or ``DependencyGraph/textTree``.
    /// - Throws: ``RouteError`` when a parent registry is not sealed.
    public func dependencyGraph() throws -> DependencyGraph {
        if isSealed, let table = sealedTable { return DependencyGraph(table: table) }
        let parentTable = parent?.sealedTable
        return DependencyGraph(table: SealedTable(entries: registeredEntries, parent: parentTable, maxDepth: maxDepth))
    }
}
