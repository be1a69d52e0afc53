/// The factories running in a lookup, innermost on top, and what the running one is handed. Its fields
/// are written only by its own operations below (`fileprivate(set)`), none of which calls code that could
/// reach the lookup (see ``LookupState``).
// `top` follows `FrameRef`'s invariant; `inputRef` is kept alive by whoever sets it until it is cleared
// (`LookupState.withInput`).
@usableFromInline
struct FrameStack {
    /// The innermost running factory's frame.
    @usableFromInline fileprivate(set) var top: FrameRef?
    /// How many frames are running.
    @usableFromInline fileprivate(set) var depth = 0
    /// The node of the object being built or prepared, -1 when none is recorded.
    @usableFromInline fileprivate(set) var current: Int32 = -1
    /// Greater than zero while a preparation (property injection) runs.
    @usableFromInline fileprivate(set) var injecting = 0
    /// The configuration or the arguments handed to the next factory that takes them, unretained.
    @usableFromInline fileprivate(set) var inputRef: Borrowed<AnyObject>?
    /// The runtime arguments handed to the next factory that takes them; their lookup keeps what the
    /// handoff points to alive until it clears this (see ``ArgumentHandoff``).
    @usableFromInline fileprivate(set) var arguments: ArgumentHandoff?
    /// How many factories have returned, and the last one's registration (for the trace).
    @usableFromInline fileprivate(set) var constructions = 0
    @usableFromInline fileprivate(set) var lastConstructed: ObjectIdentifier?

    @usableFromInline init() {}

    /// Pushes the first factory's frame of a lookup (no enclosing frame, no node).
    @inlinable @inline(__always)
    mutating func enterFirst(_ frame: FrameRef) {
        top = frame
        depth = 1
    }

    /// Pops what ``enterFirst(_:)`` pushed.
    @inlinable @inline(__always)
    mutating func leaveFirst() {
        top = nil
        current = -1
        depth = 0
    }

    /// Pushes a factory's frame, and its node in `graphRef` when the lookup has a graph; returns the node
    /// to restore after.
    @inlinable @inline(__always)
    mutating func enter(_ frame: FrameRef, graphRef: Borrowed<ResolutionGraph>?) -> Int32 {
        let parentNode = current
        if let graphRef {
            frame.node = graphRef.with { $0.push(frame.entry, parent: parentNode) }
            current = frame.node
        }
        top = frame
        depth &+= 1
        return parentNode
    }

    /// Pops a factory's frame pushed by ``enter(_:graphRef:)`` or ``enterPlain(_:)``.
    @inlinable @inline(__always)
    mutating func leave(_ frame: FrameRef, parentNode: Int32) {
        let outerTop = frame.parent
        top = outerTop
        // A graph started inside the factory gave the enclosing frame a node of its own.
        if let outer = outerTop, outer.node >= 0 {
            current = outer.node
        } else {
            current = parentNode
        }
        depth &-= 1
    }

    /// Pushes the frame of a factory that starts with no graph (see `Resolver.constructPlain`): no node;
    /// returns the node to restore after.
    @inlinable @inline(__always)
    mutating func enterPlain(_ frame: FrameRef) -> Int32 {
        top = frame
        depth &+= 1
        return current
    }

    /// Pops what ``enterPlain(_:)`` pushed when still no graph exists: nothing else to restore.
    @inlinable @inline(__always)
    mutating func leavePlain(restoring outerTop: FrameRef?, parentNode: Int32) {
        top = outerTop
        current = parentNode
        depth &-= 1
    }

    /// Enters a preparation of the object at `node`, whose lookups are nested at `depth`: returns the node
    /// and depth to give back to ``leavePreparation(current:depth:)``.
    @inlinable @inline(__always)
    mutating func enterPreparation(of node: Int32, depth: Int) -> (current: Int32, depth: Int) {
        let saved = (current, self.depth)
        current = node
        self.depth = depth
        injecting += 1
        return saved
    }

    /// Leaves what ``enterPreparation(of:depth:)`` entered.
    @inlinable @inline(__always)
    mutating func leavePreparation(current: Int32, depth: Int) {
        self.current = current
        self.depth = depth
        injecting -= 1
    }

    /// Makes `node` the current one: the graph, started while factories run, gave the innermost a node.
    mutating func moveTo(_ node: Int32) {
        current = node
    }

    /// Counts a factory that returned, for the trace.
    @inlinable @inline(__always)
    mutating func noteConstructed(_ entry: AnyEntry) {
        constructions &+= 1
        lastConstructed = ObjectIdentifier(entry)
    }

    /// Hands `input` (unretained: the caller keeps it alive) to the next factory that takes it, or clears
    /// it (nil).
    @inlinable @inline(__always)
    mutating func handInput(_ input: AnyObject?) {
        inputRef = input.map { Borrowed($0) }
    }

    /// Takes the configuration or arguments handed to the factory that is starting: no later factory
    /// gets them.
    mutating func takeInput() -> AnyObject? {
        let taken = inputRef?.object
        inputRef = nil
        return taken
    }

    /// Hands `handoff` to the next factory that takes it, or clears it (nil).
    @inlinable @inline(__always)
    mutating func handArguments(_ handoff: ArgumentHandoff?) {
        arguments = handoff
    }

    /// Takes the runtime arguments handed to the factory that is starting: no later factory gets them.
    @inlinable @inline(__always)
    mutating func takeArguments() -> ArgumentHandoff? {
        let taken = arguments
        arguments = nil
        return taken
    }
}
