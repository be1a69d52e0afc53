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
/// overlap.** It holds because a state belongs to one lookup on one thread (or one task) at a time, every
/// part is `fileprivate(set)`, so every write and every mutating call is in this file, and none of them
/// runs code that could reach the state (user code, a lookup) while the access lasts: they call no user
/// code, and what a reset drops that may hold user objects (a failed injection's error, detached cells,
/// the snapshot) is moved out of the part first and released after the access. Reads from other files are
/// instantaneous copies, which cannot overlap a write on the same thread. The frames it points at follow
/// ``FrameRef``'s invariant; its graph is held (+1) and released once, here.
@usableFromInline @safe
final class LookupState {
    // A part's fields are written only where its documentation says; code that changes one for a nested
    // call restores it through the scoped calls below (`withOnMainActor`, `withInput`,
    // `withCallerPreparation`, and the enter and leave pairs of a nested level), never through a save and
    // restore of its own.

    /// Where the lookup runs and under which rules: set when it starts, by the door or the async door.
    @safe @exclusivity(unchecked) @usableFromInline fileprivate(set) var context: LookupContext
    /// The factories running in the lookup, innermost on top: pushed and popped by `construct`.
    @safe @exclusivity(unchecked) @usableFromInline fileprivate(set) var frames = FrameStack()
    /// The graph, once the lookup needs one, the preparations queued in it, and the flags a shared build
    /// reads to hold or defer them.
    @safe @exclusivity(unchecked) @usableFromInline fileprivate(set) var preparations = PreparationQueue()
    /// What the lookup shares with other lookups: its creation transaction, the custom-scope generations it
    /// uses, the snapshot its `Lazy`s and `Provider`s read.
    @safe @exclusivity(unchecked) @usableFromInline fileprivate(set) var creation = CreationScope()
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

    private init(tableRef: Borrowed<SealedTable>, stackRange: StackRange, isAsync: Bool) {
        context = LookupContext(tableRef: tableRef, stackRange: stackRange, isAsync: isAsync)
    }

    /// The one place a lookup state is made: a thread's primary or nested state
    /// (``ThreadContext/beginSlow(_:onMainActor:)``), or an async lookup's, which moves with its task
    /// (``Resolver/beginAsync(in:of:reporting:onMainActor:)``). `tracing`: whether a trace handler sees it.
    static func make(_ tableRef: Borrowed<SealedTable>, stackRange: StackRange, tracing: Bool, isAsync: Bool)
        -> LookupState
    {
        let made = LookupState(tableRef: tableRef, stackRange: stackRange, isAsync: isAsync)
        made.context.tracing = tracing
        return made
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
        context.tableRef = tableRef
        context.stackRange = stackRange
        context.tracing = tracing
        context.maxDepth = tableRef.with { $0.maxDepth }
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
        if let made = root.creation.ownTransaction { return made }
        let made = CreationTransaction(isAsync: root.context.isAsync)
        root.creation.ownTransaction = made
        return made
    }

    /// The graph, if this lookup has one.
    @usableFromInline var graph: ResolutionGraph? { preparations.graphRef?.object }

    /// Makes the graph, turning the frames of the running factories into its first nodes.
    @usableFromInline
    func startGraph() {
        let takenRef = unsafe preparations.spareGraph ?? Borrowed.retained(ResolutionGraph())
        preparations.spareGraph = nil
        preparations.graphRef = takenRef
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
        frames.current = parent
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
        context.outer = nil
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
            if keep && preparations.spareGraph == nil {
                preparations.spareGraph = graphRef
            } else {
                unsafe graphRef.release()
            }
            preparations.graphRef = nil
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

    /// This lookup's own cell for a custom-scoped registration whose scope was reset meanwhile.
    func detachedCell<Value>(for entry: Entry<Value>) -> SharedCell<Value> {
        let id = ObjectIdentifier(entry)
        for held in creation.detachedCells where held.entry == id {
            if let cell = held.cell as? SharedCell<Value> { return cell }
        }
        let made = SharedCell<Value>()
        creation.detachedCells.append((id, made))
        creation.hasExtras = true
        return made
    }

    /// The request scope this lookup runs in, if any.
    var requestScope: RequestScope? { creation.requestScope }

    /// Makes the lookup run in `scope`. A lookup that ran in none keeps it until it ends (a scoped call
    /// joined from a factory of an unscoped lookup makes the rest of that lookup scoped, so that the
    /// preparations it queued see the scope when the lookup drains them); one that ran in another gets it
    /// back through ``leaveRequestScope(_:)`` with what this returns.
    @usableFromInline
    func enterRequestScope(_ scope: RequestScope) -> RequestScope? {
        let previous = creation.requestScope
        if previous === scope { return nil }
        creation.requestScope = scope
        creation.hasExtras = true
        return previous
    }

    /// Gives back the request scope ``enterRequestScope(_:)`` replaced, if it replaced one.
    @usableFromInline
    func leaveRequestScope(_ previous: RequestScope?) {
        guard let previous else { return }
        creation.requestScope = previous
        creation.hasExtras = true
    }

    /// The generation of `scope` this lookup uses: the one it saw first.
    func generation(of scope: CustomScope) -> Int {
        for seen in creation.scopeGenerations where seen.scope === scope { return seen.generation }
        let now = scope.enter()
        creation.scopeGenerations.append((scope, now))
        creation.hasExtras = true
        return now
    }
}

// MARK: Scoped changes

extension LookupState {
    /// Runs `body` with ``LookupContext/onMainActor`` set when `onMainActor` is (a main-actor caller
    /// joining the lookup), then restores it.
    @inlinable @inline(__always)
    func withOnMainActor<Result>(_ onMainActor: Bool, _ body: () throws -> Result) rethrows -> Result {
        let was = context.onMainActor
        if onMainActor { context.onMainActor = true }
        defer { context.onMainActor = was }
        return try body()
    }

    /// Runs `body` with the lookup traced, so that every build in it notes the edge it takes (see
    /// `Resolver.noteTakenEdge`), then restores the flag: the first run of a factory whose registration
    /// declared edges (`Resolver.withEdgesChecked`).
    func withTracing<Result>(_ body: () throws -> Result) rethrows -> Result {
        let was = context.tracing
        context.tracing = true
        defer { context.tracing = was }
        return try body()
    }

    // The three scopes a nested level enters are opened and closed by a pair of calls (the opening one
    // returns what the closing one restores) rather than by a closure: in a debug build each closure is
    // a frame of its own per level, and a 64 KiB thread must fit a few levels.

    /// Enters a preparation of the object at `node`, whose lookups are nested at `depth`; pass what it
    /// returns to ``leavePreparation(_:)`` (in a `defer`).
    @inlinable @inline(__always)
    func enterPreparation(of node: Int32, depth: Int) -> EnteredPreparation {
        let saved = EnteredPreparation(
            current: frames.current, depth: frames.depth, preparationTop: preparations.preparationTop)
        frames.current = node
        frames.depth = depth
        frames.injecting += 1
        preparations.preparationTop = frames.top
        return saved
    }

    /// Leaves the preparation ``enterPreparation(of:depth:)`` entered: restores the frame stack's node,
    /// depth and preparation count, and the queue's preparation frame.
    @inlinable @inline(__always)
    func leavePreparation(_ saved: EnteredPreparation) {
        frames.current = saved.current
        frames.depth = saved.depth
        frames.injecting -= 1
        preparations.preparationTop = saved.preparationTop
    }

    /// Enters the preparations of a shared instance whose node is `node`; pass what it returns to
    /// ``leaveSharedFloor(_:)``.
    @inlinable @inline(__always)
    func enterSharedFloor(_ node: Int32) -> Int32 {
        let saved = preparations.sharedFloor
        preparations.sharedFloor = node
        return saved
    }

    /// Leaves what ``enterSharedFloor(_:)`` entered.
    @inlinable @inline(__always)
    func leaveSharedFloor(_ saved: Int32) {
        preparations.sharedFloor = saved
    }

    /// Enters the build of a shared instance: clears ``PreparationQueue/reachedUnfinishedAncestor``,
    /// ``PreparationQueue/reachedOuterInstance`` and ``PreparationQueue/lowestReached`` and returns the
    /// enclosing build's, for ``leaveUnfinishedScope(_:failed:alsoUnfinished:)``.
    @inlinable @inline(__always)
    func enterUnfinishedScope() -> UnfinishedReach {
        let outer = UnfinishedReach(
            ancestor: preparations.reachedUnfinishedAncestor, outerInstance: preparations.reachedOuterInstance,
            lowest: preparations.lowestReached)
        preparations.reachedUnfinishedAncestor = false
        preparations.reachedOuterInstance = false
        preparations.lowestReached = .max
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
        let reached = UnfinishedReach(
            ancestor: preparations.reachedUnfinishedAncestor, outerInstance: preparations.reachedOuterInstance,
            lowest: preparations.lowestReached)
        preparations.reachedUnfinishedAncestor =
            outer.ancestor || (!failed && (reached.ancestor || alsoUnfinished))
        preparations.reachedOuterInstance = outer.outerInstance || (!failed && reached.outerInstance)
        preparations.lowestReached = failed ? outer.lowest : min(outer.lowest, reached.lowest)
        return reached
    }

    /// Runs `body` with ``PreparationQueue/callerPreparationPending`` set to `pending`, then restores it.
    @inlinable @inline(__always)
    func withCallerPreparation<Result>(pending: Bool, _ body: () throws -> Result) rethrows -> Result {
        let saved = preparations.callerPreparationPending
        preparations.callerPreparationPending = pending
        defer { preparations.callerPreparationPending = saved }
        return try body()
    }

    /// ``withInput(_:_:)`` for an async lookup's call, which may suspend.
    nonisolated(nonsending) func withInput<Result>(
        _ input: AnyObject?, _ body: nonisolated(nonsending) () async throws -> Result
    ) async rethrows -> Result {
        frames.inputRef = input.map { Borrowed($0) }
        defer {
            frames.inputRef = nil
            withExtendedLifetime(input) {}
        }
        return try await body()
    }

    /// Hands `input` (a configuration or arguments) to the next factory that takes it, for the length of
    /// `body`; whatever no factory took is cleared after. `input` is kept alive by the caller meanwhile.
    @inlinable @inline(__always)
    func withInput<Result>(_ input: AnyObject?, _ body: () throws -> Result) rethrows -> Result {
        frames.inputRef = input.map { Borrowed($0) }
        defer { frames.inputRef = nil }
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
        context.start(tableRef, onMainActor: onMainActor, tracing: tracing)
    }

    /// Nests the lookup in `outer` (a lookup of another table running on this thread, or in this task),
    /// from main-actor code when `onMainActor` is.
    func nest(in outer: Borrowed<LookupState>?, onMainActor: Bool) {
        context.outer = outer
        context.onMainActor = onMainActor
        if let outer { inheritRequestScope(from: outer) }
    }

    /// A lookup of another registry started inside a scoped one runs in the same request scope. Out of
    /// line: most lookups are not nested, and `nest` is on every async lookup's way in.
    @inline(never)
    private func inheritRequestScope(from outer: Borrowed<LookupState>) {
        if let scope = outer.with({ $0.creation.requestScope }) {
            creation.requestScope = scope
            creation.hasExtras = true
        }
    }

    /// Marks the lookup as joined from main-actor code when `onMainActor` is, returning the flag it had, for
    /// ``restoreOnMainActor(_:)``.
    func joinOnMainActor(_ onMainActor: Bool) -> Bool {
        let was = context.onMainActor
        if onMainActor { context.onMainActor = true }
        return was
    }

    /// Restores what ``joinOnMainActor(_:)`` changed.
    func restoreOnMainActor(_ was: Bool) {
        context.onMainActor = was
    }

    /// Measures the depth guard against `range`, the stack of the thread the lookup runs on now (an async
    /// lookup moves between threads).
    @inlinable @inline(__always)
    func measureStack(_ range: StackRange) {
        context.stackRange = range
    }

    /// Pushes the first factory's frame of a lookup (no enclosing frame, no node).
    @inlinable @inline(__always)
    func enterFirstFrame(_ frame: FrameRef) {
        frames.top = frame
        frames.depth = 1
    }

    /// Pops what ``enterFirstFrame(_:)`` pushed.
    @inlinable @inline(__always)
    func leaveFirstFrame() {
        frames.top = nil
        frames.current = -1
        frames.depth = 0
    }

    /// Pushes a factory's frame (and its node, when a graph exists); returns the node to restore after.
    @inlinable @inline(__always)
    func enterFrame(_ frame: FrameRef) -> Int32 {
        let parentNode = frames.current
        if let graphRef = preparations.graphRef {
            frame.node = graphRef.with { $0.push(frame.entry, parent: parentNode) }
            frames.current = frame.node
        }
        frames.top = frame
        frames.depth &+= 1
        return parentNode
    }

    /// Pops a factory's frame pushed by ``enterFrame(_:)`` or ``enterPlainFrame(_:)``.
    @inlinable @inline(__always)
    func leaveFrame(_ frame: FrameRef, parentNode: Int32) {
        let outerTop = frame.parent
        frames.top = outerTop
        // A graph started inside the factory gave the enclosing frame a node of its own.
        if let outer = outerTop, outer.node >= 0 {
            frames.current = outer.node
        } else {
            frames.current = parentNode
        }
        frames.depth &-= 1
    }

    /// Pushes the frame of a factory that starts with no graph (see `Resolver.constructPlain`): no node;
    /// returns the node to restore after.
    @inlinable @inline(__always)
    func enterPlainFrame(_ frame: FrameRef) -> Int32 {
        frames.top = frame
        frames.depth &+= 1
        return frames.current
    }

    /// Pops what ``enterPlainFrame(_:)`` pushed when still no graph exists: nothing else to restore.
    @inlinable @inline(__always)
    func leavePlainFrame(restoring outerTop: FrameRef?, parentNode: Int32) {
        frames.top = outerTop
        frames.current = parentNode
        frames.depth &-= 1
    }

    /// Counts a factory that returned, for the trace.
    @inlinable @inline(__always)
    func noteConstructed(_ entry: AnyEntry) {
        frames.constructions &+= 1
        frames.lastConstructed = ObjectIdentifier(entry)
    }

    /// Takes the configuration or arguments handed to the factory that is starting: no later factory
    /// gets them.
    func takeInput() -> AnyObject? {
        let taken = frames.inputRef?.object
        frames.inputRef = nil
        return taken
    }

    /// Hands a lookup's runtime arguments to the next factory that takes them, for the length of `body`,
    /// as ``withInput(_:_:)`` does a configuration; whatever no factory took is cleared after.
    @inlinable @inline(__always)
    func withArguments<Result>(_ handoff: ArgumentHandoff, _ body: () throws -> Result) rethrows -> Result {
        frames.arguments = handoff
        defer { frames.arguments = nil }
        return try body()
    }

    /// Hands `handoff` to the next factory that takes it, or clears it (nil): ``withArguments(_:_:)`` in two
    /// steps, for a caller whose body must not hold the state across it (a closure capturing the state
    /// would retain it).
    @inlinable @inline(__always)
    func handArguments(_ handoff: ArgumentHandoff?) {
        frames.arguments = handoff
    }

    /// ``withArguments(_:_:)`` for an async lookup, which may suspend.
    nonisolated(nonsending) func withArguments<Result>(
        _ handoff: ArgumentHandoff, _ body: nonisolated(nonsending) () async throws -> Result
    ) async rethrows -> Result {
        frames.arguments = handoff
        defer { frames.arguments = nil }
        return try await body()
    }

    /// Takes the runtime arguments handed to the factory that is starting: no later factory gets them.
    @inlinable @inline(__always)
    func takeArguments() -> ArgumentHandoff? {
        let taken = frames.arguments
        frames.arguments = nil
        return taken
    }

    /// Notes that a build returned an ancestor still being built or prepared, `node` of the graph (see
    /// ``PreparationQueue/reachedUnfinishedAncestor`` and ``PreparationQueue/lowestReached``).
    @inlinable @inline(__always)
    func noteReachedUnfinishedAncestor(_ node: Int32) {
        preparations.reachedUnfinishedAncestor = true
        preparations.lowestReached = min(preparations.lowestReached, node)
    }

    /// Notes that a claim returned an instance this lookup's transaction has not published: built by this
    /// lookup, by a group-mate, or by a lookup this one is nested in, it may not be prepared yet. What is
    /// built around it is held like what reaches an unfinished ancestor, and in a nested lookup for the
    /// outermost lookup's end (``PreparationQueue/reachedOuterInstance``). `node`: the instance's node in
    /// this lookup's graph when this lookup built it, -1 when it did not (see
    /// ``PreparationQueue/lowestReached``).
    func noteReachedGroupInstance(node: Int32 = -1) {
        preparations.reachedUnfinishedAncestor = true
        preparations.lowestReached = min(preparations.lowestReached, node)
        if context.outer != nil { preparations.reachedOuterInstance = true }
    }

    /// Whether this lookup, nested in another, reached an instance its outer lookups have not published:
    /// then what the outer lookup builds around what this one returns is held too.
    var reachedOuterInstance: Bool { preparations.reachedOuterInstance }

    /// Asks the enclosing drain to run the running preparation again later (see
    /// ``PreparationQueue/deferralRequested``), as it needs the object of graph node `node`, whose factory
    /// has not returned (the build it belongs to reached that node: see ``PreparationQueue/lowestReached``).
    func requestDeferral(waitingFor node: Int32) {
        preparations.deferralRequested = true
        preparations.lowestReached = min(preparations.lowestReached, node)
    }

    /// Clears the deferral request, returning whether one was made.
    @discardableResult
    func clearDeferralRequest() -> Bool {
        let requested = preparations.deferralRequested
        preparations.deferralRequested = false
        return requested
    }

    /// Notes that the top-level drain has run `count` pending preparations to completion.
    func noteCompleted(_ count: Int) {
        preparations.completed = count
    }

    /// The snapshot the `Lazy`s and `Provider`s made in this lookup share, made on first use.
    var snapshotForDeferredLookups: GraphSnapshot {
        if let snapshot = creation.snapshot { return snapshot }
        let made = GraphSnapshot(requestScope: creation.requestScope)
        creation.snapshot = made
        creation.hasExtras = true
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
    /// The lowest graph node of what it reached unfinished (``PreparationQueue/lowestReached``).
    @usableFromInline let lowest: Int32

    @usableFromInline @inline(__always)
    init(ancestor: Bool, outerInstance: Bool, lowest: Int32) {
        self.ancestor = ancestor
        self.outerInstance = outerInstance
        self.lowest = lowest
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

// MARK: The parts

/// Where a lookup runs and under which rules.
// Its `Borrowed`s' owners: the registry call (or `Lazy`, `Provider`) that started the lookup keeps the
// table alive; the thread's context (or the async door) keeps every running state alive.
@usableFromInline
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
        self.tableRef = tableRef
        self.stackRange = stackRange
        self.isAsync = isAsync
        (maxDepth, tracing) = tableRef.with { ($0.maxDepth, $0.isTracing) }
    }

    /// Sets the context up for a lookup of `tableRef` starting on an idle thread (nothing running, no
    /// handler being called), from main-actor code when `onMainActor` is, traced when `tracing` is (the
    /// caller knows: the plain transient's fast case runs only untraced, so it reads no flag).
    @inlinable @inline(__always)
    mutating func start(_ tableRef: Borrowed<SealedTable>, onMainActor: Bool, tracing: Bool) {
        self.tableRef = tableRef
        maxDepth = tableRef.with { $0.maxDepth }
        self.tracing = tracing
        self.onMainActor = onMainActor
    }
}

/// The factories running in a lookup, innermost on top, and what the running one is handed.
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
/// end), so the canary check, about 6 instructions per nesting level, would guard nothing. Code outside
/// this file reaches a frame only through a ``FrameRef``.
@usableFromInline
struct Frame {
    /// Unretained: the table keeps the entry alive for longer than the lookup.
    @usableFromInline let entry: Borrowed<AnyEntry>
    @usableFromInline let parent: FrameRef?
    /// The frame's node once the graph exists, else -1.
    @usableFromInline var node: Int32

    @inlinable
    init(entry: AnyEntry, parent: FrameRef?, node: Int32) {
        self.entry = Borrowed(entry)
        self.parent = parent
        self.node = node
    }
}

/// A running factory's ``Frame``, by address.
///
/// `@safe`. **The invariant: a `FrameRef` is read only while its frame is pushed.** It holds because
/// only this file makes one (``init(_:)`` is `@unsafe`), and only in the frame scopes below
/// (`Resolver.construct`, `constructPlain`, `constructFirst`, `constructAsync`), each of which pushes its
/// frame on the lookup's ``FrameStack``, hands the `FrameRef` to code that runs inside the scope, and pops
/// the frame before the scope returns (and frees a heap frame only after that). Frames are pushed and
/// popped in strict nesting, so a frame's `parent` is pushed for at least as long as it is. The only
/// copies kept are the state's own (`FrameStack.top`, `PreparationQueue.preparationTop`, and
/// ``EnteredPreparation``), each restored to an enclosing frame before the frame it names is popped; a
/// failed `@Injected` property keeps only the frame's ``address``, which is compared, never followed.
@frozen @usableFromInline @safe
struct FrameRef: Equatable {
    @usableFromInline let pointer: UnsafeMutablePointer<Frame>

    @inlinable @inline(__always) @unsafe
    init(_ pointer: UnsafeMutablePointer<Frame>) { unsafe self.pointer = unsafe pointer }

    /// The registration whose factory runs in the frame.
    @inlinable @inline(__always)
    var entry: Borrowed<AnyEntry> { unsafe pointer.pointee.entry }

    /// The enclosing factory's frame.
    @inlinable @inline(__always)
    var parent: FrameRef? { unsafe pointer.pointee.parent }

    /// The frame's node once the graph exists, else -1 (set by the state's frame operations).
    @inlinable @inline(__always)
    var node: Int32 {
        get { unsafe pointer.pointee.node }
        nonmutating set { unsafe pointer.pointee.node = newValue }
    }

    /// The frame's address, for comparing with one recorded earlier; never followed.
    @inlinable @inline(__always)
    var address: UInt { unsafe UInt(bitPattern: pointer) }

    /// Whether both are the same frame.
    @inlinable @inline(__always)
    static func == (lhs: FrameRef, rhs: FrameRef) -> Bool { lhs.address == rhs.address }
}

/// The graph of a lookup that needs one, and what its preparations need to know.
// `graphRef` and `spareGraph` are owned (+1) by the state and released once (`LookupState.reset`,
// `deinit`); `preparationTop` follows `FrameRef`'s invariant.
@usableFromInline
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
    @usableFromInline fileprivate(set) var preparationTop: FrameRef?
    /// While a lookup with a caller's preparation builds its object inside a preparation: the object's own
    /// preparations must wait for the caller's, which runs first.
    @usableFromInline fileprivate(set) var callerPreparationPending = false
    /// Set when a build returns an ancestor that is still being built or prepared (a cycle closed by a
    /// property edge). A shared instance whose preparation did so is held: published earlier, another
    /// thread could reach the ancestor before its preparation has run. It is published with its group, as
    /// soon as the group is complete (``lowestReached``), or when the lookup ends.
    @usableFromInline fileprivate(set) var reachedUnfinishedAncestor = false
    /// In a nested lookup: set when a build reached an instance of the shared transaction that this lookup
    /// did not build (an outer lookup's, possibly not prepared yet). A shared instance built around it is
    /// held until the outermost lookup ends, not this one.
    @usableFromInline fileprivate(set) var reachedOuterInstance = false
    /// The lowest graph node of the unfinished objects the running shared build reached (an ancestor
    /// still being built or prepared, an instance of the transaction this lookup built and has not
    /// published, an object a deferred preparation needs); -1 for an unfinished instance this lookup did
    /// not build (a group-mate's, an outer lookup's); `Int32.max` when it reached none. Nodes are numbered
    /// in the order the objects were made, so a shared build whose node is at most this reached nothing
    /// unfinished outside itself: once its preparations have all run, it and everything held inside it
    /// form a complete group, published at once (``CreationMachine/publishGroup(_:by:from:)``).
    @usableFromInline fileprivate(set) var lowestReached: Int32 = .max
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
        preparationTop = nil
        callerPreparationPending = false
        reachedUnfinishedAncestor = false
        reachedOuterInstance = false
        lowestReached = .max
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
    /// The request scope the lookup runs in (``RequestScope``): where its request-scoped instances live and
    /// its supplied keys are read. Set by ``LookupState/enterRequestScope(_:)``, inherited by a nested lookup.
    fileprivate(set) var requestScope: RequestScope?
    /// Whether `scopeGenerations`, `detachedCells`, `snapshot` or `requestScope` has anything (one flag,
    /// cheaper to test than each of them).
    @usableFromInline fileprivate(set) var hasExtras = false

    @usableFromInline init() {}

    /// Forgets the transaction; returns it, for the caller to release once this access ended.
    @inline(__always)
    mutating func takeTransaction() -> CreationTransaction? {
        let transaction = ownTransaction
        ownTransaction = nil
        return transaction
    }

    /// Forgets the extras (the caller has left the scope generations). Returns what it forgot that holds
    /// objects, for the caller to release once this access ended.
    mutating func takeExtras() -> ([(entry: ObjectIdentifier, cell: AnyObject)], GraphSnapshot?, RequestScope?) {
        scopeGenerations.removeAll(keepingCapacity: true)
        let cells = detachedCells
        detachedCells = []
        let taken = snapshot
        snapshot = nil
        let scope = requestScope
        requestScope = nil
        hasExtras = false
        return (cells, taken, scope)
    }
}

extension LookupState {
    /// The creation transaction of this lookup (or the one it is nested in), if one was made.
    var existingTransaction: CreationTransaction? {
        outermost.creation.ownTransaction
    }
}

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
            let parentNode = state.enterFrame(frame)
            defer { state.leaveFrame(frame, parentNode: parentNode) }
            let made = try runFactory(entry, in: frame)
            state.noteConstructed(entry)
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
            let parentNode = state.enterPlainFrame(framePointer)
            // No trace counts: `build` sends a traced lookup to `buildTraced`, which never comes here.
            let made: Destination
            do {
                // Wraps a failure while the frame is still pushed, so the error's path ends at this object.
                made = try runFactory(entry, in: framePointer, recordsInline: false)
            } catch {
                state.leaveFrame(framePointer, parentNode: parentNode)
                throw error
            }
            guard graphRef == nil else {
                // The factory's own lookups started a graph, which gave this frame and its parents nodes.
                state.leaveFrame(framePointer, parentNode: parentNode)
                return made
            }
            // Still no graph: no node was made, so the enclosing frame has none to restore.
            state.leavePlainFrame(restoring: outerTop, parentNode: parentNode)
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
            state.enterFirstFrame(frame)
            defer { state.leaveFirstFrame() }
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
        let parentNode = state.enterFrame(frame)
        defer {
            state.leaveFrame(frame, parentNode: parentNode)
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
        state.noteConstructed(entry)
        record(made, entry, node: frame.node)
        return made
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

/// The memory of a lookup's async factories' frames: the first ``inline`` levels in one block the state
/// keeps from lookup to lookup, deeper ones allocated each.
///
/// `@safe`. **The invariant: a frame's memory stays allocated and is not reused while the frame is
/// pushed.** It holds because only the state's ``LookupState/pushAsyncFrame(_:)`` and
/// ``LookupState/popAsyncFrame(_:)`` reach the slots, only `constructAsync` calls them, around its
/// factory, and those calls nest strictly: a state belongs to one lookup of one task at a time, and a
/// factory's own async lookups that join it run inside the factory's await. So the slots are used as a
/// stack: `push` takes the slot at `used` (or allocates past the block), `pop` gets the innermost frame
/// back and frees that slot (or that allocation). The block is freed only by `free()`, from the state's
/// `deinit`, when no frame can be pushed.
@safe
struct AsyncFrameSlots {
    /// How many levels the block holds.
    static let inline = 8
    /// The block, allocated at the first push.
    private var block: UnsafeMutablePointer<Frame>?
    /// How many slots of the block are in use.
    private var used = 0

    /// Memory holding `frame`, for the innermost async factory.
    @unsafe mutating func push(_ frame: Frame) -> UnsafeMutablePointer<Frame> {
        guard used < Self.inline else {
            let own = UnsafeMutablePointer<Frame>.allocate(capacity: 1)
            unsafe own.initialize(to: frame)
            return unsafe own
        }
        let block = unsafe self.block ?? UnsafeMutablePointer<Frame>.allocate(capacity: Self.inline)
        unsafe self.block = unsafe block
        let slot = unsafe block + used
        unsafe slot.initialize(to: frame)
        used += 1
        return unsafe slot
    }

    /// Frees `frame`, which the last ``push(_:)`` not yet popped returned.
    @unsafe mutating func pop(_ frame: UnsafeMutablePointer<Frame>) {
        unsafe frame.deinitialize(count: 1)
        if used > 0, let block = unsafe block, unsafe frame == block + (used - 1) {
            used -= 1
        } else {
            unsafe frame.deallocate()
        }
    }

    /// Frees the block; no frame may be pushed.
    @unsafe func free() {
        unsafe block?.deallocate()
    }
}

// MARK: - The graph: the part of a lookup's state on the heap

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
                graph.removePending(from: mark)
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
/// and `removeSuffix` and `removeLast(downTo:)` take only initialized elements.
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

    @usableFromInline
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

    /// Takes the last element out, if there are more than `mark` (at least 0): the caller releases it after
    /// this access ends.
    @inline(__always)
    mutating func removeLast(downTo mark: Int) -> Element? {
        guard count > max(mark, 0) else { return nil }
        count -= 1
        return unsafe (base + count).move()
    }

    /// Destroys the elements from `mark` on (none when `mark` is `count` or more), inside this access: for
    /// elements whose release runs no user code (``ResolutionGraph/removePending(from:)`` is for the others).
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
