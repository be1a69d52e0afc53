import Synchronization

/// A running async lookup as the registry calls made inside its factories find it.
///
/// A synchronous lookup is found through its thread's context (``ThreadContext/running``); an async one
/// moves between threads, so it is filed under the task that runs it, for its whole run. A registry call,
/// a `Lazy` or a `Provider` read in an async factory (between its awaits) finds it there and joins it
/// exactly as a synchronous factory's calls join theirs: same graph, same cycle detection, same depth
/// guard, same creation transaction.
///
/// Only the task that runs the lookup finds it. Child tasks (`async let`, task groups) and unstructured
/// tasks are other tasks: they start lookups of their own. (A task-local value would reach them too, and
/// setting one costs an allocation and, from a nonisolated(nonsending) function, two executor hops.)
@usableFromInline
final class AsyncLookupBinding: @unchecked Sendable {
    // @unchecked: `state` is handed out only by `joinable()`, on the task that runs the lookup, between
    // `begin` and `end`; that task runs one thing at a time, so the state is never used by two threads at
    // once, as a lookup state must not be. `outer` is only read and written under the lock of its task's
    // stripe (`stripes`); `filed` only by the task that runs the lookup, which files and ends it; a binding
    // given back to its table is idle (its state emptied, nothing filed) until the next lookup takes it.

    /// The lookup's state, the binding's own: kept with it from lookup to lookup (see ``take(for:stackRange:)``).
    let state: LookupState
    /// The async lookup of the same task this one is nested in (a lookup of another registry started
    /// inside its factory), if any.
    private var outer: AsyncLookupBinding?
    /// The task the lookup is filed under (see ``file()``) and the stripe it is filed in, nil when it is
    /// not filed.
    private var filed: (task: UInt, stripe: Stripe)?

    private init(state: LookupState) {
        self.state = state
    }

    /// How many async lookups run in the process. While none does, the synchronous door does not look
    /// for one (it reads this through its thread's context, which holds it, without a `swift_once`).
    static let running = AsyncLookupCount()

    /// The innermost running async lookup of each task that runs one, with the task's identity (see
    /// ``currentTask()``), filed in one of 64 stripes chosen by that identity (``stripe(of:)``). Each stripe
    /// is a short list under its own lock, searched from its end (the newest is the likeliest to ask), so a
    /// lookup's filing costs the same however many others are in flight and rarely waits for another
    /// thread. (One list for the process was scanned whole by every lookup that started: with 256 requests
    /// in flight, s17's request scope spent about a fifth of its time scanning it or waiting for its lock.)
    private static let stripes: [Stripe] = (0..<64).map { _ in Stripe([]) }

    /// One stripe: the innermost running lookup of each task filed in it.
    private typealias Stripe = Locked<[(task: UInt, binding: AsyncLookupBinding)]>

    /// The stripe `task`'s lookups are filed in: its address (16-byte aligned, so the low bits are dropped)
    /// hashed by a Fibonacci multiplication, whose top six bits spread neighbouring addresses.
    private static func stripe(of task: UInt) -> Stripe {
        stripes[Int(truncatingIfNeeded: ((task &>> 4) &* 0x9E37_79B9_7F4A_7C15) &>> 58)]
    }

    /// A binding with an idle state for a new async lookup of `table`, measured against `stackRange`: the
    /// table's spare one (``SealedTable/spareAsyncLookup``), which the last lookup gave back, or a new one.
    /// Reused, a state and its binding cost no allocation per lookup.
    static func take(for table: SealedTable, stackRange: StackRange) -> AsyncLookupBinding {
        let tableRef = Borrowed(table)
        if let spare = table.spareAsyncLookup.take() {
            spare.state.restart(tableRef: tableRef, stackRange: stackRange, tracing: table.isTracing)
            return spare
        }
        return AsyncLookupBinding(
            state: LookupState.make(tableRef, stackRange: stackRange, tracing: table.isTracing, isAsync: true))
    }

    /// Gives the binding of a lookup that ended (its state emptied, ``end()`` called) back to `table`, for
    /// the next lookup.
    func giveBack(to table: Borrowed<SealedTable>) {
        table.with { $0.spareAsyncLookup.give(self) }
    }

    /// Files the lookup under the current task until ``end()``; not filed outside a task (then it cannot
    /// be joined, and need not be).
    func file() {
        guard let task = Self.currentTask() else { return }
        let stripe = Self.stripe(of: task)
        filed = (task, stripe)
        stripe.withLock { lookups in
            if let index = lookups.lastIndex(where: { $0.task == task }) {
                outer = lookups[index].binding
                lookups[index].binding = self
            } else {
                lookups.append((task, self))
            }
        }
        Self.running.count.add(1, ordering: .relaxed)
    }

    /// Ends what ``file()`` filed.
    func end() {
        guard let (task, stripe) = filed else { return }
        filed = nil
        Self.running.count.subtract(1, ordering: .relaxed)
        stripe.withLock { lookups in
            guard let index = lookups.lastIndex(where: { $0.task == task }) else { return }
            if let outer {
                lookups[index].binding = outer
            } else {
                lookups.remove(at: index)
            }
            outer = nil
        }
    }

    /// The async lookup the current task runs, when a lookup starting here must join it (or nest in it,
    /// for another registry); nil otherwise.
    @usableFromInline
    static func joinable() -> AsyncLookupBinding? {
        guard running.count.load(ordering: .relaxed) > 0, let task = currentTask() else { return nil }
        return stripe(of: task).withLock { lookups in lookups.last(where: { $0.task == task })?.binding }
    }
}

/// The count of running async lookups (see ``AsyncLookupBinding/running``), an object so that each
/// thread's context can hold it.
@usableFromInline
final class AsyncLookupCount: Sendable {
    @usableFromInline let count = Atomic<Int>(0)
}
