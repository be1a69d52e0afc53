/// The registry's dependency graph as registered: one node per registration, one edge per declared
/// dependency (and per adapter), labelled by how the dependency reaches the destination. A registration
/// made on the main actor is marked `main actor`.
///
/// Edges come from what registrations declare (`.dependencies(…)`, `.injecting(…)`, the parameters of
/// `register(_:initializer:)`, adapters); a closure factory's edges show only when declared. Path patterns (``paths``) are listed with the
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
        /// Whether its factory runs on the main actor (``RouteRegistry/registerOnMainActor(_:file:line:factory:)``
        /// and its other forms); ``textTree`` and ``dot`` mark it `main actor`.
        public let isMainActor: Bool
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
        /// Whether the destination does without it (``RouteDependency/optional``), so that an edge with no
        /// router is shown as optional rather than as a missing registration.
        let isOptional: Bool
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
        nodes = all.map {
            Node(
                key: $0.key.full, name: $0.key.short, scope: $0.scope.description,
                owner: $0.site.module ?? "RouteRegistry", isMainActor: $0.isMainActor)
        }
        var edges: [Edge] = []
        for (position, entry) in all.enumerated() {
            for dependency in entry.dependencies {
                let targets: [AnyEntry]
                if dependency.kind == .many {
                    targets = table.allEntries(for: dependency.id, name: dependency.key.name)
                } else {
                    targets = table.primary(dependency.id, name: dependency.key.name).map { [$0] } ?? []
                }
                edges.append(
                    Edge(
                        from: position, to: targets.compactMap { index[ObjectIdentifier($0)] },
                        key: dependency.key.full, kind: dependency.kind, isOptional: dependency.isOptional))
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
    /// and a dependency with no router points at a red node (a gray one marked `optional` when the
    /// destination does without it). Each path pattern is an ellipse with a
    /// `path` edge to the registration it routes to. When several modules registered, each module's
    /// registrations and paths are boxed together and labelled with the module's name.
    public var dot: String {
        var lines = ["digraph Router {", "  rankdir=LR;", "  node [shape=box, fontname=\"Helvetica\"];"]
        for (position, node) in nodes.enumerated() {
            let mainActor = node.isMainActor ? ", main actor" : ""
            lines.append("  n\(position) [label=\"\(escaped(node.name))\\n\(escaped(node.scope))\(mainActor)\"];")
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
                let (note, color) = edge.isOptional ? ("optional, no router", "gray") : ("no router", "red")
                lines.append("  missing\(missing) [label=\"\(escaped(edge.key))\\n\(note)\", color=\(color)];")
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

    /// How many levels ``textTree`` indents; deeper lines show their depth as a number instead, so that
    /// the tree of a long chain grows with its number of edges rather than with their square.
    public static let maxTextTreeIndent = 32

    /// The graph as an indented tree, one root per registration nothing else depends on. A subtree shown
    /// once is not repeated, and an edge back to an ancestor is marked as a cycle. Past
    /// ``maxTextTreeIndent`` levels a line starts with its depth, e.g. `[depth 40] └─ initializer → …`,
    /// instead of one more level of indentation. The path patterns follow under `Paths`, each with the
    /// registration it routes to.
    ///
    /// The tree is walked with an explicit stack, so a chain of any length prints without deep recursion.
    public var textTree: String {
        var outgoing = [[Int]](repeating: [], count: nodes.count)
        var dependedOn = [Bool](repeating: false, count: nodes.count)
        for (position, edge) in edges.enumerated() {
            outgoing[edge.from].append(position)
            for target in edge.to { dependedOn[target] = true }
        }
        var roots = nodes.indices.filter { !dependedOn[$0] }
        if roots.isEmpty { roots = Array(nodes.indices.prefix(1)) }
        var shown = [Bool](repeating: false, count: nodes.count)
        var onPath = [Bool](repeating: false, count: nodes.count)
        var text = ""
        func label(_ index: Int) -> String {
            let node = nodes[index]
            return "\(node.name) (\(node.scope)\(node.isMainActor ? ", main actor" : ""), \(node.owner))"
        }
        /// One line per target: a `many` edge lists each registration it reaches, numbered.
        func rows(of index: Int) -> [(edge: Int, target: Int?, number: String)] {
            var rows: [(edge: Int, target: Int?, number: String)] = []
            for position in outgoing[index] {
                let edge = edges[position]
                if edge.to.isEmpty {
                    rows.append((position, nil, ""))
                } else {
                    for (offset, target) in edge.to.enumerated() {
                        let number = edge.to.count > 1 ? " [\(offset + 1) of \(edge.to.count)]" : ""
                        rows.append((position, target, number))
                    }
                }
            }
            return rows
        }
        /// A node being printed: its rows, the next one to print, and the indentation of its rows.
        struct Frame {
            let node: Int
            let rows: [(edge: Int, target: Int?, number: String)]
            var next = 0
            /// The indentation of the rows, up to `maxTextTreeIndent` levels.
            let prefix: String
            let depth: Int
        }
        func walk(from root: Int) {
            shown[root] = true
            text += label(root) + "\n"
            onPath[root] = true
            var stack = [Frame(node: root, rows: rows(of: root), prefix: "", depth: 1)]
            while let top = stack.last {
                guard top.next < top.rows.count else {
                    onPath[top.node] = false
                    stack.removeLast()
                    continue
                }
                let line = top.rows[top.next]
                stack[stack.count - 1].next += 1
                let last = top.next == top.rows.count - 1
                let lead = top.depth > Self.maxTextTreeIndent ? "[depth \(top.depth)] " : top.prefix
                let branch = lead + (last ? "└─ " : "├─ ")
                let edge = edges[line.edge]
                let kind = edge.kind.rawValue
                guard let target = line.target else {
                    let note = edge.isOptional ? "optional, no router" : "no router"
                    text += branch + "\(kind) → \(edge.key) (\(note))\n"
                    continue
                }
                if onPath[target] {
                    text += branch + "\(kind) → \(nodes[target].name)\(line.number) (cycle)\n"
                } else if shown[target] {
                    text += branch + "\(kind) → \(label(target))\(line.number) (shown above)\n"
                } else {
                    shown[target] = true
                    onPath[target] = true
                    text += branch + "\(kind) → \(label(target))\(line.number)\n"
                    let childPrefix =
                        top.depth >= Self.maxTextTreeIndent ? "" : top.prefix + (last ? "   " : "│  ")
                    stack.append(Frame(node: target, rows: rows(of: target), prefix: childPrefix, depth: top.depth + 1))
                }
            }
        }
        for root in roots where !shown[root] { walk(from: root) }
        for index in nodes.indices where !shown[index] { walk(from: index) }
        if !paths.isEmpty { text += "Paths\n" }
        for (position, path) in paths.enumerated() {
            let branch = position == paths.count - 1 ? "└─ " : "├─ "
            let target = path.to.map(label) ?? "\(path.key) (no router)"
            text += branch + "\(path.pattern) → \(target)\n"
        }
        return text.isEmpty ? "\n" : text
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
        // The phase before the table: see `RouteRegistry.makeTable`.
        let parentTable = parent.flatMap { $0.isSealed ? $0.sealedTable : nil }
        return DependencyGraph(
            table: SealedTable(entries: AnyEntry.filed(registeredEntries), parent: parentTable, maxDepth: maxDepth))
    }
}

extension DependencyGraph: CustomStringConvertible {
    /// The graph as ``textTree`` prints it, so that `print(try registry.dependencyGraph())` shows the tree
    /// rather than the structure's fields.
    public var description: String { textTree }
}
