/// Where a lookup runs and under which rules. Its fields are written only by its own operations below
/// (`fileprivate(set)`), none of which calls code that could reach the lookup (see ``LookupState``).
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

    init(tableRef: Borrowed<SealedTable>, stackRange: StackRange, tracing: Bool, isAsync: Bool) {
        self.tableRef = tableRef
        self.stackRange = stackRange
        self.tracing = tracing
        self.isAsync = isAsync
        maxDepth = tableRef.with { $0.maxDepth }
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

    /// Sets a reused state's context up for a new lookup of `tableRef`.
    mutating func restart(_ tableRef: Borrowed<SealedTable>, stackRange: StackRange, tracing: Bool) {
        self.tableRef = tableRef
        self.stackRange = stackRange
        self.tracing = tracing
        maxDepth = tableRef.with { $0.maxDepth }
    }

    /// Nests the lookup in `outer` (nil: no longer nested), from main-actor code when `onMainActor` is.
    mutating func nest(in outer: Borrowed<LookupState>?, onMainActor: Bool) {
        self.outer = outer
        self.onMainActor = onMainActor
    }

    /// Ends the nesting ``nest(in:onMainActor:)`` set up, when the lookup ends.
    mutating func unnest() {
        outer = nil
    }

    /// Marks the lookup as joined from main-actor code when `onMainActor` is, returning the flag it had, for
    /// ``restoreOnMainActor(_:)``.
    @inlinable @inline(__always)
    mutating func joinOnMainActor(_ onMainActor: Bool) -> Bool {
        let was = self.onMainActor
        if onMainActor { self.onMainActor = true }
        return was
    }

    /// Restores what ``joinOnMainActor(_:)`` changed.
    @inlinable @inline(__always)
    mutating func restoreOnMainActor(_ was: Bool) {
        onMainActor = was
    }

    /// Traces the lookup, returning whether it was, for ``restoreTracing(_:)``.
    mutating func startTracing() -> Bool {
        let was = tracing
        tracing = true
        return was
    }

    /// Restores what ``startTracing()`` changed.
    mutating func restoreTracing(_ was: Bool) {
        tracing = was
    }

    /// Measures the depth guard against `range`, the stack of the thread the lookup runs on now (an async
    /// lookup moves between threads).
    @inlinable @inline(__always)
    mutating func measureStack(_ range: StackRange) {
        stackRange = range
    }
}
