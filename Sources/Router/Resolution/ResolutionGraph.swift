/// The heap state of one top-level lookup, made only when the lookup needs it: a preparation to run,
/// a graph-scoped or shared instance, or a route's hooks. A lookup that only builds transient objects
/// never makes one.
///
/// - `nodes` record objects with their parent, so that a preparation can find the objects it was built
///   for (to close a cycle with the same instance) and errors can print the path.
/// - `pending` holds preparations (property injections and finish hooks) until the objects an injection
///   may point back to exist: a shared instance's run right after its own factory returns
///   (`Resolver.drainShared`), except those that need an object an enclosing factory is still building;
///   every other one runs once no factory is running.
///
/// `@safe`, with its lists' exclusivity unchecked (`@safe @exclusivity(unchecked)`: dynamic exclusivity
/// checks on them showed up as a tenth of the lookup's instructions). **The invariant: no two accesses to
/// a list overlap.** It holds because a graph belongs to one lookup's state (which holds it, +1) on one
/// thread or task at a time, and no operation on a list (``GraphStack``, ``RecordedArena``: append, grow,
/// remove, allocate) runs code that could reach the graph while it lasts: the values that hold user
/// objects are released between accesses, never inside one (`destroyValues` destroys the recorded objects
/// one access at a time; ``removePending(from:)`` takes each preparation, whose closure may hold the
/// user's objects, out of the list before it is released). Its raw memory follows ``GraphStack``'s,
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
        removePending(from: 0)
        destroyValues()
        instances.removeSuffix(from: 0)
        unsafe arena.rewind()
    }

    /// Forgets the pending preparations from `mark` on, the last first. Each is taken out of `pending`
    /// before it is released: its closure may hold the user's objects, whose `deinit` may look something
    /// up in this lookup, and so append to `pending`.
    @inline(__always)
    func removePending(from mark: Int) {
        guard pending.count > mark else { return }
        while let removed = pending.removeLast(downTo: mark) { _ = removed }
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

    /// The last node made from `entry` whose factory returned; -1 when there is none. (A walk over the
    /// nodes, for a claim that found an instance of the lookup's transaction in progress: a cycle.)
    func lastBuiltNode(of entry: AnyEntry) -> Int32 {
        let target = Borrowed(entry)
        var index = nodes.count - 1
        while index >= 0 {
            let item = nodes[index]
            if item.instance >= 0 && item.entryRef.refers(to: target) { return Int32(index) }
            index -= 1
        }
        return -1
    }

    /// The nearest node at or above `node` made from `entry`.
    ///
    /// One bounds check for the whole walk, on `node`: `push` gives every node a parent below its own index
    /// (it reads the parent through the checked subscript), a node's `parent` never changes, and nodes leave
    /// the list only all at once (`reset`), so each index on the way up is below `node` and so below `count`.
    @inlinable @inline(__always)
    func ancestor(of node: Int32, entry: AnyEntry) -> Int32? {
        precondition(Int(node) < nodes.count, "ancestor(of:) asked from a node the graph does not hold")
        let target = Borrowed(entry)
        var index = node
        while index >= 0 {
            let item = unsafe nodes.base[Int(index)]
            if item.entryRef.refers(to: target) { return index }
            index = item.parent
        }
        return nil
    }
}
