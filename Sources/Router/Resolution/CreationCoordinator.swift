import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The bookkeeping lock of the creation protocol, and the condition threads wait on for another
/// transaction's instance.
///
/// It guards the ``CreationMachine`` (who builds which shared instance, who waits for whom, groups, what
/// is held) and provisional instances. It is never held while user code runs: factories and preparations
/// run outside it, so a factory may wait for another thread's lookup of any other registration.
enum CreationCoordinator {
    /// What the lock guards, for every registry: the creation protocol's state. (A waiting thread, or a
    /// suspended async lookup, is found from its transaction: its condition or continuation is the
    /// transaction's, and the machine names the transactions whose waits ended.)
    struct Shared {
        var machine = EngineCreationMachine()
    }

    /// The lock and what it guards.
    private static let monitor = Monitor(Shared())

    /// The lock's proof, for ``wait(_:_:)`` and ``park(_:_:_:)``.
    typealias Held = Monitor<Shared>.Held

    /// Runs `body` holding the lock, with the creation machine, then wakes the waiting threads and async
    /// lookups if the machine says a wait ended. `body` must not call user code.
    static func run<Result>(_ body: (inout EngineCreationMachine) throws -> Result) rethrows -> Result {
        try runWaiting { shared, _ in try body(&shared.machine) }
    }

    /// ``run(_:)`` for a body that may wait (``wait(_:_:)``) or park an async lookup (``park(_:_:_:)``):
    /// it gets the parked list too, and the lock's proof.
    static func runWaiting<Result>(
        _ body: (inout Shared, borrowing Held) throws -> Result
    ) rethrows -> Result {
        var resumed: [CheckedContinuation<Void, Never>] = []
        defer { for waiter in resumed { waiter.resume() } }
        return try monitor.withLock { shared, held in
            defer {
                #if DEBUG
                    // A broken invariant is a bug of this library, never of the caller: stop where it happened.
                    // Checked while the machine is small (the check walks all of it, and a chain of a thousand
                    // shared instances in one lookup would make every event quadratic); the explorer checks
                    // every state.
                    if shared.machine.size <= 64 {
                        let problems = shared.machine.invariantViolations()
                        assert(problems.isEmpty, "creation machine: \(problems.joined(separator: "; "))")
                    }
                #endif
                resumed = wake(&shared, held)
            }
            return try body(&shared, held)
        }
    }

    /// Waits until an event ends `txn`'s wait (or its group's end, for a member waiting in
    /// ``CreationTransaction/commit()``) and signals its condition; call inside ``runWaiting(_:)``, in a loop
    /// that looks at the machine again after each return. Wakes the others first if the machine says a wait
    /// ended (a merge may have done so just before this thread waits); when that resumes parked async
    /// lookups, it returns at once instead of waiting, having released the lock while it resumed them.
    static func wait(_ shared: inout Shared, _ held: borrowing Held, for txn: CreationTransaction) {
        let resumed = wake(&shared, held)
        guard resumed.isEmpty else {
            // Resumed without the lock: a task executor may run the task before `resume` returns, and the
            // task may take the lock.
            monitor.unlocked(held) { for waiter in resumed { waiter.resume() } }
            return
        }
        let condition: MonitorCondition
        if let made = txn.wake.condition {
            condition = made
        } else {
            condition = MonitorCondition()
            txn.wake.condition = condition
        }
        monitor.wait(on: condition, held)
    }

    /// Suspends the async lookup of `txn`, whose wait the machine just recorded, until the wait ends;
    /// call inside ``runWaiting(_:)``, with the continuation of the suspending task.
    static func park(
        _ shared: inout Shared, _ txn: CreationTransaction, _ waiter: CheckedContinuation<Void, Never>
    ) {
        txn.wake.parked = waiter
    }

    /// If the machine says a wait ended: wakes each transaction whose wait ended, and no other. A thread
    /// waiting is signalled on its own condition; a parked async lookup's continuation is taken from its
    /// transaction, for the caller to resume once it released the lock.
    private static func wake(_ shared: inout Shared, _ held: borrowing Held) -> [CheckedContinuation<Void, Never>] {
        guard shared.machine.needsWake else { return [] }
        var resumed: [CheckedContinuation<Void, Never>] = []
        for txn in shared.machine.takeWoken() {
            let transaction = txn.object
            if let waiter = transaction.wake.parked {
                // Still waiting (for another cell since): a later event ends that wait and wakes it.
                if shared.machine.isWaiting(txn) { continue }
                transaction.wake.parked = nil
                resumed.append(waiter)
            } else if let condition = transaction.wake.condition {
                monitor.signal(condition, held)
            }
        }
        return resumed
    }
}

/// What the coordinator keeps on a transaction to wake its lookup when its wait ends. Its fields are
/// `fileprivate`: only ``CreationCoordinator``, in this file, reads or writes them, under its lock.
struct CoordinatorWake {
    /// The continuation of its async lookup while it is suspended waiting (``CreationCoordinator/park(_:_:_:)``):
    /// the event that ends the wait resumes it, found from the transaction the machine names, not from a list
    /// of every suspended lookup.
    fileprivate var parked: CheckedContinuation<Void, Never>?
    /// The condition its thread waits on while it blocks waiting (made at its first blocking wait): the event
    /// that ends the wait signals this thread only.
    fileprivate var condition: MonitorCondition?
}
