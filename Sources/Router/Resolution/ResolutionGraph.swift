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
    // @safe: `entry` is borrowed from the lookup's table, which outlives the graph's use of the node.
    @usableFromInline @safe
    struct Node {
        /// Unretained: the table keeps every entry alive for longer than any lookup.
        @usableFromInline let entryRef: Borrowed<AnyEntry>
        /// The object's index in `instances`; -1 until its factory has returned. An index rather than the
        /// object, so that a node holds no reference and the node list is plain memory.
        @usableFromInline var instance: Int32
        @usableFromInline let parent: Int32
        /// How many objects enclose this one (0 for the outermost).
        @usableFromInline let level: Int32

        @inlinable
        init(entryRef: Borrowed<AnyEntry>, instance: Int32, parent: Int32, level: Int32) {
            unsafe self.entryRef = unsafe entryRef
            self.instance = instance
            self.parent = parent
            self.level = level
        }
    }

    @usableFromInline
    struct Pending {
        @usableFromInline let node: Int32
        @usableFromInline let run: (inout Resolver) throws -> Void

        @inlinable
        init(node: Int32, run: @escaping (inout Resolver) throws -> Void) {
            self.node = node
            self.run = run
        }
    }

    // Unchecked: a graph belongs to one lookup on one thread; dynamic exclusivity checks on its arrays
    // showed up as a tenth of the lookup's instructions.
    @exclusivity(unchecked) @usableFromInline var nodes = GraphStack<Node>(capacity: 16)
    /// The objects made in this lookup, in the order their factories returned.
    @exclusivity(unchecked) @usableFromInline var instances = GraphStack<Any>(capacity: 16)
    /// The graph-scoped objects of this lookup: their registration, and their index in `instances`.
    @exclusivity(unchecked) @usableFromInline var graphScoped = GraphStack<(entry: ObjectIdentifier, instance: Int32)>(
        capacity: 4)
    @exclusivity(unchecked) @usableFromInline var pending = GraphStack<Pending>(capacity: 8)

    @usableFromInline
    init() {}

    deinit {
        unsafe nodes.free()
        unsafe instances.free()
        unsafe graphScoped.free()
        unsafe pending.free()
    }

    /// Empties the graph for the next lookup, keeping its storage.
    func reset() {
        unsafe nodes.removeSuffix(from: 0)
        unsafe graphScoped.removeSuffix(from: 0)
        unsafe instances.removeSuffix(from: 0)
        unsafe pending.removeSuffix(from: 0)
    }

    /// Whether the graph's storage is small enough to keep for the next lookup on this thread.
    var isWorthKeeping: Bool {
        unsafe nodes.capacity <= 256 && instances.capacity <= 256 && pending.capacity <= 256
            && graphScoped.capacity <= 64
    }

    @inlinable
    func push(_ entry: Borrowed<AnyEntry>, parent: Int32) -> Int32 {
        let level = unsafe parent >= 0 ? nodes[Int(parent)].level + 1 : 0
        unsafe nodes.append(Node(entryRef: entry, instance: -1, parent: parent, level: level))
        return unsafe Int32(nodes.count - 1)
    }

    @usableFromInline
    func graphInstance(for entry: ObjectIdentifier) -> Any? {
        for index in unsafe 0..<graphScoped.count where unsafe graphScoped[index].entry == entry {
            return unsafe instances[Int(graphScoped[index].instance)]
        }
        return nil
    }

    /// The names from the outermost object down to `node`.
    func path(to node: Int32) -> [String] {
        var names: [String] = []
        var index = node
        while index >= 0 {
            let item = unsafe nodes[Int(index)]
            unsafe names.append(item.entryRef.object.key.short)
            index = item.parent
        }
        return names.reversed()
    }

    /// The parent of `node`.
    @inlinable
    func parent(of node: Int32) -> Int32 {
        unsafe nodes[Int(node)].parent
    }

    /// The nearest node at or above `node` made from `entry`.
    @inlinable
    func ancestor(of node: Int32, entry: AnyEntry) -> Int32? {
        let target = unsafe Borrowed(entry).opaque
        var index = node
        while index >= 0 {
            if unsafe nodes[Int(index)].entryRef.opaque == target { return index }
            index = unsafe nodes[Int(index)].parent
        }
        return nil
    }
}

// MARK: - Filling and emptying a lookup's graph

extension Resolver {
    /// Records a made object in the graph and queues its preparation.
    @inlinable
    mutating func record<Destination>(_ made: Destination, _ entry: Entry<Destination>, node: Int32) {
        guard let graphRef = unsafe graphRef, node >= 0 else { return }
        unsafe graphRef.with { graph in
            let index = unsafe Int32(graph.instances.count)
            unsafe graph.instances.append(made)
            unsafe graph.nodes[Int(node)].instance = index
            if entry.scope.kind == .graph {
                unsafe graph.graphScoped.append((ObjectIdentifier(entry), index))
            }
            if entry.needsPreparation {
                // Unowned: the table keeps the entry alive for longer than the lookup.
                unsafe graph.pending.append(
                    .init(node: node) { [unowned(unsafe) entry] resolver in unsafe try resolver.prepare(made, entry) })
            }
        }
    }

    /// Queues a preparation for the object whose factory is running now.
    mutating func enqueuePreparation(_ run: @escaping (inout Resolver) throws -> Void) {
        if graph == nil { unsafe state.startGraph() }
        unsafe graph?.pending.append(.init(node: current, run: run))
    }

    /// Runs queued preparations from `mark` on, including those they queue, then forgets them.
    @usableFromInline
    mutating func drain(from mark: Int) throws {
        guard let graphRef = unsafe graphRef else { return }
        // Borrowed: the state owns the graph until the lookup ends.
        unsafe try graphRef.with { graph in
            defer {
                unsafe graph.pending.removeSuffix(from: mark)
            }
            var index = mark
            while unsafe index < graph.pending.count {
                let item = unsafe graph.pending[index]
                index += 1
                try runPending(item, graph: graph)
                if mark == 0 { unsafe state.preparations.completed = index }
            }
        }
    }

    /// Runs one queued preparation inside the object it prepares.
    mutating func runPending(_ item: ResolutionGraph.Pending, graph: ResolutionGraph) throws {
        // A preparation's lookups are nested inside the object it prepares.
        let nested = unsafe item.node >= 0 ? Int(graph.nodes[Int(item.node)].level) + 1 : depth
        let entered = unsafe state.enterPreparation(of: item.node, depth: nested)
        defer { unsafe state.leavePreparation(entered) }
        try item.run(&self)
    }
}

/// A growable list in memory the graph owns, for the graph's per-lookup lists.
///
/// `Array` would do, but emptying an array for the next lookup goes through `replaceSubrange`, a large
/// generic call, four times per lookup; here it is a loop of destroys (none for plain values) and a store.
/// The owner frees the storage with ``free()``; a copy of a stack aliases the same storage, so a stack is
/// only ever used in place, as a stored property of its graph.
// @safe: `base` is allocated in `init` and freed by the owning graph's `free()`; every access is bounds
// checked against `count` in debug builds (see the subscripts), and a stack is never copied out of its graph.
@usableFromInline @safe
struct GraphStack<Element> {
    @usableFromInline var base: UnsafeMutablePointer<Element>
    @usableFromInline var count: Int
    @usableFromInline var capacity: Int

    init(capacity: Int) {
        unsafe base = .allocate(capacity: capacity)
        count = 0
        self.capacity = capacity
    }

    @inlinable
    var isEmpty: Bool { count == 0 }

    /// The element at `index`, which must be below `count`.
    @inlinable
    subscript(index: Int) -> Element {
        get { unsafe base[index] }
        nonmutating _modify { yield unsafe &base[index] }
    }

    @inlinable
    mutating func append(_ element: Element) {
        if count == capacity { grow() }
        unsafe (base + count).initialize(to: element)
        count += 1
    }

    mutating func append(contentsOf elements: [Element]) {
        for element in elements { append(element) }
    }

    @usableFromInline
    mutating func grow() {
        let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
        unsafe larger.moveInitialize(from: base, count: count)
        unsafe base.deallocate()
        unsafe base = unsafe larger
        capacity *= 2
    }

    /// Destroys the elements from `mark` on.
    mutating func removeSuffix(from mark: Int) {
        guard count > mark else { return }
        unsafe (base + mark).deinitialize(count: count - mark)
        count = mark
    }

    /// Destroys the elements and frees the storage; the stack must not be used afterwards.
    func free() {
        unsafe base.deinitialize(count: count)
        unsafe base.deallocate()
    }
}
