/// The graph of a lookup that needs one, and what its preparations need to know. Its fields are written
/// only by its own operations below (`fileprivate(set)`), none of which calls code that could reach the
/// lookup (see ``LookupState``).
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

    /// Takes the spare graph, if one is kept, to start the lookup's graph with (``adoptGraph(_:)``).
    mutating func takeSpareGraph() -> Borrowed<ResolutionGraph>? {
        let taken = spareGraph
        spareGraph = nil
        return taken
    }

    /// Makes `graph` (+1, now owned by the state) the lookup's graph; the lookup has none.
    mutating func adoptGraph(_ graph: Borrowed<ResolutionGraph>) {
        graphRef = graph
    }

    /// Forgets the graph, which the caller has emptied, keeping it as the spare when `keep` is and no spare
    /// is kept. Returns it when not kept, for the caller to release (+1) once this access ended.
    mutating func retireGraph(keep: Bool) -> Borrowed<ResolutionGraph>? {
        guard let graph = graphRef else { return nil }
        graphRef = nil
        if keep && spareGraph == nil {
            spareGraph = graph
            return nil
        }
        return graph
    }

    /// Enters a preparation started while `top` is the innermost frame: returns the preparation frame to
    /// give back to ``leavePreparation(_:)``.
    @inlinable @inline(__always)
    mutating func enterPreparation(top: FrameRef?) -> FrameRef? {
        let saved = preparationTop
        preparationTop = top
        return saved
    }

    /// Leaves what ``enterPreparation(top:)`` entered.
    @inlinable @inline(__always)
    mutating func leavePreparation(_ saved: FrameRef?) {
        preparationTop = saved
    }

    /// Enters the preparations of a shared instance whose node is `node`; pass what it returns to
    /// ``leaveSharedFloor(_:)``.
    @inlinable @inline(__always)
    mutating func enterSharedFloor(_ node: Int32) -> Int32 {
        let saved = sharedFloor
        sharedFloor = node
        return saved
    }

    /// Leaves what ``enterSharedFloor(_:)`` entered.
    @inlinable @inline(__always)
    mutating func leaveSharedFloor(_ saved: Int32) {
        sharedFloor = saved
    }

    /// What the running shared build has reached so far: the three flags as one value.
    @inlinable
    var reach: UnfinishedReach {
        UnfinishedReach(
            ancestor: reachedUnfinishedAncestor, outerInstance: reachedOuterInstance, lowest: lowestReached)
    }

    /// Enters the build of a shared instance: clears ``reachedUnfinishedAncestor``, ``reachedOuterInstance``
    /// and ``lowestReached`` and returns the enclosing build's, for
    /// ``leaveUnfinishedScope(_:failed:alsoUnfinished:)``.
    @inlinable @inline(__always)
    mutating func enterUnfinishedScope() -> UnfinishedReach {
        let outer = reach
        reachedUnfinishedAncestor = false
        reachedOuterInstance = false
        lowestReached = .max
        return outer
    }

    /// Leaves the build ``enterUnfinishedScope()`` entered and returns what it reached. The flags become
    /// the enclosing build's again, or-ed, when the build did not fail, with what it reached and
    /// `alsoUnfinished` (an instance that is unfinished makes the builds around it unfinished too).
    @inlinable @inline(__always)
    @discardableResult
    mutating func leaveUnfinishedScope(_ outer: UnfinishedReach, failed: Bool, alsoUnfinished: Bool = false)
        -> UnfinishedReach
    {
        let reached = reach
        reachedUnfinishedAncestor = outer.ancestor || (!failed && (reached.ancestor || alsoUnfinished))
        reachedOuterInstance = outer.outerInstance || (!failed && reached.outerInstance)
        lowestReached = failed ? outer.lowest : min(outer.lowest, reached.lowest)
        return reached
    }

    /// Sets ``callerPreparationPending`` to `pending`, returning what it was, for the caller to restore.
    @inlinable @inline(__always)
    mutating func setCallerPreparationPending(_ pending: Bool) -> Bool {
        let saved = callerPreparationPending
        callerPreparationPending = pending
        return saved
    }

    /// Notes that a build returned an ancestor still being built or prepared, `node` of the graph (see
    /// ``reachedUnfinishedAncestor`` and ``lowestReached``).
    @inlinable @inline(__always)
    mutating func noteReachedUnfinishedAncestor(_ node: Int32) {
        reachedUnfinishedAncestor = true
        lowestReached = min(lowestReached, node)
    }

    /// Notes that a claim returned an instance the lookup's transaction has not published: built by this
    /// lookup, by a group-mate, or by a lookup this one is nested in (`nested`), it may not be prepared
    /// yet. What is built around it is held like what reaches an unfinished ancestor, and in a nested
    /// lookup for the outermost lookup's end (``reachedOuterInstance``). `node`: the instance's node in
    /// this lookup's graph when this lookup built it, -1 when it did not (see ``lowestReached``).
    mutating func noteReachedGroupInstance(node: Int32, nested: Bool) {
        reachedUnfinishedAncestor = true
        lowestReached = min(lowestReached, node)
        if nested { reachedOuterInstance = true }
    }

    /// Asks the enclosing drain to run the running preparation again later (see ``deferralRequested``), as
    /// it needs the object of graph node `node`, whose factory has not returned (the build it belongs to
    /// reached that node: see ``lowestReached``).
    mutating func requestDeferral(waitingFor node: Int32) {
        deferralRequested = true
        lowestReached = min(lowestReached, node)
    }

    /// Clears the deferral request, returning whether one was made.
    @discardableResult
    mutating func clearDeferralRequest() -> Bool {
        let requested = deferralRequested
        deferralRequested = false
        return requested
    }

    /// Notes that the top-level drain has run `count` pending preparations to completion.
    mutating func noteCompleted(_ count: Int) {
        completed = count
    }
}

/// What a shared build reached that is not finished (see ``PreparationQueue/enterUnfinishedScope()``).
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
