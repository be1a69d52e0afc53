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
    // Every part is unchecked: a state belongs to one lookup on one thread (or one task) at a time, and
    // dynamic exclusivity checks on these fields cost more than a transient lookup. A part's fields are
    // written only where its documentation says; code that changes one for a nested call restores it
    // through the scoped calls below (`withOnMainActor`, `withInput`, `withCallerPreparation`, and the
    // enter and leave pairs of a nested level), never through a save and restore of its own.

    /// Where the lookup runs and under which rules: set when it starts, by the door or the async door.
    @exclusivity(unchecked) @usableFromInline fileprivate(set) var context: LookupContext
    /// The factories running in the lookup, innermost on top: pushed and popped by `construct`.
    @exclusivity(unchecked) @usableFromInline fileprivate(set) var frames = FrameStack()
    /// The graph, once the lookup needs one, the preparations queued in it, and the flags a shared build
    /// reads to hold or defer them.
    @exclusivity(unchecked) @usableFromInline fileprivate(set) var preparations = PreparationQueue()
    /// What the lookup shares with other lookups: its creation transaction, the custom-scope generations it
    /// uses, the snapshot its `Lazy`s and `Provider`s read.
    @exclusivity(unchecked) @usableFromInline fileprivate(set) var creation = CreationScope()
    /// An ``Injected`` property that failed to resolve, with the frame of the factory that was running:
    /// that factory's lookup fails with it once the factory returns, or the lookup does when it finishes.
    /// Set by `recordFailedInjection`, which also starts the graph, so that only the branch after a factory
    /// that a graph already sends slow (`graphRef != nil`) looks at it. Here rather than in `FrameStack`,
    /// which stays a plain value: a reference in it made each copy of the frames retain.
    @exclusivity(unchecked) fileprivate(set) var failedInjection: FailedInjection?
    /// Whether `failedInjection` is set: what the engine's hot branches test, as a plain load (testing the
    /// reference itself retained and released it).
    @exclusivity(unchecked) @usableFromInline fileprivate(set) var hasFailedInjection = false

    private init(tableRef: Borrowed<SealedTable>, stackRange: StackRange, isAsync: Bool) {
        unsafe context = LookupContext(tableRef: tableRef, stackRange: stackRange, isAsync: isAsync)
    }

    /// The one place a lookup state is made: a thread's primary or nested state
    /// (``ThreadContext/beginSlow(_:onMainActor:)``), or an async lookup's, which moves with its task
    /// (``Resolver/beginAsync(in:of:reporting:onMainActor:)``). `tracing`: whether a trace handler sees it.
    static func make(_ tableRef: Borrowed<SealedTable>, stackRange: StackRange, tracing: Bool, isAsync: Bool)
        -> LookupState
    {
        let made = unsafe LookupState(tableRef: tableRef, stackRange: stackRange, isAsync: isAsync)
        unsafe made.context.tracing = tracing
        return made
    }

    deinit {
        unsafe preparations.graphRef?.release()
        unsafe preparations.spareGraph?.release()
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
        unsafe context.tableRef = tableRef
        unsafe context.stackRange = stackRange
        unsafe context.tracing = tracing
        unsafe context.maxDepth = tableRef.with { $0.maxDepth }
    }

    /// The table, for the paths that are not hot.
    var table: SealedTable { unsafe context.tableRef.object }

    /// The outermost lookup this one is nested in on this thread (itself when it is not nested).
    var outermost: LookupState {
        var root = self
        while let outer = unsafe root.context.outer?.object { root = outer }
        return root
    }

    /// The transaction shared by this lookup and the lookups it is nested in on this thread.
    var transaction: CreationTransaction {
        let root = outermost
        if let made = unsafe root.creation.ownTransaction { return made }
        let made = CreationTransaction(isAsync: unsafe root.context.isAsync)
        unsafe root.creation.ownTransaction = made
        return made
    }

    /// The graph, if this lookup has one.
    @usableFromInline var graph: ResolutionGraph? { unsafe preparations.graphRef?.object }

    /// Makes the graph, turning the frames of the running factories into its first nodes.
    @usableFromInline
    func startGraph() {
        let takenRef = unsafe preparations.spareGraph ?? Borrowed.retained(ResolutionGraph())
        unsafe preparations.spareGraph = nil
        unsafe preparations.graphRef = takenRef
        // The common case: the graph starts before any factory runs.
        guard unsafe frames.top != nil else { return }
        let taken = unsafe takenRef.object
        var running: [UnsafeMutablePointer<Frame>] = unsafe []
        var cursor = unsafe frames.top
        while let frame = unsafe cursor {
            unsafe running.append(frame)
            unsafe cursor = unsafe frame.pointee.parent
        }
        var parent = unsafe frames.current
        // Outermost first; by index, as a `for` over pointers would need `for unsafe`, which the formatter
        // does not keep apart.
        for index in unsafe running.indices.reversed() {
            let frame = unsafe running[index]
            unsafe frame.pointee.node = unsafe taken.push(frame.pointee.entry, parent: parent)
            parent = unsafe frame.pointee.node
        }
        unsafe frames.current = parent
    }

    /// Records that an ``Injected`` property failed to resolve while the innermost factory (if any) runs,
    /// keeping the first failure. The graph is started so that the factory's return takes the branch that
    /// checks for it (see `Resolver.runFactory`), and so that the lookup's finish does.
    func recordFailedInjection(_ error: any Error) {
        if unsafe failedInjection == nil {
            unsafe failedInjection = FailedInjection(error: error, frame: UInt(bitPattern: frames.top))
            unsafe hasFailedInjection = true
        }
        if unsafe preparations.graphRef == nil { startGraph() }
    }

    /// Takes the recorded failure of an ``Injected`` property if it belongs to the factory in `frame`
    /// (nil: any, when the lookup finishes). `frame`'s address is only compared with the one recorded,
    /// never followed, so a frame that has since been popped cannot be read through it.
    @usableFromInline
    func takeFailedInjection(in frame: UnsafeMutablePointer<Frame>?) -> (any Error)? {
        guard let failed = unsafe failedInjection else { return nil }
        if let frame = unsafe frame, failed.frame != UInt(bitPattern: frame) { return nil }
        unsafe failedInjection = nil
        unsafe hasFailedInjection = false
        return failed.error
    }

    /// Whether the lookup has anything to run when it ends: a graph (queued preparations) or a claim.
    @inlinable
    var needsFinishing: Bool {
        unsafe preparations.graphRef != nil || creation.ownTransaction != nil
    }

    /// Whether the lookup left nothing to clear: it made no graph, claimed nothing and used no custom scope
    /// (its frames, depth and input were restored on the way out).
    @inlinable
    var isClean: Bool {
        unsafe preparations.graphRef == nil && creation.ownTransaction == nil && !creation.hasExtras
    }

    /// Empties the state after its lookup ended, keeping a small graph's storage for the next one.
    func reset() {
        unsafe context.outer = nil
        guard !isClean else { return }
        if let snapshot = unsafe creation.snapshot {
            // The Lazys and Providers this lookup made keep its graph-scoped instances, weakly.
            if let graph { snapshot.capture(from: graph) }
        }
        if let graphRef = unsafe preparations.graphRef {
            let keep = unsafe graphRef.with { graph in
                graph.reset()
                return graph.isWorthKeeping
            }
            if unsafe keep && preparations.spareGraph == nil {
                unsafe preparations.spareGraph = graphRef
            } else {
                unsafe graphRef.release()
            }
            unsafe preparations.graphRef = nil
        }
        unsafe frames = FrameStack()
        if unsafe hasFailedInjection {
            unsafe failedInjection = nil
            unsafe hasFailedInjection = false
        }
        unsafe preparations.reset()
        if unsafe creation.hasExtras {
            for seen in unsafe creation.scopeGenerations { seen.scope.leave(seen.generation) }
        }
        unsafe creation.reset()
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
        var cursor = unsafe frames.top
        while let frame = unsafe cursor {
            depth += 1
            unsafe cursor = unsafe frame.pointee.parent
        }
        if unsafe depth != frames.depth, unsafe frames.top != nil || frames.depth != 0 {
            problems.append("depth \(unsafe frames.depth) but \(depth) frames")
        }
        if unsafe frames.injecting < 0 { problems.append("negative preparation count") }
        if let graph {
            if unsafe Int(frames.current) >= graph.nodes.count {
                problems.append("current node \(unsafe frames.current) outside the graph")
            }
        } else if unsafe frames.current != -1 {
            problems.append("current node \(unsafe frames.current) without a graph")
        }
        if unsafe !creation.hasExtras && (!creation.scopeGenerations.isEmpty || creation.snapshot != nil) {
            problems.append("scope generations or a snapshot not flagged")
        }
        guard idle else { return problems }
        if unsafe frames.top != nil || frames.depth != 0 { problems.append("frames left on an idle state") }
        if unsafe frames.injecting != 0 || frames.inputRef != nil { problems.append("input left on an idle state") }
        if unsafe failedInjection != nil || hasFailedInjection {
            problems.append("a failed injection left on an idle state")
        }
        if unsafe preparations.graphRef != nil { problems.append("graph left on an idle state") }
        if unsafe preparations.sharedFloor != -1 || preparations.preparationTop != nil
            || preparations.callerPreparationPending || preparations.reachedUnfinishedAncestor
            || preparations.reachedOuterInstance
            || preparations.deferralRequested
        {
            problems.append("preparation flags left on an idle state")
        }
        if unsafe creation.ownTransaction != nil || creation.hasExtras {
            problems.append("transaction or scope generations left on an idle state")
        }
        if unsafe context.outer != nil { problems.append("idle state still nested") }
        return problems
    }

    /// This lookup's own cell for a custom-scoped registration whose scope was reset meanwhile.
    func detachedCell<Value>(for entry: Entry<Value>) -> SharedCell<Value> {
        let id = ObjectIdentifier(entry)
        for held in unsafe creation.detachedCells where held.entry == id {
            if let cell = held.cell as? SharedCell<Value> { return cell }
        }
        let made = SharedCell<Value>()
        unsafe creation.detachedCells.append((id, made))
        unsafe creation.hasExtras = true
        return made
    }

    /// The generation of `scope` this lookup uses: the one it saw first.
    func generation(of scope: CustomScope) -> Int {
        for seen in unsafe creation.scopeGenerations where seen.scope === scope { return seen.generation }
        let now = scope.enter()
        unsafe creation.scopeGenerations.append((scope, now))
        unsafe creation.hasExtras = true
        return now
    }
}

// MARK: Scoped changes

extension LookupState {
    /// Runs `body` with ``LookupContext/onMainActor`` set when `onMainActor` is (a main-actor caller
    /// joining the lookup), then restores it.
    @inlinable @inline(__always)
    func withOnMainActor<Result>(_ onMainActor: Bool, _ body: () throws -> Result) rethrows -> Result {
        let was = unsafe context.onMainActor
        if onMainActor { unsafe context.onMainActor = true }
        defer { unsafe context.onMainActor = was }
        return try body()
    }

    /// Runs `body` with the lookup traced, so that every build in it notes the edge it takes (see
    /// `Resolver.noteTakenEdge`), then restores the flag: the first run of a factory whose registration
    /// declared edges (`Resolver.withEdgesChecked`).
    func withTracing<Result>(_ body: () throws -> Result) rethrows -> Result {
        let was = unsafe context.tracing
        unsafe context.tracing = true
        defer { unsafe context.tracing = was }
        return try body()
    }

    // The three scopes a nested level enters are opened and closed by a pair of calls (the opening one
    // returns what the closing one restores) rather than by a closure: in a debug build each closure is
    // a frame of its own per level, and a 64 KiB thread must fit a few levels.

    /// Enters a preparation of the object at `node`, whose lookups are nested at `depth`; pass what it
    /// returns to ``leavePreparation(_:)`` (in a `defer`).
    @inlinable @inline(__always)
    func enterPreparation(of node: Int32, depth: Int) -> EnteredPreparation {
        let saved = unsafe EnteredPreparation(
            current: frames.current, depth: frames.depth, preparationTop: preparations.preparationTop)
        unsafe frames.current = node
        unsafe frames.depth = depth
        unsafe frames.injecting += 1
        unsafe preparations.preparationTop = unsafe frames.top
        return saved
    }

    /// Leaves the preparation ``enterPreparation(of:depth:)`` entered: restores the frame stack's node,
    /// depth and preparation count, and the queue's preparation frame.
    @inlinable @inline(__always)
    func leavePreparation(_ saved: EnteredPreparation) {
        unsafe frames.current = saved.current
        unsafe frames.depth = saved.depth
        unsafe frames.injecting -= 1
        unsafe preparations.preparationTop = unsafe saved.preparationTop
    }

    /// Enters the preparations of a shared instance whose node is `node`; pass what it returns to
    /// ``leaveSharedFloor(_:)``.
    @inlinable @inline(__always)
    func enterSharedFloor(_ node: Int32) -> Int32 {
        let saved = unsafe preparations.sharedFloor
        unsafe preparations.sharedFloor = node
        return saved
    }

    /// Leaves what ``enterSharedFloor(_:)`` entered.
    @inlinable @inline(__always)
    func leaveSharedFloor(_ saved: Int32) {
        unsafe preparations.sharedFloor = saved
    }

    /// Enters the build of a shared instance: clears ``PreparationQueue/reachedUnfinishedAncestor`` and
    /// ``PreparationQueue/reachedOuterInstance`` and returns the enclosing build's flags, for
    /// ``leaveUnfinishedScope(_:failed:alsoUnfinished:)``.
    @inlinable @inline(__always)
    func enterUnfinishedScope() -> UnfinishedReach {
        let outer = unsafe UnfinishedReach(
            ancestor: preparations.reachedUnfinishedAncestor, outerInstance: preparations.reachedOuterInstance)
        unsafe preparations.reachedUnfinishedAncestor = false
        unsafe preparations.reachedOuterInstance = false
        return outer
    }

    /// Leaves the build ``enterUnfinishedScope()`` entered and returns what it reached. The flags become
    /// the enclosing build's again, or-ed, when the build did not fail, with what it reached and
    /// `alsoUnfinished` (an instance that is unfinished makes the builds around it unfinished too).
    @inlinable @inline(__always)
    @discardableResult
    func leaveUnfinishedScope(_ outer: UnfinishedReach, failed: Bool, alsoUnfinished: Bool = false)
        -> UnfinishedReach
    {
        let reached = unsafe UnfinishedReach(
            ancestor: preparations.reachedUnfinishedAncestor, outerInstance: preparations.reachedOuterInstance)
        unsafe preparations.reachedUnfinishedAncestor =
            outer.ancestor || (!failed && (reached.ancestor || alsoUnfinished))
        unsafe preparations.reachedOuterInstance = outer.outerInstance || (!failed && reached.outerInstance)
        return reached
    }

    /// Runs `body` with ``PreparationQueue/callerPreparationPending`` set to `pending`, then restores it.
    @inlinable @inline(__always)
    func withCallerPreparation<Result>(pending: Bool, _ body: () throws -> Result) rethrows -> Result {
        let saved = unsafe preparations.callerPreparationPending
        unsafe preparations.callerPreparationPending = pending
        defer { unsafe preparations.callerPreparationPending = saved }
        return try body()
    }

    /// ``withInput(_:_:)`` for an async lookup's call, which may suspend.
    nonisolated(nonsending) func withInput<Result>(
        _ input: AnyObject?, _ body: nonisolated(nonsending) () async throws -> Result
    ) async rethrows -> Result {
        unsafe frames.inputRef = input.map { unsafe Borrowed($0) }
        defer {
            unsafe frames.inputRef = nil
            withExtendedLifetime(input) {}
        }
        return try await body()
    }

    /// Hands `input` (a configuration or arguments) to the next factory that takes it, for the length of
    /// `body`; whatever no factory took is cleared after. `input` is kept alive by the caller meanwhile.
    @inlinable @inline(__always)
    func withInput<Result>(_ input: AnyObject?, _ body: () throws -> Result) rethrows -> Result {
        unsafe frames.inputRef = input.map { unsafe Borrowed($0) }
        defer { unsafe frames.inputRef = nil }
        return try withExtendedLifetime(input) { try body() }
    }
}

// MARK: The parts' operations
//
// Every part's fields are `fileprivate(set)`: only this file writes them, through the operations below
// (the compiler refuses a write from any other file). Other files read the fields and call these.

extension LookupState {
    /// Sets the context up for a lookup of `tableRef` starting on an idle thread (see
    /// ``LookupContext/start(_:onMainActor:tracing:)``).
    @inlinable @inline(__always)
    func start(_ tableRef: Borrowed<SealedTable>, onMainActor: Bool, tracing: Bool) {
        unsafe context.start(tableRef, onMainActor: onMainActor, tracing: tracing)
    }

    /// Nests the lookup in `outer` (a lookup of another table running on this thread, or in this task),
    /// from main-actor code when `onMainActor` is.
    func nest(in outer: Borrowed<LookupState>?, onMainActor: Bool) {
        unsafe context.outer = outer
        unsafe context.onMainActor = onMainActor
    }

    /// Marks the lookup as joined from main-actor code when `onMainActor` is, returning the flag it had, for
    /// ``restoreOnMainActor(_:)``.
    func joinOnMainActor(_ onMainActor: Bool) -> Bool {
        let was = unsafe context.onMainActor
        if onMainActor { unsafe context.onMainActor = true }
        return was
    }

    /// Restores what ``joinOnMainActor(_:)`` changed.
    func restoreOnMainActor(_ was: Bool) {
        unsafe context.onMainActor = was
    }

    /// Measures the depth guard against `range`, the stack of the thread the lookup runs on now (an async
    /// lookup moves between threads).
    @inlinable @inline(__always)
    func measureStack(_ range: StackRange) {
        unsafe context.stackRange = range
    }

    /// Pushes the first factory's frame of a lookup (no enclosing frame, no node).
    @inlinable @inline(__always)
    func enterFirstFrame(_ frame: UnsafeMutablePointer<Frame>) {
        unsafe frames.top = unsafe frame
        unsafe frames.depth = 1
    }

    /// Pops what ``enterFirstFrame(_:)`` pushed.
    @inlinable @inline(__always)
    func leaveFirstFrame() {
        unsafe frames.top = nil
        unsafe frames.current = -1
        unsafe frames.depth = 0
    }

    /// Pushes a factory's frame (and its node, when a graph exists); returns the node to restore after.
    @inlinable @inline(__always)
    func enterFrame(_ frame: UnsafeMutablePointer<Frame>) -> Int32 {
        let parentNode = unsafe frames.current
        if let graphRef = unsafe preparations.graphRef {
            unsafe frame.pointee.node = graphRef.with { unsafe $0.push(frame.pointee.entry, parent: parentNode) }
            unsafe frames.current = unsafe frame.pointee.node
        }
        unsafe frames.top = unsafe frame
        unsafe frames.depth &+= 1
        return parentNode
    }

    /// Pops a factory's frame pushed by ``enterFrame(_:)`` or ``enterPlainFrame(_:)``.
    @inlinable @inline(__always)
    func leaveFrame(_ frame: UnsafeMutablePointer<Frame>, parentNode: Int32) {
        let outerTop = unsafe frame.pointee.parent
        unsafe frames.top = unsafe outerTop
        // A graph started inside the factory gave the enclosing frame a node of its own.
        if let outer = unsafe outerTop, unsafe outer.pointee.node >= 0 {
            unsafe frames.current = unsafe outer.pointee.node
        } else {
            unsafe frames.current = parentNode
        }
        unsafe frames.depth &-= 1
    }

    /// Pushes the frame of a factory that starts with no graph (see `Resolver.constructPlain`): no node;
    /// returns the node to restore after.
    @inlinable @inline(__always)
    func enterPlainFrame(_ frame: UnsafeMutablePointer<Frame>) -> Int32 {
        unsafe frames.top = unsafe frame
        unsafe frames.depth &+= 1
        return unsafe frames.current
    }

    /// Pops what ``enterPlainFrame(_:)`` pushed when still no graph exists: nothing else to restore.
    @inlinable @inline(__always)
    func leavePlainFrame(restoring outerTop: UnsafeMutablePointer<Frame>?, parentNode: Int32) {
        unsafe frames.top = unsafe outerTop
        unsafe frames.current = parentNode
        unsafe frames.depth &-= 1
    }

    /// Counts a factory that returned, for the trace.
    @inlinable @inline(__always)
    func noteConstructed(_ entry: AnyEntry) {
        unsafe frames.constructions &+= 1
        unsafe frames.lastConstructed = ObjectIdentifier(entry)
    }

    /// Takes the configuration or arguments handed to the factory that is starting: no later factory
    /// gets them.
    func takeInput() -> AnyObject? {
        let taken = unsafe frames.inputRef?.object
        unsafe frames.inputRef = nil
        return taken
    }

    /// Notes that a build returned an ancestor still being built or prepared (see
    /// ``PreparationQueue/reachedUnfinishedAncestor``).
    @inlinable @inline(__always)
    func noteReachedUnfinishedAncestor() {
        unsafe preparations.reachedUnfinishedAncestor = true
    }

    /// Notes that a claim returned an instance this lookup's transaction has not published: built by this
    /// lookup, by a group-mate, or by a lookup this one is nested in, it may not be prepared yet. What is
    /// built around it is held like what reaches an unfinished ancestor, and in a nested lookup for the
    /// outermost lookup's end (``PreparationQueue/reachedOuterInstance``).
    func noteReachedGroupInstance() {
        unsafe preparations.reachedUnfinishedAncestor = true
        if unsafe context.outer != nil { unsafe preparations.reachedOuterInstance = true }
    }

    /// Whether this lookup, nested in another, reached an instance its outer lookups have not published:
    /// then what the outer lookup builds around what this one returns is held too.
    var reachedOuterInstance: Bool { unsafe preparations.reachedOuterInstance }

    /// Asks the enclosing drain to run the running preparation again later (see
    /// ``PreparationQueue/deferralRequested``).
    func requestDeferral() {
        unsafe preparations.deferralRequested = true
    }

    /// Clears the deferral request, returning whether one was made.
    @discardableResult
    func clearDeferralRequest() -> Bool {
        let requested = unsafe preparations.deferralRequested
        unsafe preparations.deferralRequested = false
        return requested
    }

    /// Notes that the top-level drain has run `count` pending preparations to completion.
    func noteCompleted(_ count: Int) {
        unsafe preparations.completed = count
    }

    /// The snapshot the `Lazy`s and `Provider`s made in this lookup share, made on first use.
    var snapshotForDeferredLookups: GraphSnapshot {
        if let snapshot = unsafe creation.snapshot { return snapshot }
        let made = GraphSnapshot()
        unsafe creation.snapshot = made
        unsafe creation.hasExtras = true
        return made
    }
}

/// What a shared build reached that is not finished (see ``LookupState/enterUnfinishedScope()``).
@usableFromInline @frozen
struct UnfinishedReach {
    /// An ancestor still being built or prepared, or an unpublished instance of the lookup's transaction.
    @usableFromInline let ancestor: Bool
    /// In a nested lookup: an unpublished instance of the transaction it shares with its outer lookups.
    @usableFromInline let outerInstance: Bool

    @usableFromInline @inline(__always)
    init(ancestor: Bool, outerInstance: Bool) {
        self.ancestor = ancestor
        self.outerInstance = outerInstance
    }
}

/// What ``LookupState/enterPreparation(of:depth:)`` changed, for ``LookupState/leavePreparation(_:)``.
// @safe: `preparationTop` is a frame of the lookup's `FrameStack`, restored while that frame still runs.
@usableFromInline @safe
struct EnteredPreparation {
    @usableFromInline let current: Int32
    @usableFromInline let depth: Int
    @usableFromInline let preparationTop: UnsafeMutablePointer<Frame>?

    @usableFromInline
    init(current: Int32, depth: Int, preparationTop: UnsafeMutablePointer<Frame>?) {
        self.current = current
        self.depth = depth
        unsafe self.preparationTop = preparationTop
    }
}

// MARK: The parts

/// Where a lookup runs and under which rules.
// @safe: `tableRef` and `outer` follow `Borrowed`'s invariant: the registry call (or `Lazy`, `Provider`)
// that started the lookup keeps the table alive; the thread's context keeps every running state alive.
@usableFromInline @safe
struct LookupContext {
    /// The table the lookup reads.
    @usableFromInline fileprivate(set) var tableRef: Borrowed<SealedTable>
    /// The deepest nesting allowed, copied from the table so the hot path does not reach for it.
    @usableFromInline fileprivate(set) var maxDepth: Int
    /// Whether a trace handler was installed when the lookup started (and no handler is running).
    @usableFromInline fileprivate(set) var tracing: Bool
    /// Below this stack address a nested build fails with `resolutionTooDeep` (see ``ThreadContext``).
    @usableFromInline fileprivate(set) var stackRange: StackRange
    /// Whether the code that started (or joined) this lookup is isolated to the main actor, as the compiler
    /// proved through `#isolation`: main-actor factories may run in it, synchronously, on this thread. A
    /// lookup nested in such a lookup on the same thread inherits it.
    @usableFromInline fileprivate(set) var onMainActor = false
    /// The lookup this one is nested in on the same thread (or in the same task), if any.
    @usableFromInline fileprivate(set) var outer: Borrowed<LookupState>?
    /// Whether the lookup is async (its state moves with its task between threads).
    @usableFromInline let isAsync: Bool

    init(tableRef: Borrowed<SealedTable>, stackRange: StackRange, isAsync: Bool) {
        unsafe self.tableRef = tableRef
        self.stackRange = stackRange
        self.isAsync = isAsync
        unsafe (maxDepth, tracing) = tableRef.with { ($0.maxDepth, $0.isTracing) }
    }

    /// Sets the context up for a lookup of `tableRef` starting on an idle thread (nothing running, no
    /// handler being called), from main-actor code when `onMainActor` is, traced when `tracing` is (the
    /// caller knows: the plain transient's fast case runs only untraced, so it reads no flag).
    @inlinable @inline(__always)
    mutating func start(_ tableRef: Borrowed<SealedTable>, onMainActor: Bool, tracing: Bool) {
        unsafe self.tableRef = tableRef
        unsafe maxDepth = tableRef.with { $0.maxDepth }
        self.tracing = tracing
        self.onMainActor = onMainActor
    }
}

/// The factories running in a lookup, innermost on top, and what the running one is handed.
// @safe: `top` points at frames on the call stack (or, in an async lookup, on the heap) that are pushed
// and popped by `construct` in strict nesting, so it never outlives the frame it points at; `inputRef`
// is kept alive by whoever sets it until it is cleared (`LookupState.withInput`).
@usableFromInline @safe
struct FrameStack {
    /// The innermost running factory's frame.
    @usableFromInline fileprivate(set) var top: UnsafeMutablePointer<Frame>?
    /// How many frames are running.
    @usableFromInline fileprivate(set) var depth = 0
    /// The node of the object being built or prepared, -1 when none is recorded.
    @usableFromInline fileprivate(set) var current: Int32 = -1
    /// Greater than zero while a preparation (property injection) runs.
    @usableFromInline fileprivate(set) var injecting = 0
    /// The configuration or the arguments handed to the next factory that takes them, unretained.
    @usableFromInline fileprivate(set) var inputRef: Borrowed<AnyObject>?
    /// How many factories have returned, and the last one's registration (for the trace).
    @usableFromInline fileprivate(set) var constructions = 0
    @usableFromInline fileprivate(set) var lastConstructed: ObjectIdentifier?

    @usableFromInline init() {}
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

/// One running factory, kept on the call stack: the chain of frames is the lookup's path while no
/// graph exists, and becomes the graph's first nodes when one is made.
///
/// Its address is taken with `_withUnprotectedUnsafeMutablePointer`, which skips the stack protector:
/// a frame is a fixed-size value written only through its fields (never as a buffer, never past its
/// end), so the canary check, about 6 instructions per nesting level, would guard nothing.
@usableFromInline @unsafe
struct Frame {
    /// Unretained: the table keeps the entry alive for longer than the lookup.
    @usableFromInline let entry: Borrowed<AnyEntry>
    @usableFromInline let parent: UnsafeMutablePointer<Frame>?
    /// The frame's node once the graph exists, else -1.
    @usableFromInline fileprivate(set) var node: Int32

    @inlinable
    init(entry: AnyEntry, parent: UnsafeMutablePointer<Frame>?, node: Int32) {
        unsafe self.entry = unsafe Borrowed(entry)
        unsafe self.parent = unsafe parent
        unsafe self.node = node
    }
}

/// The graph of a lookup that needs one, and what its preparations need to know.
// @safe: `graphRef` and `spareGraph` are owned (+1) by the state and released once; `preparationTop`
// points at a frame of `FrameStack` while it runs (see there).
@usableFromInline @safe
struct PreparationQueue {
    /// The graph, once the lookup needs one; owned (+1) by the state. Borrowed, so that reading it on the
    /// hot path writes no reference count.
    @usableFromInline fileprivate(set) var graphRef: Borrowed<ResolutionGraph>?
    /// An emptied graph (+1) kept for the next lookup that needs one.
    fileprivate(set) var spareGraph: Borrowed<ResolutionGraph>?
    /// While a shared instance's preparations run: its node. An unbuilt ancestor below it (built by an
    /// enclosing factory) defers the preparation instead of failing.
    @usableFromInline fileprivate(set) var sharedFloor: Int32 = -1
    /// The innermost factory frame when the running preparation started: a build requested while `top` is
    /// still this frame comes from the preparation itself, not from a factory it started.
    @usableFromInline fileprivate(set) var preparationTop: UnsafeMutablePointer<Frame>?
    /// While a lookup with a caller's preparation builds its object inside a preparation: the object's own
    /// preparations must wait for the caller's, which runs first.
    @usableFromInline fileprivate(set) var callerPreparationPending = false
    /// Set when a build returns an ancestor that is still being built or prepared (a cycle closed by a
    /// property edge). A shared instance whose preparation did so is held until the lookup ends: published
    /// earlier, another thread could reach the ancestor before its preparation has run.
    @usableFromInline fileprivate(set) var reachedUnfinishedAncestor = false
    /// In a nested lookup: set when a build reached an instance of the shared transaction that this lookup
    /// did not build (an outer lookup's, possibly not prepared yet). A shared instance built around it is
    /// held until the outermost lookup ends, not this one.
    @usableFromInline fileprivate(set) var reachedOuterInstance = false
    /// Set when a preparation asked for an object an enclosing factory is still building: the preparation
    /// moves to the enclosing lookup's queue. A flag the engine reads after the preparation returns, not
    /// the error it throws, decides: user code that swallows the error (`try?`) cannot cancel the move.
    @usableFromInline fileprivate(set) var deferralRequested = false
    /// How many pending preparations the top-level drain has run to completion.
    fileprivate(set) var completed = 0

    @usableFromInline init() {}

    /// Clears everything but the graphs, which the state hands on or releases itself.
    mutating func reset() {
        sharedFloor = -1
        unsafe preparationTop = nil
        callerPreparationPending = false
        reachedUnfinishedAncestor = false
        reachedOuterInstance = false
        deferralRequested = false
        completed = 0
    }
}

/// What a lookup shares with other lookups.
@usableFromInline
struct CreationScope {
    /// The creation transaction, made when the lookup first claims a shared instance. A lookup nested in
    /// another shares the outer one's, so that it never waits for itself.
    @usableFromInline fileprivate(set) var ownTransaction: CreationTransaction?
    /// For each custom scope this lookup used, the scope generation it saw first: a lookup keeps using
    /// that generation even if the scope is reset meanwhile, so it never mixes old and new instances.
    /// Each is counted as a user of its generation until the lookup ends (``CustomScope/enter()``).
    fileprivate(set) var scopeGenerations: [(scope: CustomScope, generation: Int)] = []
    /// Cells for custom-scoped registrations whose scope was reset after this lookup first used it.
    fileprivate(set) var detachedCells: [(entry: ObjectIdentifier, cell: AnyObject)] = []
    /// The snapshot of this lookup's graph-scoped instances, for the `Lazy`s and `Provider`s made in it.
    fileprivate(set) var snapshot: GraphSnapshot?
    /// Whether `scopeGenerations`, `detachedCells` or `snapshot` has anything (one flag, cheaper to test
    /// than each of them).
    @usableFromInline fileprivate(set) var hasExtras = false

    @usableFromInline init() {}

    /// Forgets everything; the caller has left the scope generations.
    mutating func reset() {
        ownTransaction = nil
        guard hasExtras else { return }
        scopeGenerations.removeAll(keepingCapacity: true)
        detachedCells.removeAll()
        snapshot = nil
        hasExtras = false
    }
}

extension LookupState {
    /// The creation transaction of this lookup (or the one it is nested in), if one was made.
    var existingTransaction: CreationTransaction? {
        unsafe outermost.creation.ownTransaction
    }
}
