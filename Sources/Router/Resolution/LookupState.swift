/// The mutable state of one running lookup, shared by everything it builds: the resolver a factory gets
/// is a reference to it, and a lookup started inside a factory (through the registry, a `Lazy` or a
/// `Provider`) joins it instead of starting afresh.
///
/// A thread keeps one state for its lookups and reuses it (see ``ThreadContext``); a lookup of another
/// registry started inside a factory gets a state of its own, nested in the running one. Only its own
/// thread touches a synchronous lookup's state; an async lookup's state moves with its task.
// @safe: its unsafe storage (borrowed table and graph, frame pointers) follows `Borrowed`'s and `Frame`'s
// invariants, stated on those types; the state itself belongs to one lookup on one thread at a time.
@usableFromInline @safe
final class LookupState {
    // Every field is unchecked: a state belongs to one lookup on one thread (or one task) at a time, and
    // dynamic exclusivity checks on these fields cost more than a transient lookup.

    /// The table the lookup reads; the registry call (or `Lazy`/`Provider`) that started it keeps it alive.
    @exclusivity(unchecked) @usableFromInline var tableRef: Borrowed<SealedTable>
    /// The deepest nesting allowed, copied from the table so the hot path does not reach for it.
    @exclusivity(unchecked) @usableFromInline var maxDepth: Int
    /// Whether a trace handler was installed when the lookup started (and no handler is running).
    @exclusivity(unchecked) @usableFromInline var tracing: Bool
    /// Below this stack address a nested build fails with `resolutionTooDeep` (see ``ThreadContext``).
    @exclusivity(unchecked) @usableFromInline var stackRange: StackRange
    /// The graph, once the lookup needs one; owned (+1) by the state. Borrowed, so that reading it on the
    /// hot path writes no reference count.
    @exclusivity(unchecked) @usableFromInline var graphRef: Borrowed<ResolutionGraph>?
    /// An emptied graph (+1) kept for the next lookup that needs one; borrowed, so handing it over writes
    /// no reference count.
    @exclusivity(unchecked) var spareGraph: Borrowed<ResolutionGraph>?
    /// The node of the object being built or prepared, -1 when none is recorded.
    @exclusivity(unchecked) @usableFromInline var current: Int32 = -1
    /// The innermost running factory's frame, on the call stack.
    @exclusivity(unchecked) @usableFromInline var top: UnsafeMutablePointer<Frame>?
    @exclusivity(unchecked) @usableFromInline var depth = 0
    /// Greater than zero while a preparation (property injection) runs.
    @exclusivity(unchecked) @usableFromInline var injecting = 0
    /// The configuration or the arguments handed to the next factory that takes them, unretained: whoever
    /// sets it keeps the object alive until it is cleared.
    @exclusivity(unchecked) @usableFromInline var inputRef: Borrowed<AnyObject>?
    /// How many factories have returned, and the last one's registration (for the trace).
    @exclusivity(unchecked) @usableFromInline var constructions = 0
    @exclusivity(unchecked) @usableFromInline var lastConstructed: ObjectIdentifier?
    /// While a shared instance's preparations run: its node. An unbuilt ancestor below it (built by an
    /// enclosing factory) defers the preparation instead of failing.
    @exclusivity(unchecked) @usableFromInline var sharedFloor: Int32 = -1
    /// The innermost factory frame when the running preparation started: a build requested while `top` is
    /// still this frame comes from the preparation itself, not from a factory it started.
    @exclusivity(unchecked) @usableFromInline var preparationTop: UnsafeMutablePointer<Frame>?
    /// While a lookup with a caller's preparation builds its object inside a preparation: the object's own
    /// preparations must wait for the caller's, which runs first.
    @exclusivity(unchecked) @usableFromInline var callerPreparationPending = false
    /// Set when a build returns an ancestor that is still being built or prepared (a cycle closed by a
    /// property edge). A shared instance whose preparation did so is held until the lookup ends: published
    /// earlier, another thread could reach the ancestor before its preparation has run.
    @exclusivity(unchecked) @usableFromInline var reachedUnfinishedAncestor = false
    /// Set when a preparation asked for an object an enclosing factory is still building: the preparation
    /// moves to the enclosing lookup's queue. A flag the engine reads after the preparation returns, not
    /// the error it throws, decides: user code that swallows the error (`try?`) cannot cancel the move.
    @exclusivity(unchecked) @usableFromInline var deferralRequested = false
    /// How many pending preparations the top-level drain has run to completion.
    @exclusivity(unchecked) var completed = 0
    /// The creation transaction, made when the lookup first claims a shared instance. A lookup nested in
    /// another on the same thread shares the outer one's, so that it never waits for its own thread.
    @exclusivity(unchecked) @usableFromInline var ownTransaction: CreationTransaction?
    /// Whether the code that started (or joined) this lookup is isolated to the main actor, as the compiler
    /// proved through `#isolation`: main-actor factories may run in it, synchronously, on this thread. A
    /// lookup nested in such a lookup on the same thread inherits it.
    @exclusivity(unchecked) @usableFromInline var onMainActor = false
    /// The lookup this one is nested in on the same thread, if any.
    /// Borrowed: the thread's context keeps every running state alive.
    @exclusivity(unchecked) @usableFromInline var outer: Borrowed<LookupState>?
    /// For each custom scope this lookup used, the scope generation it saw first: a lookup keeps using
    /// that generation even if the scope is reset meanwhile, so it never mixes old and new instances.
    /// Each is counted as a user of its generation until the lookup ends (``CustomScope/enter()``).
    @exclusivity(unchecked) var scopeGenerations: [(scope: CustomScope, generation: Int)] = []
    /// Whether `scopeGenerations`, `detachedCells` or `snapshot` has anything (one flag, cheaper to test
    /// than each of them).
    @exclusivity(unchecked) @usableFromInline var hasExtras = false
    /// The snapshot of this lookup's graph-scoped instances, for the `Lazy`s and `Provider`s made in it.
    @exclusivity(unchecked) var snapshot: GraphSnapshot?
    /// Cells for custom-scoped registrations whose scope was reset after this lookup first used it: the
    /// lookup's own, so it finishes with the generation it started with and the scope keeps none of them.
    @exclusivity(unchecked) var detachedCells: [(entry: ObjectIdentifier, cell: AnyObject)] = []
    /// Whether this state belongs to an async lookup (which publishes shared instances at once and never
    /// holds them across a suspension).
    @usableFromInline let isAsync: Bool

    init(tableRef: Borrowed<SealedTable>, stackRange: StackRange, isAsync: Bool = false) {
        unsafe self.tableRef = tableRef
        unsafe self.stackRange = stackRange
        self.isAsync = isAsync
        unsafe (maxDepth, tracing) = tableRef.with { ($0.maxDepth, $0.isTracing) }
    }

    deinit {
        unsafe graphRef?.release()
        unsafe spareGraph?.release()
        // An async lookup's state ends here rather than in `reset()`.
        for seen in unsafe scopeGenerations { seen.scope.leave(seen.generation) }
    }

    /// Prepares a reused state for a new lookup of `table`.
    func restart(tableRef: Borrowed<SealedTable>, stackRange: StackRange, tracing: Bool) {
        unsafe self.tableRef = tableRef
        unsafe self.stackRange = stackRange
        unsafe self.tracing = tracing
        unsafe maxDepth = tableRef.with { $0.maxDepth }
    }

    /// The table, for the paths that are not hot.
    var table: SealedTable { unsafe tableRef.object }

    /// The transaction shared by this lookup and the lookups it is nested in on this thread.
    var transaction: CreationTransaction {
        var root = self
        while let outer = unsafe root.outer?.object { root = outer }
        if let made = unsafe root.ownTransaction { return made }
        let made = CreationTransaction()
        unsafe root.ownTransaction = made
        return made
    }

    /// The graph, if this lookup has one.
    @usableFromInline var graph: ResolutionGraph? { unsafe graphRef?.object }

    /// Makes the graph, turning the frames of the running factories into its first nodes.
    @usableFromInline
    func startGraph() {
        let takenRef = unsafe spareGraph ?? Borrowed.retained(ResolutionGraph())
        unsafe spareGraph = nil
        unsafe graphRef = takenRef
        guard unsafe top != nil else { return }  // the common case: the graph starts before any factory runs
        let taken = unsafe takenRef.object
        var frames: [UnsafeMutablePointer<Frame>] = unsafe []
        var cursor = unsafe top
        while let frame = unsafe cursor {
            unsafe frames.append(frame)
            unsafe cursor = unsafe frame.pointee.parent
        }
        var parent = unsafe current
        // Outermost first; by index, as a `for` over pointers would need `for unsafe`, which the formatter
        // does not keep apart.
        for index in unsafe frames.indices.reversed() {
            let frame = unsafe frames[index]
            unsafe frame.pointee.node = unsafe taken.push(frame.pointee.entry, parent: parent)
            parent = unsafe frame.pointee.node
        }
        unsafe current = parent
    }

    /// Whether the lookup has anything to run when it ends: a graph (queued preparations) or a claim.
    @inlinable
    var needsFinishing: Bool {
        unsafe graphRef != nil || ownTransaction != nil
    }

    /// Whether the lookup left nothing to clear: it made no graph, claimed nothing and used no custom scope
    /// (its frames, depth and input were restored on the way out).
    @inlinable
    var isClean: Bool {
        unsafe graphRef == nil && ownTransaction == nil && !hasExtras
    }

    /// Empties the state after its lookup ended, keeping a small graph's storage for the next one.
    func reset() {
        unsafe outer = nil
        guard !isClean else { return }
        if let snapshot = unsafe snapshot {
            // The Lazys and Providers this lookup made keep its graph-scoped instances, weakly.
            if let graph { snapshot.capture(from: graph) }
            unsafe self.snapshot = nil
        }
        if let graphRef = unsafe graphRef {
            unsafe self.graphRef = nil
            let keep = unsafe graphRef.with { graph in
                graph.reset()
                return graph.isWorthKeeping
            }
            if unsafe keep && spareGraph == nil { unsafe spareGraph = graphRef } else { unsafe graphRef.release() }
        }
        unsafe current = -1
        unsafe top = nil
        unsafe depth = 0
        unsafe injecting = 0
        unsafe inputRef = nil
        unsafe sharedFloor = -1
        unsafe reachedUnfinishedAncestor = false
        unsafe deferralRequested = false
        unsafe completed = 0
        unsafe ownTransaction = nil
        unsafe outer = nil
        if unsafe hasExtras {
            for seen in unsafe scopeGenerations { seen.scope.leave(seen.generation) }
            unsafe scopeGenerations.removeAll(keepingCapacity: true)
            unsafe detachedCells.removeAll()
            unsafe hasExtras = false
        }
    }

    /// This lookup's own cell for a custom-scoped registration whose scope was reset meanwhile.
    func detachedCell<Value>(for entry: Entry<Value>) -> SharedCell<Value> {
        let id = ObjectIdentifier(entry)
        for held in unsafe detachedCells where held.entry == id {
            if let cell = held.cell as? SharedCell<Value> { return cell }
        }
        let made = SharedCell<Value>()
        unsafe detachedCells.append((id, made))
        return made
    }

    /// The generation of `scope` this lookup uses: the one it saw first.
    func generation(of scope: CustomScope) -> Int {
        for seen in unsafe scopeGenerations where seen.scope === scope { return seen.generation }
        let now = scope.enter()
        unsafe scopeGenerations.append((scope, now))
        unsafe hasExtras = true
        return now
    }
}
