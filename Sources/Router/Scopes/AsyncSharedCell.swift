import Synchronization

/// Holds one shared instance built by an async factory: at most one build runs at a time, in the
/// context of the lookup that started it (so cycle detection sees its ancestors); other lookups wait
/// for it without blocking a thread and share the result. A failed build lets the next lookup try again.
///
/// A wait that would close a cycle of waits between lookups (two tasks each building an async singleton
/// the other needs) is a `circularDependency` error instead of a hang: before waiting, a lookup records
/// whom it waits for with the ``CreationCoordinator`` and checks that the owner does not wait for it.
final class AsyncSharedCell<Value>: @unchecked Sendable {
    // @unchecked: `value` is written once inside `state`'s lock before the phase becomes `.done`, and
    // read only after the phase was seen as `.done` inside the same lock.
    private enum Phase {
        case empty
        case running(owner: CreationTransaction, waiters: [CheckedContinuation<Void, Never>])
        case done
    }

    private let state = Locked<Phase>(.empty)
    private nonisolated(unsafe) var value: Value?

    /// The instance, built by `make` if nobody has built it, or by the lookup already building it.
    /// - Parameters:
    ///   - transaction: The creation transaction of the asking lookup.
    ///   - entry: The registration, for messages.
    ///   - path: The asking lookup's path to the registration, for messages.
    ///   - make: Builds the instance.
    /// - Returns: The shared instance.
    /// - Throws: What `make` throws, or ``RouteError/Code/circularDependency`` when waiting would close a
    ///   cycle of waits.
    nonisolated(nonsending) func getOrCreate(
        by transaction: CreationTransaction, entry: AnyEntry, path: [String],
        _ make: nonisolated(nonsending) () async throws -> Value
    ) async throws -> Value {
        while true {
            var owner: CreationTransaction?
            let found = state.withLock { phase -> Value?? in
                switch phase {
                case .empty:
                    phase = .running(owner: transaction, waiters: [])
                    return .some(nil)
                case .running(let running, _):
                    owner = running
                    return nil
                case .done:
                    return unsafe .some(value)
                }
            }
            if let found {
                if let found { return found }
                transaction.noteClaim(entry)
                return try await build(make)
            }
            guard let owner else { continue }
            if owner === transaction { throw RouteError.circular(path, entry: entry) }
            let otherSide = transaction.beginExternalWait(for: owner, entry: entry)
            if let otherSide { throw RouteError.circularAcrossThreads(entry, here: path, there: otherSide) }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let wait = state.withLock { phase -> Bool in
                    guard case .running(let running, var waiters) = phase else { return false }
                    waiters.append(continuation)
                    phase = .running(owner: running, waiters: waiters)
                    return true
                }
                if !wait { continuation.resume() }
            }
            transaction.endExternalWait()
        }
    }

    private nonisolated(nonsending) func build(_ make: nonisolated(nonsending) () async throws -> Value) async throws
        -> Value
    {
        do {
            let made = try await make()
            let waiters = state.withLock { phase -> [CheckedContinuation<Void, Never>] in
                unsafe value = made
                defer { phase = .done }
                if case .running(_, let waiters) = phase { return waiters }
                return []
            }
            for waiter in waiters { waiter.resume() }
            return made
        } catch {
            let waiters = state.withLock { phase -> [CheckedContinuation<Void, Never>] in
                defer { phase = .empty }
                if case .running(_, let waiters) = phase { return waiters }
                return []
            }
            for waiter in waiters { waiter.resume() }
            throw error
        }
    }
}
