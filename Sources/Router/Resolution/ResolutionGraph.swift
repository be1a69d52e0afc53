/// The state of one top-level lookup, allocated only when the lookup builds more than one object,
/// uses graph scope, or has preparations to run.
///
/// - `nodes` record every object built, with its parent, so that a preparation can find the objects it
///   was built for (to close a cycle with the same instance) and errors can print the path.
/// - `pending` holds preparations (property injections and finish hooks) until no factory is running:
///   then every object an injection may point back to already exists.
@usableFromInline
final class ResolutionGraph {
    struct Node {
        let entry: ObjectIdentifier
        let name: String
        var instance: Any?
        let parent: Int32
        /// How many objects enclose this one (0 for the outermost).
        let level: Int32
    }

    struct Pending {
        let node: Int32
        let run: (inout Resolver) throws -> Void
    }

    var nodes: [Node] = []
    var graphScoped: [(entry: ObjectIdentifier, instance: Any)] = []
    var pending: [Pending] = []

    init() {
        nodes.reserveCapacity(16)
    }

    func push(_ entry: AnyEntry, parent: Int32) -> Int32 {
        let level = parent >= 0 ? nodes[Int(parent)].level + 1 : 0
        nodes.append(
            Node(entry: ObjectIdentifier(entry), name: entry.key.short, instance: nil, parent: parent, level: level))
        return Int32(nodes.count - 1)
    }

    func graphInstance(for entry: ObjectIdentifier) -> Any? {
        for item in graphScoped where item.entry == entry { return item.instance }
        return nil
    }

    /// The names from the outermost object down to `node`.
    func path(to node: Int32) -> [String] {
        var names: [String] = []
        var index = node
        while index >= 0 {
            let item = nodes[Int(index)]
            names.append(item.name)
            index = item.parent
        }
        return names.reversed()
    }

    /// The nearest node at or above `node` made from `entry`.
    func ancestor(of node: Int32, entry: ObjectIdentifier) -> Int32? {
        var index = node
        while index >= 0 {
            let item = nodes[Int(index)]
            if item.entry == entry { return index }
            index = item.parent
        }
        return nil
    }
}
