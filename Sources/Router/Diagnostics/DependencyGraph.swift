/// The registry's dependency graph as registered: one node per registration, one edge per declared
/// dependency (and per adapter), labelled by how the dependency reaches the destination.
///
/// Edges come from what registrations declare (`dependencies:`, typed `Injection.property`, adapters);
/// declare a factory's dependencies to see its edges. Path patterns (``paths``) are listed with the
/// registration each routes to, once the registry is sealed.
///
/// ```swift
/// print(try registry.dependencyGraph().textTree)
/// // Car (transient, CarModule)
/// // ├─ initializer → Engine (singleton, EngineModule)
/// // ├─ many → Wheel (transient, WheelModule) [1 of 2]
/// // └─ many → Wheel (transient, WheelModule) [2 of 2]
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

    /// One path pattern and the registration it routes to.
    public struct Path: Sendable, Hashable {
        /// The pattern, e.g. `books/:id(Int)`.
        public let pattern: String
        /// The key the path routes to, e.g. `RoutableService<CartScreen>`.
        public let key: String
        /// The module that registered the path.
        public let owner: String
        /// The index in ``DependencyGraph/nodes`` of the registration the path makes; nil when the key
        /// has no router.
        public let to: Int?
    }

    /// The registrations, in registration order (a parent's first).
    public let nodes: [Node]
    /// The declared dependencies.
    public let edges: [Edge]
    /// The path patterns, a parent's first, each with the registration it routes to. Empty until the
    /// registry is sealed.
    public let paths: [Path]

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
        paths = table.allPaths.map { route in
            Path(
                pattern: route.pattern.text, key: route.target.full, owner: route.owner,
                to: table.primary(route.targetID).flatMap { index[ObjectIdentifier($0)] })
        }
    }

    /// The graph in Graphviz DOT: `dot -Tsvg` draws it. Property edges are dashed, lazy edges dotted,
    /// and a dependency with no router points at a red node. Each path pattern is an ellipse with a
    /// `path` edge to the registration it routes to. When several modules registered, each module's
    /// registrations and paths are boxed together and labelled with the module's name.
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
        for (position, path) in paths.enumerated() {
            lines.append("  p\(position) [label=\"\(escaped(path.pattern))\", shape=ellipse, color=blue];")
            if let target = path.to {
                lines.append("  p\(position) -> n\(target) [label=\"path\", color=blue];")
            } else {
                lines.append("  missing\(missing) [label=\"\(escaped(path.key))\\nno router\", color=red];")
                lines.append("  p\(position) -> missing\(missing) [label=\"path\", color=blue];")
                missing += 1
            }
        }
        lines += ownerClusters()
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// One DOT cluster per module, boxing its registrations and paths, when more than one module registered.
    private func ownerClusters() -> [String] {
        var owners: [String] = []
        var members: [String: [String]] = [:]
        func add(_ id: String, to owner: String) {
            if members[owner] == nil { owners.append(owner) }
            members[owner, default: []].append(id)
        }
        for (position, node) in nodes.enumerated() { add("n\(position)", to: node.owner) }
        for (position, path) in paths.enumerated() { add("p\(position)", to: path.owner) }
        guard owners.count > 1 else { return [] }
        return owners.enumerated().map { position, owner in
            let ids = (members[owner] ?? []).joined(separator: "; ")
            return "  subgraph cluster_\(position) { label=\"\(escaped(owner))\"; color=gray; \(ids); }"
        }
    }

    /// The graph as an indented tree, one root per registration nothing else depends on. A subtree shown
    /// once is not repeated, and an edge back to an ancestor is marked as a cycle. The path patterns
    /// follow under `Paths`, each with the registration it routes to.
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
            // One line per target: a `many` edge lists each registration it reaches, numbered.
            var rows: [(edge: Edge, target: Int?, number: String)] = []
            for edge in edges where edge.from == index {
                if edge.to.isEmpty {
                    rows.append((edge, nil, ""))
                } else {
                    for (position, target) in edge.to.enumerated() {
                        let number = edge.to.count > 1 ? " [\(position + 1) of \(edge.to.count)]" : ""
                        rows.append((edge, target, number))
                    }
                }
            }
            for (offset, line) in rows.enumerated() {
                let last = offset == rows.count - 1
                let branch = prefix + (last ? "└─ " : "├─ ")
                let childPrefix = prefix + (last ? "   " : "│  ")
                let kind = line.edge.kind.rawValue
                guard let target = line.target else {
                    lines.append(branch + "\(kind) → \(line.edge.key) (no router)")
                    continue
                }
                if path.contains(target) {
                    lines.append(branch + "\(kind) → \(nodes[target].name)\(line.number) (cycle)")
                } else if shown.contains(target) {
                    lines.append(branch + "\(kind) → \(label(target))\(line.number) (shown above)")
                } else {
                    shown.insert(target)
                    lines.append(branch + "\(kind) → \(label(target))\(line.number)")
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
        if !paths.isEmpty { lines.append("Paths") }
        for (position, path) in paths.enumerated() {
            let branch = position == paths.count - 1 ? "└─ " : "├─ "
            let target = path.to.map(label) ?? "\(path.key) (no router)"
            lines.append(branch + "\(path.pattern) → \(target)")
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
