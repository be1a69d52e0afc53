/// The mutable state of one running lookup, shared by everything it builds: the resolver a factory gets
/// is a reference to it, and a lookup started inside a factory (through the registry, a `Lazy` or a
/// `Provider`) joins it instead of starting afresh.
///
/// A thread keeps one state for its lookups and reuses it (see ``ThreadContext``); a lookup of another
/// registry started inside a factory gets a state of its own, nested in the running one. Only its own
/// thread touches a synchronous lookup's state; an async lookup's state moves with its task.
///
/// `@safe`, with its parts' exclusivity unchecked (`@safe @exclusivity(unchecked)`: dynamic exclusivity
/// checks on these fields cost more than a transient lookup). **The invariant: no two accesses to a part
/// overlap.** It holds because a state belongs to one lookup on one thread (or one task) at a time, and
/// no access to a part runs code that could reach the state (user code, a lookup) while it lasts. Each
/// part is a type of its own file (``LookupContext``, ``FrameStack``, ``PreparationQueue``,
/// ``CreationScope``) whose fields are `fileprivate(set)`: only the part's own mutating operations write
/// them, and none of those takes a closure or calls user code (the scoped calls below that run a body
/// write the part before and after it, never across it). What a reset drops that may hold user objects (a
/// failed injection's error, detached cells, the snapshot, an emptied graph) is moved out of the part
/// first and released after the access. Reads are instantaneous copies, which cannot overlap a write on
/// the same thread. The frames it points at follow ``FrameRef``'s invariant; its graph is held (+1) and
/// released once, here.
@usableFromInline @safe
final class LookupState {
    // Code that changes a part for a nested call restores it through the scoped calls below
    // (`withOnMainActor`, `withInput`, `withCallerPreparation`, and the enter and leave pairs of a part),
    // never through a save and restore of its own.

    /// Where the lookup runs and under which rules: set when it starts, by the door or the async door.
    @safe @exclusivity(unchecked) @usableFromInline var context: LookupContext
    /// The factories running in the lookup, innermost on top: pushed and popped by `construct`.
    @safe @exclusivity(unchecked) @usableFromInline var frames = FrameStack()
    /// The graph, once the lookup needs one, the preparations queued in it, and the flags a shared build
    /// reads to hold or defer them.
    @safe @exclusivity(unchecked) @usableFromInline var preparations = PreparationQueue()
    /// What the lookup shares with other lookups: its creation transaction, the custom-scope generations it
    /// uses, the snapshot its `Lazy`s and `Provider`s read.
    @safe @exclusivity(unchecked) @usableFromInline var creation = CreationScope()
    /// An ``Injected`` property that failed to resolve, with the frame of the factory that was running:
    /// that factory's lookup fails with it once the factory returns, or the lookup does when it finishes.
    /// Set by `recordFailedInjection`, which also starts the graph, so that only the branch after a factory
    /// that a graph already sends slow (`graphRef != nil`) looks at it. Here rather than in `FrameStack`,
    /// which stays a plain value: a reference in it made each copy of the frames retain.
    @safe @exclusivity(unchecked) fileprivate(set) var failedInjection: FailedInjection?
    /// Whether `failedInjection` is set: what the engine's hot branches test, as a plain load (testing the
    /// reference itself retained and released it).
    @safe @exclusivity(unchecked) @usableFromInline fileprivate(set) var hasFailedInjection = false
    /// Memory for the frames of the async factories running in the lookup (a frame cannot stay on the
    /// stack across a suspension), kept with the state so that an async lookup allocates none.
    @safe @exclusivity(unchecked) fileprivate var asyncFrames = AsyncFrameSlots()

    private init(tableRef: Borrowed<SealedTable>, stackRange: StackRange, tracing: Bool, isAsync: Bool) {
        context = LookupContext(tableRef: tableRef, stackRange: stackRange, tracing: tracing, isAsync: isAsync)
    }

    /// The one place a lookup state is made: a thread's primary or nested state
    /// (``ThreadContext/beginSlow(_:onMainActor:)``), or an async lookup's, which moves with its task
    /// (``Resolver/beginAsync(in:of:reporting:onMainActor:)``). `tracing`: whether a trace handler sees it.
    static func make(_ tableRef: Borrowed<SealedTable>, stackRange: StackRange, tracing: Bool, isAsync: Bool)
        -> LookupState
    {
        LookupState(tableRef: tableRef, stackRange: stackRange, tracing: tracing, isAsync: isAsync)
    }

    deinit {
        unsafe preparations.graphRef?.release()
        unsafe preparations.spareGraph?.release()
        unsafe asyncFrames.free()
    }

    /// Ends an async lookup's state, which is its own (a thread's states end in ``ThreadContext/end(_:)``):
    /// the same ``reset()``, which captures the snapshot its `Lazy`s and `Provider`s read and leaves the
    /// custom-scope generations it used, and the same invariant check.
    @inline(__always)
    func end() {
        reset()
        #if DEBUG
            let problems = _checkInvariants(idle: true)
            assert(problems.isEmpty, "lookup state: \(problems.joined(separator: "; "))")
        #endif
    }

    /// Prepares a reused state for a new lookup of `table`.
    func restart(tableRef: Borrowed<SealedTable>, stackRange: StackRange, tracing: Bool) {
        context.restart(tableRef, stackRange: stackRange, tracing: tracing)
    }

    /// The table, for the paths that are not hot.
    var table: SealedTable { context.tableRef.object }

    /// The outermost lookup this one is nested in on this thread (itself when it is not nested).
    @usableFromInline
    var outermost: LookupState {
        var root = self
        while let outer = root.context.outer?.object { root = outer }
        return root
    }

    /// The transaction shared by this lookup and the lookups it is nested in on this thread.
    @usableFromInline
    var transaction: CreationTransaction {
        let root = outermost
        return root.creation.transaction(isAsync: root.context.isAsync)
    }

    /// The graph, if this lookup has one.
    @usableFromInline var graph: ResolutionGraph? { preparations.graphRef?.object }

    /// Makes the graph, turning the frames of the running factories into its first nodes.
    @usableFromInline
    func startGraph() {
        let takenRef = unsafe preparations.takeSpareGraph() ?? Borrowed.retained(ResolutionGraph())
        preparations.adoptGraph(takenRef)
        // The common case: the graph starts before any factory runs.
        guard frames.top != nil else { return }
        let taken = takenRef.object
        var running: [FrameRef] = []
        var cursor = frames.top
        while let frame = cursor {
            running.append(frame)
            cursor = frame.parent
        }
        var parent = frames.current
        // Outermost first.
        for frame in running.reversed() {
            frame.node = taken.push(frame.entry, parent: parent)
            parent = frame.node
        }
        frames.moveTo(parent)
    }

    /// Records that an ``Injected`` property failed to resolve while the innermost factory (if any) runs,
    /// keeping the first failure. The graph is started so that the factory's return takes the branch that
    /// checks for it (see `Resolver.runFactory`), and so that the lookup's finish does.
    func recordFailedInjection(_ error: any Error) {
        if failedInjection == nil {
            failedInjection = FailedInjection(error: error, frame: frames.top?.address ?? 0)
            hasFailedInjection = true
        }
        if preparations.graphRef == nil { startGraph() }
    }

    /// Takes the recorded failure of an ``Injected`` property if it belongs to the factory in `frame`
    /// (nil: any, when the lookup finishes). `frame`'s address is only compared with the one recorded,
    /// never followed, so a frame that has since been popped cannot be read through it.
    @usableFromInline
    func takeFailedInjection(in frame: FrameRef?) -> (any Error)? {
        guard let failed = failedInjection else { return nil }
        if let frame, failed.frame != frame.address { return nil }
        failedInjection = nil
        hasFailedInjection = false
        return failed.error
    }

    /// Whether the lookup has anything to run when it ends: a graph (queued preparations) or a claim.
    @inlinable
    var needsFinishing: Bool {
        preparations.graphRef != nil || creation.ownTransaction != nil
    }

    /// Whether the lookup left nothing to clear: it made no graph, claimed nothing and used no custom scope
    /// (its frames, depth and input were restored on the way out).
    @inlinable
    var isClean: Bool {
        preparations.graphRef == nil && creation.ownTransaction == nil && !creation.hasExtras
    }

    /// Empties the state after its lookup ended, keeping a small graph's storage for the next one.
    func reset() {
        context.unnest()
        guard !isClean else { return }
        if let snapshot = creation.snapshot {
            // The Lazys and Providers this lookup made keep its graph-scoped instances, weakly.
            if let graph { snapshot.capture(from: graph) }
        }
        if let graphRef = preparations.graphRef {
            let keep = graphRef.with { graph in
                graph.reset()
                return graph.isWorthKeeping
            }
            let released = preparations.retireGraph(keep: keep)
            unsafe released?.release()
        }
        frames = FrameStack()
        if hasFailedInjection {
            // Moved out first: the error may be the user's, and its `deinit` runs after the write.
            let dropped = failedInjection
            failedInjection = nil
            hasFailedInjection = false
            withExtendedLifetime(dropped) {}
        }
        preparations.reset()
        // Taken out of the part first: releasing them may run a `deinit` (a detached cell's instance) that
        // looks something up, which must not overlap this write (see the type's invariant).
        let transaction = creation.takeTransaction()
        if creation.hasExtras {
            for seen in creation.scopeGenerations { seen.scope.leave(seen.generation) }
            let released = creation.takeExtras()
            withExtendedLifetime(released) {}
        }
        withExtendedLifetime(transaction) {}
        #if DEBUG
            let problems = _checkInvariants(idle: true)
            assert(problems.isEmpty, "lookup state: \(problems.joined(separator: "; "))")
        #endif
    }

    /// What is wrong with the state, if anything (empty when every invariant holds). `idle`: the lookup
    /// ended, and the state must be ready for the next one. Debug builds check it whenever a state is
    /// reset and whenever a lookup that started at the door ends.
    @usableFromInline
    func _checkInvariants(idle: Bool) -> [String] {
        var problems: [String] = []
        var depth = 0
        var cursor = frames.top
        while let frame = cursor {
            depth += 1
            cursor = frame.parent
        }
        if depth != frames.depth, frames.top != nil || frames.depth != 0 {
            problems.append("depth \(frames.depth) but \(depth) frames")
        }
        if frames.injecting < 0 { problems.append("negative preparation count") }
        if let graph {
            if Int(frames.current) >= graph.nodes.count {
                problems.append("current node \(frames.current) outside the graph")
            }
        } else if frames.current != -1 {
            problems.append("current node \(frames.current) without a graph")
        }
        if !creation.hasExtras
            && (!creation.scopeGenerations.isEmpty || creation.snapshot != nil || creation.requestScope != nil)
        {
            problems.append("scope generations, a snapshot or a request scope not flagged")
        }
        guard idle else { return problems }
        if frames.top != nil || frames.depth != 0 { problems.append("frames left on an idle state") }
        if frames.injecting != 0 || frames.inputRef != nil || frames.arguments != nil {
            problems.append("input left on an idle state")
        }
        if failedInjection != nil || hasFailedInjection {
            problems.append("a failed injection left on an idle state")
        }
        if preparations.graphRef != nil { problems.append("graph left on an idle state") }
        if preparations.sharedFloor != -1 || preparations.preparationTop != nil
            || preparations.callerPreparationPending || preparations.reachedUnfinishedAncestor
            || preparations.reachedOuterInstance || preparations.lowestReached != .max
            || preparations.deferralRequested
        {
            problems.append("preparation flags left on an idle state")
        }
        if creation.ownTransaction != nil || creation.hasExtras {
            problems.append("transaction or scope generations left on an idle state")
        }
        if context.outer != nil { problems.append("idle state still nested") }
        return problems
    }

    /// The request scope this lookup runs in, if any.
    var requestScope: RequestScope? { creation.requestScope }
}

// MARK: Scoped changes

extension LookupState {
    /// Nests the lookup in `outer` (a lookup of another table running on this thread, or in this task),
    /// from main-actor code when `onMainActor` is.
    func nest(in outer: Borrowed<LookupState>?, onMainActor: Bool) {
        context.nest(in: outer, onMainActor: onMainActor)
        if let outer { inheritRequestScope(from: outer) }
    }

    /// A lookup of another registry started inside a scoped one runs in the same request scope. Out of
    /// line: most lookups are not nested, and `nest` is on every async lookup's way in.
    @inline(never)
    private func inheritRequestScope(from outer: Borrowed<LookupState>) {
        if let scope = outer.with({ $0.creation.requestScope }) {
            _ = creation.enterRequestScope(scope)
        }
    }

    /// Runs `body` with ``LookupContext/onMainActor`` set when `onMainActor` is (a main-actor caller
    /// joining the lookup), then restores it.
    @inlinable @inline(__always)
    func withOnMainActor<Result>(_ onMainActor: Bool, _ body: () throws -> Result) rethrows -> Result {
        let was = context.joinOnMainActor(onMainActor)
        defer { context.restoreOnMainActor(was) }
        return try body()
    }

    /// Runs `body` with the lookup traced, so that every build in it notes the edge it takes (see
    /// `Resolver.noteTakenEdge`), then restores the flag: the first run of a factory whose registration
    /// declared edges (`Resolver.withEdgesChecked`).
    func withTracing<Result>(_ body: () throws -> Result) rethrows -> Result {
        let was = context.startTracing()
        defer { context.restoreTracing(was) }
        return try body()
    }

    // The scopes a nested level enters are opened and closed by a pair of calls (the opening one returns
    // what the closing one restores) rather than by a closure: in a debug build each closure is a frame of
    // its own per level, and a 64 KiB thread must fit a few levels.

    /// Enters a preparation of the object at `node`, whose lookups are nested at `depth`; pass what it
    /// returns to ``leavePreparation(_:)`` (in a `defer`).
    @inlinable @inline(__always)
    func enterPreparation(of node: Int32, depth: Int) -> EnteredPreparation {
        let (current, outerDepth) = frames.enterPreparation(of: node, depth: depth)
        let preparationTop = preparations.enterPreparation(top: frames.top)
        return EnteredPreparation(current: current, depth: outerDepth, preparationTop: preparationTop)
    }

    /// Leaves the preparation ``enterPreparation(of:depth:)`` entered: restores the frame stack's node,
    /// depth and preparation count, and the queue's preparation frame.
    @inlinable @inline(__always)
    func leavePreparation(_ saved: EnteredPreparation) {
        frames.leavePreparation(current: saved.current, depth: saved.depth)
        preparations.leavePreparation(saved.preparationTop)
    }

    /// Runs `body` with ``PreparationQueue/callerPreparationPending`` set to `pending`, then restores it.
    @inlinable @inline(__always)
    func withCallerPreparation<Result>(pending: Bool, _ body: () throws -> Result) rethrows -> Result {
        let saved = preparations.setCallerPreparationPending(pending)
        defer { _ = preparations.setCallerPreparationPending(saved) }
        return try body()
    }

    /// ``withInput(_:_:)`` for an async lookup's call, which may suspend.
    nonisolated(nonsending) func withInput<Result>(
        _ input: AnyObject?, _ body: nonisolated(nonsending) () async throws -> Result
    ) async rethrows -> Result {
        frames.handInput(input)
        defer {
            frames.handInput(nil)
            withExtendedLifetime(input) {}
        }
        return try await body()
    }

    /// Hands `input` (a configuration or arguments) to the next factory that takes it, for the length of
    /// `body`; whatever no factory took is cleared after. `input` is kept alive by the caller meanwhile.
    @inlinable @inline(__always)
    func withInput<Result>(_ input: AnyObject?, _ body: () throws -> Result) rethrows -> Result {
        frames.handInput(input)
        defer { frames.handInput(nil) }
        return try withExtendedLifetime(input) { try body() }
    }

    /// Hands a lookup's runtime arguments to the next factory that takes them, for the length of `body`,
    /// as ``withInput(_:_:)`` does a configuration; whatever no factory took is cleared after.
    @inlinable @inline(__always)
    func withArguments<Result>(_ handoff: ArgumentHandoff, _ body: () throws -> Result) rethrows -> Result {
        frames.handArguments(handoff)
        defer { frames.handArguments(nil) }
        return try body()
    }

    /// ``withArguments(_:_:)`` for an async lookup, which may suspend.
    nonisolated(nonsending) func withArguments<Result>(
        _ handoff: ArgumentHandoff, _ body: nonisolated(nonsending) () async throws -> Result
    ) async rethrows -> Result {
        frames.handArguments(handoff)
        defer { frames.handArguments(nil) }
        return try await body()
    }

    /// Notes that a claim returned an instance this lookup's transaction has not published (see
    /// ``PreparationQueue/noteReachedGroupInstance(node:nested:)``).
    func noteReachedGroupInstance(node: Int32 = -1) {
        preparations.noteReachedGroupInstance(node: node, nested: context.outer != nil)
    }
}

/// What ``LookupState/enterPreparation(of:depth:)`` changed, for ``LookupState/leavePreparation(_:)``.
@usableFromInline
struct EnteredPreparation {
    @usableFromInline let current: Int32
    @usableFromInline let depth: Int
    @usableFromInline let preparationTop: FrameRef?

    @usableFromInline
    init(current: Int32, depth: Int, preparationTop: FrameRef?) {
        self.current = current
        self.depth = depth
        self.preparationTop = preparationTop
    }
}

/// An ``Injected`` property that failed to resolve, and the address of the frame of the factory that was
/// running (0 outside any factory), only compared, never followed. A class, so that the check after every
/// factory of a lookup with a graph is one load and one comparison.
@usableFromInline
final class FailedInjection {
    let error: any Error
    let frame: UInt

    init(error: any Error, frame: UInt) {
        self.error = error
        self.frame = frame
    }
}

extension LookupState {
    /// The creation transaction of this lookup (or the one it is nested in), if one was made.
    var existingTransaction: CreationTransaction? {
        outermost.creation.ownTransaction
    }
}

extension LookupState {
    /// Places an async factory's frame in the state's frame memory (see ``AsyncFrameSlots``); the caller
    /// pushes it, and pops it with ``popAsyncFrame(_:)`` after it has left the frame stack.
    @usableFromInline
    func pushAsyncFrame(_ frame: Frame) -> FrameRef {
        unsafe FrameRef(asyncFrames.push(frame))
    }

    /// Frees what ``pushAsyncFrame(_:)`` placed, the innermost async frame.
    @usableFromInline
    func popAsyncFrame(_ frame: FrameRef) {
        unsafe asyncFrames.pop(frame.pointer)
    }
}
