// MARK: The frame scopes
//
// The only places a `FrameRef` is made (see its invariant): each pushes its frame, hands it to code that
// runs inside the scope, and pops it before returning.

extension Resolver {
    /// Runs the factory inside a frame on the call stack, records the object, and queues its preparation.
    @inlinable
    mutating func construct<Destination>(_ entry: Entry<Destination>) throws -> Destination {
        if checksForRepeat, let cycle = repeatedFactory(entry) { throw cycle }
        var frame = Frame(entry: entry, parent: top, node: -1)
        // Unprotected: see `Frame`.
        return unsafe try _withUnprotectedUnsafeMutablePointer(to: &frame) { pointer in
            let frame = unsafe FrameRef(pointer)
            let parentNode = state.frames.enter(frame, graphRef: state.preparations.graphRef)
            defer { state.frames.leave(frame, parentNode: parentNode) }
            let made = try runFactory(entry, in: frame)
            state.frames.noteConstructed(entry)
            return made
        }
    }

    /// `construct` for a transient with nothing to prepare in an untraced lookup with no graph (yet): no
    /// node to push, and nothing to record unless the factory's own lookups start the graph. Always inlined,
    /// and its body a local function rather than a closure, so that a nested lookup is one function: a
    /// closure's body is compiled apart, and each call between the pieces cost about 30 instructions.
    @inlinable @inline(__always)
    mutating func constructPlain<Destination>(_ entry: Entry<Destination>) throws -> Destination {
        if checksForRepeat, let cycle = repeatedFactory(entry) { throw cycle }
        let outerTop = top
        var frame = Frame(entry: entry, parent: outerTop, node: -1)
        @inline(__always) func run(_ pointer: UnsafeMutablePointer<Frame>) throws -> Destination {
            let framePointer = unsafe FrameRef(pointer)
            let parentNode = state.frames.enterPlain(framePointer)
            // No trace counts: `build` sends a traced lookup to `buildTraced`, which never comes here.
            let made: Destination
            do {
                // Wraps a failure while the frame is still pushed, so the error's path ends at this object.
                made = try runFactory(entry, in: framePointer, recordsInline: false)
            } catch {
                state.frames.leave(framePointer, parentNode: parentNode)
                throw error
            }
            guard graphRef == nil else {
                // The factory's own lookups started a graph, which gave this frame and its parents nodes.
                state.frames.leave(framePointer, parentNode: parentNode)
                return made
            }
            // Still no graph: no node was made, so the enclosing frame has none to restore.
            state.frames.leavePlain(restoring: outerTop, parentNode: parentNode)
            return made
        }
        // Unprotected: see `Frame`.
        return unsafe try _withUnprotectedUnsafeMutablePointer(to: &frame, run)
    }

    /// `construct` for the first object of a lookup, which has no enclosing frame or node and is not
    /// traced: the frame is pushed and popped by plain stores.
    @inlinable @inline(__always)
    mutating func constructFirst<Destination>(_ entry: Entry<Destination>) throws -> Destination {
        // The first level: the depth count (0 < maxDepth, which is at least 1) always allows it; the stack
        // may not.
        guard hasStackRoom else { throw tooDeep(entry) }
        var frame = Frame(entry: entry, parent: nil, node: -1)
        // Unprotected: see `Frame`.
        return unsafe try _withUnprotectedUnsafeMutablePointer(to: &frame) { pointer in
            let frame = unsafe FrameRef(pointer)
            state.frames.enterFirst(frame)
            defer { state.frames.leaveFirst() }
            return try runFactory(entry, in: frame)
        }
    }

    /// As `construct`, with an async factory. Inlinable, so that the async door's fast case
    /// (``resolvePlainAsyncTopLevel(_:_:in:reporting:onMainActor:)``) runs it specialized, in its caller.
    @inlinable
    nonisolated(nonsending) mutating func constructAsync<Destination>(
        _ entry: Entry<Destination>,
        _ factory: nonisolated(nonsending) @Sendable (inout Resolver) async throws -> Destination
    ) async throws -> Destination {
        // As `construct`: a transient's factory already running on the path is a cycle, found at its first
        // repeat (the graph finds shared and graph-scoped repeats).
        if checksForRepeat, let cycle = repeatedFactory(entry) { throw cycle }
        // Off the stack: a pointer to a stack local cannot live across a suspension.
        let frame = state.pushAsyncFrame(Frame(entry: entry, parent: top, node: -1))
        let parentNode = state.frames.enter(frame, graphRef: state.preparations.graphRef)
        defer {
            state.frames.leave(frame, parentNode: parentNode)
            state.popAsyncFrame(frame)
        }
        let made: Destination
        // Nonsending, as the whole async lookup: the factory runs on the lookup's executor between its
        // awaits, so what it looks up synchronously is on the main actor exactly when the lookup is.
        do {
            made = try await factory(&self)
        } catch {
            throw wrap(error, entry, stage: "factory")
        }
        if state.hasFailedInjection { try throwFailedInjection(of: entry, node: -1) }
        state.frames.noteConstructed(entry)
        record(made, entry, node: frame.node)
        return made
    }
}
