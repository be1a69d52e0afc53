/// The heap state of one top-level lookup, made only when the lookup needs it: a preparation to run,
/// a graph-scoped or shared instance, or a route's hooks. A lookup that only builds transient objects
/// never makes one.
///
/// - `nodes` record objects with their parent, so that a preparation can find the objects it was built
///   for (to close a cycle with the same instance) and errors can print the path.
/// - `pending` holds preparations (property injections and finish hooks) until no factory is running:
///   then every object an injection may point back to already exists.
@usableFromInline
final class ResolutionGraph {
    @usableFromInline
    struct Node {
        @usableFromInline unowned(unsafe) let entry: AnyEntry
        @usableFromInline var instance: Any?
        @usableFromInline let parent: Int32
        /// How many objects enclose this one (0 for the outermost).
        @usableFromInline let level: Int32

        @inlinable
        init(entry: AnyEntry, instance: Any?, parent: Int32, level: Int32) {
            self.entry = entry
            self.instance = instance
            self.parent = parent
            self.level = level
        }
    }

    struct Pending {
        let node: Int32
        let run: (inout Resolver) throws -> Void
    }

    // Unchecked: a graph belongs to one lookup on one thread; dynamic exclusivity checks on its arrays
    // showed up as a tenth of the lookup's instructions.
    @exclusivity(unchecked) @usableFromInline var nodes: [Node] = []
    @exclusivity(unchecked) @usableFromInline var graphScoped: [(entry: ObjectIdentifier, instance: Any)] = []
    /// Shared instances built in this lookup and not yet published: publish each when every preparation
    /// has run, or discard each when the lookup fails.
    var publications: [(publish: () -> Void, discard: () -> Void, queuedAfter: Int)] = []
    /// How many pending preparations the top-level drain has run to completion.
    var completed = 0
    @exclusivity(unchecked) var pending: [Pending] = []

    @usableFromInline
    init() {
        nodes.reserveCapacity(16)
    }

    @inlinable
    func push(_ entry: AnyEntry, parent: Int32) -> Int32 {
        let level = parent >= 0 ? nodes[Int(parent)].level + 1 : 0
        nodes.append(Node(entry: entry, instance: nil, parent: parent, level: level))
        return Int32(nodes.count - 1)
    }

    @usableFromInline
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
            names.append(item.entry.key.short)
            index = item.parent
        }
        return names.reversed()
    }

    /// The nearest node at or above `node` made from `entry`.
    func ancestor(of node: Int32, entry: AnyEntry) -> Int32? {
        var index = node
        while index >= 0 {
            let item = nodes[Int(index)]
            if item.entry === entry { return index }
            index = item.parent
        }
        return nil
    }
}

/// Thrown inside a shared instance's preparations when one needs an object that an enclosing factory is
/// still building: the preparation moves to the enclosing lookup's queue, and the shared instance is
/// published once it has run. Never escapes a lookup.
struct DeferToEnclosingLookup: Error {}

/// One running factory, kept on the call stack: the chain of frames is the lookup's path while no
/// graph exists, and becomes the graph's first nodes when one is made.
@usableFromInline
struct Frame {
    @usableFromInline unowned(unsafe) let entry: AnyEntry
    @usableFromInline let parent: UnsafeMutablePointer<Frame>?
    /// The frame's node once the graph exists, else -1.
    @usableFromInline var node: Int32

    @inlinable
    init(entry: AnyEntry, parent: UnsafeMutablePointer<Frame>?, node: Int32) {
        self.entry = entry
        self.parent = parent
        self.node = node
    }
}
