import Synchronization

/// A running async lookup as the registry calls made inside its factories find it.
///
/// A synchronous lookup is found through its thread's context (``ThreadContext/running``); an async one
/// moves between threads, so it is found through a task-local value instead, set for the whole lookup. A
/// registry call, a `Lazy` or a `Provider` read in an async factory (between its awaits) finds it there
/// and joins it exactly as a synchronous factory's calls join theirs: same graph, same cycle detection,
/// same depth guard, same creation transaction.
///
/// Only the task that runs the lookup joins it. Child tasks (`async let`, task groups) and unstructured
/// tasks inherit task-local values, but they run beside the lookup or after it: they start lookups of
/// their own.
@usableFromInline
final class AsyncLookupBinding: @unchecked Sendable {
    // @unchecked: `state` is used only through `joinable(running:)`, which hands it out only on the task
    // that runs the lookup, before the lookup ended; that task runs one thing at a time, so the state is
    // never used by two threads at once, as a lookup state must not be.

    /// The lookup's state.
    let state: LookupState
    /// The identity of the task that runs the lookup (see ``currentTask()``).
    private let task: UInt
    /// Set when the lookup has ended: a task started inside it that outlives it must not join it, even if
    /// it later runs in memory that the lookup's task used.
    private let ended = Atomic<Bool>(false)

    /// The async lookup the current task runs, if any.
    @TaskLocal static var current: AsyncLookupBinding?

    /// How many async lookups run in the process. While none does, the synchronous door does not read the
    /// task-local value.
    static let running = Atomic<Int>(0)

    init(state: LookupState, task: UInt) {
        self.state = state
        self.task = task
    }

    /// Marks the lookup as ended.
    func end() {
        ended.store(true, ordering: .releasing)
    }

    /// The async lookup the current task runs, when a lookup starting here must join it (or nest in it,
    /// for another registry); nil otherwise.
    @usableFromInline
    static func joinable() -> AsyncLookupBinding? {
        guard running.load(ordering: .relaxed) > 0, let binding = current, let task = currentTask(),
            binding.task == task, !binding.ended.load(ordering: .acquiring)
        else { return nil }
        return binding
    }

    /// The identity of the current task: the address of its task object; nil outside a task.
    static func currentTask() -> UInt? {
        unsafe withUnsafeCurrentTask { task in
            guard let task = unsafe task else { return nil }
            // Sound: `UnsafeCurrentTask` is a single reference to the task object, so its bits are that
            // object's address. They are compared, never dereferenced; while the task runs no other task has
            // that address, and a task made after it ended at the same address finds the binding ended.
            return unsafe unsafeBitCast(task, to: UInt.self)
        }
    }
}
