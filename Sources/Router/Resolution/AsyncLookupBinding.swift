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
    // once, as a lookup state must not be. `outer` is only read and written under `lookups`' lock.

    /// The lookup's state.
    let state: LookupState
    /// The async lookup of the same task this one is nested in (a lookup of another registry started
    /// inside its factory), if any.
    private var outer: AsyncLookupBinding?

    private init(state: LookupState) {
        self.state = state
    }

    /// How many async lookups run in the process. While none does, the synchronous door does not look
    /// for one (it reads this through its thread's context, which holds it, without a `swift_once`).
    static let running = AsyncLookupCount()

    /// The innermost running async lookup of each task that runs one, with the task's identity (see
    /// ``currentTask()``). A short list searched from its end (few tasks run lookups at the same moment,
    /// and the newest is the likeliest to ask), cheaper than hashing.
    private static let lookups = Locked<[(task: UInt, binding: AsyncLookupBinding)]>([])

    /// Files `state`'s lookup under the current task until ``end(_:)``; nil outside a task (then it
    /// cannot be joined, and need not be).
    static func begin(_ state: LookupState) -> (task: UInt, binding: AsyncLookupBinding)? {
        guard let task = currentTask() else { return nil }
        let binding = AsyncLookupBinding(state: state)
        lookups.withLock { lookups in
            if let index = lookups.lastIndex(where: { $0.task == task }) {
                binding.outer = lookups[index].binding
                lookups[index].binding = binding
            } else {
                lookups.append((task, binding))
            }
        }
        running.count.add(1, ordering: .relaxed)
        return (task, binding)
    }

    /// Ends what ``begin(_:)`` filed.
    static func end(_ filed: (task: UInt, binding: AsyncLookupBinding)) {
        running.count.subtract(1, ordering: .relaxed)
        lookups.withLock { lookups in
            guard let index = lookups.lastIndex(where: { $0.task == filed.task }) else { return }
            if let outer = filed.binding.outer {
                lookups[index].binding = outer
            } else {
                lookups.remove(at: index)
            }
            filed.binding.outer = nil
        }
    }

    /// The async lookup the current task runs, when a lookup starting here must join it (or nest in it,
    /// for another registry); nil otherwise.
    @usableFromInline
    static func joinable() -> AsyncLookupBinding? {
        guard running.count.load(ordering: .relaxed) > 0, let task = currentTask() else { return nil }
        return lookups.withLock { lookups in lookups.last(where: { $0.task == task })?.binding }
    }
}

/// The count of running async lookups (see ``AsyncLookupBinding/running``), an object so that each
/// thread's context can hold it.
@usableFromInline
final class AsyncLookupCount: Sendable {
    @usableFromInline let count = Atomic<Int>(0)
}
