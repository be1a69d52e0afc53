/// The heap state of one top-level lookup, made only when the lookup needs it: a preparation to run,
/// a graph-scoped or shared instance, or a route's hooks. A lookup that only builds transient objects
/// never makes one.
///
/// - `nodes` record objects with their parent, so that a preparation can find the objects it was built
///   for (to close a cycle with the same instance) and errors can print the path.
/// - `pending` holds preparations (property injections and finish hooks) until no factory is running:
///   then every object an injection may point back to already exists.
///
/// `@safe`, with its lists' exclusivity unchecked (`@safe @exclusivity(unchecked)`: dynamic exclusivity
/// checks on them showed up as a tenth of the lookup's instructions). **The invariant: no two accesses to
/// a list overlap.** It holds because a graph belongs to one lookup's state (which holds it, +1) on one
/// thread or task at a time, and no operation on a list (``GraphStack``, ``RecordedArena``: append, grow,
/// remove, allocate) calls code outside this file while it lasts: the values that hold user objects are
/// destroyed by `destroyValues` between accesses, not inside one. Its raw memory follows ``GraphStack``'s,
/// ``RecordedArena``'s and ``Recorded``'s invariants.
@usableFromInline @safe
final class ResolutionGraph {
    /// One object of the lookup. Its entry is borrowed: the table keeps every entry alive for longer than
    /// any lookup.
    @usableFromInline
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
            self.entryRef = entryRef
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

    /// One object made in this lookup, kept with its static type: its value lives in the graph's
    /// ``RecordedArena``, so that reading it back as the type that recorded it is a load, not a dynamic
    /// cast from `Any` (a conformance search for a protocol type).
    ///
    /// `@safe`. **The invariant: `value` holds a live value of the type `typeID` names while the graph holds
    /// the record.** It holds because only `record` and `recordUntyped` make one (``init(value:as:)`` is
    /// `@unsafe`), right after initializing `value` in the graph's arena as that type; the value stays
    /// there, unmoved, until the graph destroys it (`reset`, `deinit`), which first drops every record
    /// from `instances`; readers in other files take a record out of `instances` and use it within the same
    /// lookup, and ``Resolver/recordedInstance(_:_:)`` loads it as a type only after comparing `typeID`.
    @usableFromInline @safe
    struct Recorded {
        @usableFromInline let value: UnsafeMutableRawPointer
        /// The type the value was initialized as.
        @usableFromInline let typeID: ObjectIdentifier
        /// Destroys the value in place; made where its type is known.
        @usableFromInline let destroy: (UnsafeMutableRawPointer) -> Void
        /// Copies the value out as `Any` (for snapshots, and for a reader of another type).
        @usableFromInline let copyAsAny: (UnsafeMutableRawPointer) -> Any

        /// Records the value at `value`, initialized as `type`. The functions capture nothing once the
        /// caller is specialized for `Value`, so they allocate nothing.
        @inlinable @unsafe
        init<Value>(value: UnsafeMutableRawPointer, as type: Value.Type) {
            unsafe self.value = unsafe value
            self.typeID = ObjectIdentifier(Value.self)
            unsafe self.destroy = { unsafe $0.assumingMemoryBound(to: Value.self).deinitialize(count: 1) }
            unsafe self.copyAsAny = { unsafe $0.assumingMemoryBound(to: Value.self).pointee }
        }

        /// The value as `Any`.
        @usableFromInline var asAny: Any { unsafe copyAsAny(value) }
    }

    // Unchecked exclusivity: see the type's invariant.
    @safe @exclusivity(unchecked) @usableFromInline var nodes = GraphStack<Node>(capacity: 16)
    /// The objects made in this lookup, in the order their factories returned.
    @safe @exclusivity(unchecked) @usableFromInline var instances = GraphStack<Recorded>(capacity: 16)
    /// Where the values of `instances` live.
    @safe @exclusivity(unchecked) @usableFromInline var arena = RecordedArena()
    /// The graph-scoped objects of this lookup: their registration, and their index in `instances`.
    @safe @exclusivity(unchecked) @usableFromInline var graphScoped = GraphStack<
        (entry: ObjectIdentifier, instance: Int32)
    >(capacity: 4)
    @safe @exclusivity(unchecked) @usableFromInline var pending = GraphStack<Pending>(capacity: 8)

    @usableFromInline
    init() {}

    deinit {
        destroyValues()
        instances.removeSuffix(from: 0)
        unsafe arena.free()
    }

    /// Empties the graph for the next lookup, keeping its storage.
    func reset() {
        nodes.removeSuffix(from: 0)
        graphScoped.removeSuffix(from: 0)
        pending.removeSuffix(from: 0)
        destroyValues()
        instances.removeSuffix(from: 0)
        unsafe arena.rewind()
    }

    /// Destroys the values of the recorded objects, which the arena holds. Each destroy may run a user's
    /// `deinit`: it runs between two accesses to `instances`, never inside one.
    private func destroyValues() {
        for index in 0..<instances.count {
            // In place, through the pointer: copying the element out would retain its function.
            let recorded = unsafe instances.base + index
            unsafe recorded.pointee.destroy(recorded.pointee.value)
        }
    }

    /// Records an object a snapshot kept (see `LookupState.seed(from:)`), whose registration's type is not
    /// known here; readers get it through a cast. Returns its index in `instances`.
    func recordUntyped(_ object: AnyObject) -> Int32 {
        let value = unsafe arena.allocate(
            size: MemoryLayout<AnyObject>.size, alignment: MemoryLayout<AnyObject>.alignment)
        unsafe value.initializeMemory(as: AnyObject.self, to: object)
        unsafe instances.append(Recorded(value: value, as: AnyObject.self))
        return Int32(instances.count - 1)
    }

    /// Whether the graph's storage is small enough to keep for the next lookup on this thread.
    var isWorthKeeping: Bool {
        nodes.capacity <= 256 && instances.capacity <= 256 && pending.capacity <= 256
            && graphScoped.capacity <= 64
    }

    @inlinable
    func push(_ entry: Borrowed<AnyEntry>, parent: Int32) -> Int32 {
        let level = parent >= 0 ? nodes[Int(parent)].level + 1 : 0
        nodes.append(Node(entryRef: entry, instance: -1, parent: parent, level: level))
        return Int32(nodes.count - 1)
    }

    @usableFromInline
    func graphInstance(for entry: ObjectIdentifier) -> Recorded? {
        for index in 0..<graphScoped.count where graphScoped[index].entry == entry {
            return instances[Int(graphScoped[index].instance)]
        }
        return nil
    }

    /// The names from the outermost object down to `node`.
    func path(to node: Int32) -> [String] {
        var names: [String] = []
        var index = node
        while index >= 0 {
            let item = nodes[Int(index)]
            names.append(item.entryRef.object.key.short)
            index = item.parent
        }
        return names.reversed()
    }

    /// The parent of `node`.
    @inlinable
    func parent(of node: Int32) -> Int32 {
        nodes[Int(node)].parent
    }

    /// The nearest node at or above `node` made from `entry`.
    @inlinable
    func ancestor(of node: Int32, entry: AnyEntry) -> Int32? {
        var index = node
        while index >= 0 {
            if nodes[Int(index)].entryRef.refers(to: entry) { return index }
            index = nodes[Int(index)].parent
        }
        return nil
    }
}

// MARK: - Filling and emptying a lookup's graph

extension Resolver {
    /// Records a made object in the graph and queues its preparation.
    @inlinable
    mutating func record<Destination>(_ made: Destination, _ entry: Entry<Destination>, node: Int32) {
        guard let graphRef = graphRef, node >= 0 else { return }
        graphRef.with { graph in
            let index = Int32(graph.instances.count)
            // Kept with its type (see `ResolutionGraph.Recorded`).
            let value = unsafe graph.arena.allocate(
                size: MemoryLayout<Destination>.size, alignment: MemoryLayout<Destination>.alignment)
            unsafe value.initializeMemory(as: Destination.self, to: made)
            unsafe graph.instances.append(.init(value: value, as: Destination.self))
            graph.nodes[Int(node)].instance = index
            if entry.scope.kind == .graph {
                graph.graphScoped.append((ObjectIdentifier(entry), index))
            }
            if entry.needsPreparation {
                // Unowned: the table keeps the entry alive for longer than the lookup. The object is read
                // from the graph's arena, where it stays until the lookup ends (after every preparation it
                // queued has run or been dropped): the closure holds no reference to it. (A closure that
                // captured nothing, reading the entry through a borrowed reference, saved this allocation
                // but added four frames per level to a debug build's property-injection chain, which a
                // 64 KiB thread could no longer hold three levels of.)
                graph.pending.append(
                    .init(node: node) { [unowned(unsafe) entry] resolver in
                        unsafe try resolver.prepare(value.assumingMemoryBound(to: Destination.self).pointee, entry)
                    })
            }
        }
    }

    /// A recorded object as the type of `entry`, the registration it was recorded for: a load when it
    /// was recorded as that type (always, but for a snapshot's seeded objects), a checked cast otherwise.
    @inlinable
    func recordedInstance<Destination>(_ recorded: ResolutionGraph.Recorded, _ entry: Entry<Destination>) throws
        -> Destination
    {
        // Sound: `record` initialized the value as the type `typeID` names (see `Recorded`).
        if recorded.typeID == ObjectIdentifier(Destination.self) {
            return unsafe recorded.value.assumingMemoryBound(to: Destination.self).pointee
        }
        return try cast(recorded.asAny, entry)
    }

    /// Queues a preparation for the object whose factory is running now.
    mutating func enqueuePreparation(_ run: @escaping (inout Resolver) throws -> Void) {
        if graph == nil { state.startGraph() }
        graph?.pending.append(.init(node: current, run: run))
    }

    /// Runs queued preparations from `mark` on, including those they queue, then forgets them.
    @usableFromInline
    mutating func drain(from mark: Int) throws {
        guard let graphRef = graphRef else { return }
        // Borrowed: the state owns the graph until the lookup ends.
        try graphRef.with { graph in
            defer {
                graph.pending.removeSuffix(from: mark)
            }
            var index = mark
            while index < graph.pending.count {
                let item = graph.pending[index]
                index += 1
                try runPending(item, graph: graph)
                if mark == 0 { state.noteCompleted(index) }
            }
        }
    }

    /// Runs one queued preparation inside the object it prepares.
    mutating func runPending(_ item: ResolutionGraph.Pending, graph: ResolutionGraph) throws {
        // A preparation's lookups are nested inside the object it prepares.
        let nested = item.node >= 0 ? Int(graph.nodes[Int(item.node)].level) + 1 : depth
        let entered = state.enterPreparation(of: item.node, depth: nested)
        defer { state.leavePreparation(entered) }
        try item.run(&self)
    }
}

/// A growable list in memory the graph owns, for the graph's per-lookup lists.
///
/// `Array` would do, but emptying an array for the next lookup goes through `replaceSubrange`, a large
/// generic call, four times per lookup; here it is a loop of destroys (none for plain values) and a store.
///
/// `@safe`. **The invariant: `base` holds `capacity` elements' memory, the first `count` initialized.** It
/// holds for every caller: the storage is allocated in `init` and freed in `deinit`, and the stack is not
/// copyable, so no second stack aliases it; `count` and `capacity` change only here; the subscript checks
/// its index against `count` (in release builds too: a `precondition`), `append` grows before it writes,
/// and `removeSuffix` destroys only initialized elements.
@usableFromInline @safe
struct GraphStack<Element>: ~Copyable {
    @usableFromInline fileprivate(set) var base: UnsafeMutablePointer<Element>
    @usableFromInline fileprivate(set) var count: Int
    @usableFromInline fileprivate(set) var capacity: Int

    init(capacity: Int) {
        unsafe base = .allocate(capacity: capacity)
        count = 0
        self.capacity = capacity
    }

    @inlinable
    deinit {
        unsafe base.deinitialize(count: count)
        unsafe base.deallocate()
    }

    @inlinable
    var isEmpty: Bool { count == 0 }

    /// The element at `index`, which must be below `count` (checked).
    @inlinable
    subscript(index: Int) -> Element {
        get {
            precondition(UInt(bitPattern: index) < UInt(bitPattern: count), "GraphStack index outside its elements")
            return unsafe base[index]
        }
        _modify {
            precondition(UInt(bitPattern: index) < UInt(bitPattern: count), "GraphStack index outside its elements")
            yield unsafe &base[index]
        }
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

    /// Destroys the elements from `mark` on (none when `mark` is `count` or more).
    mutating func removeSuffix(from mark: Int) {
        guard count > mark else { return }
        let kept = max(mark, 0)
        unsafe (base + kept).deinitialize(count: count - kept)
        count = kept
    }
}

/// Memory for the values of a graph's recorded objects: a bump allocator over chunks that never move, so
/// a value's address stays valid until the graph rewinds the arena for its next lookup.
///
/// The first chunk is kept from lookup to lookup; chunks a large lookup added, and values larger than a
/// chunk (each in memory of its own), are freed when the arena rewinds.
///
/// `@safe`: `chunk` is allocated in `init` (and by `allocateSlow`) with `chunkSize` bytes and freed only by
/// ``rewind()`` (the extra ones) or ``free()``, which are `@unsafe` (the memory they free may hold values
/// their owner has not destroyed; the graph, the only owner, destroys every value first); `allocate` hands
/// out disjoint ranges inside it, aligned as asked; `chunk` and `offset` change only here.
@usableFromInline @safe
struct RecordedArena {
    /// The size of a chunk, in bytes: room for about a hundred class or protocol values.
    @usableFromInline static let chunkSize = 2048
    /// The chunk values are placed in now.
    @usableFromInline fileprivate(set) var chunk: UnsafeMutableRawPointer
    /// The first free byte of `chunk`.
    @usableFromInline fileprivate(set) var offset = 0
    /// The first chunk, kept for the next lookup.
    let first: UnsafeMutableRawPointer
    /// Memory to free when the arena rewinds: chunks after the first, and values larger than a chunk.
    var extra: [UnsafeMutableRawPointer] = unsafe []

    init() {
        let memory = UnsafeMutableRawPointer.allocate(byteCount: Self.chunkSize, alignment: 16)
        unsafe chunk = unsafe memory
        unsafe first = unsafe memory
    }

    /// Memory for one value of `size` bytes aligned to `alignment` (a power of two).
    @inlinable
    mutating func allocate(size: Int, alignment: Int) -> UnsafeMutableRawPointer {
        let start = (offset + alignment - 1) & ~(alignment - 1)
        if start + size <= Self.chunkSize && alignment <= 16 {
            offset = start + size
            return unsafe chunk + start
        }
        return unsafe allocateSlow(size: size, alignment: alignment)
    }

    /// ``allocate(size:alignment:)`` when the chunk is full or the value too large or too aligned for one.
    @usableFromInline
    mutating func allocateSlow(size: Int, alignment: Int) -> UnsafeMutableRawPointer {
        if size > Self.chunkSize / 4 || alignment > 16 {
            let own = UnsafeMutableRawPointer.allocate(byteCount: max(size, 1), alignment: max(alignment, 16))
            unsafe extra.append(own)
            return unsafe own
        }
        let fresh = UnsafeMutableRawPointer.allocate(byteCount: Self.chunkSize, alignment: 16)
        unsafe extra.append(fresh)
        unsafe chunk = unsafe fresh
        offset = size
        return unsafe fresh
    }

    /// Makes all the memory free again, keeping the first chunk; every value in it must be destroyed.
    @unsafe mutating func rewind() {
        unsafe chunk = unsafe first
        offset = 0
        guard unsafe !extra.isEmpty else { return }
        // By index: a `for` over pointers would need a marked loop, which the formatter does not keep apart.
        for index in unsafe extra.indices { unsafe extra[index].deallocate() }
        unsafe extra.removeAll(keepingCapacity: true)
    }

    /// Frees all the memory; every value in it must be destroyed, and the arena not used afterwards.
    @unsafe func free() {
        for index in unsafe extra.indices { unsafe extra[index].deallocate() }
        unsafe first.deallocate()
    }
}
