import Synchronization

/// Holds one shared instance built by an async factory: at most one build runs at a time, in the
/// context of the lookup that started it (so cycle detection sees its ancestors); other lookups wait
/// for it and share the result. A failed build lets the next lookup try again.
final class AsyncSharedCell<Value>: @unchecked Sendable {
    // @unchecked: `value` is written once inside `state`'s lock before the phase becomes `.done`, and
    // read only after the phase was seen as `.done` inside the same lock.
    private enum Phase {
        case empty
        case running([CheckedContinuation<Void, Never>])
        case done
    }

    private let state = Locked<Phase>(.empty)
    private nonisolated(unsafe) var value: Value?

    func getOrCreate(_ make: () async throws -> Value) async throws -> Value {
        while true {
            var mine = false
            var done = false
            state.withLock { phase in
                switch phase {
                case .empty:
                    phase = .running([])
                    mine = true
                case .running: break
                case .done: done = true
                }
            }
            if done, let value { return value }
            if mine { return try await build(make) }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let wait = state.withLock { phase -> Bool in
                    guard case .running(var waiters) = phase else { return false }
                    waiters.append(continuation)
                    phase = .running(waiters)
                    return true
                }
                if !wait { continuation.resume() }
            }
        }
    }

    private func build(_ make: () async throws -> Value) async throws -> Value {
        do {
            let made = try await make()
            let waiters = state.withLock { phase -> [CheckedContinuation<Void, Never>] in
                value = made
                defer { phase = .done }
                if case .running(let waiters) = phase { return waiters }
                return []
            }
            for waiter in waiters { waiter.resume() }
            return made
        } catch {
            let waiters = state.withLock { phase -> [CheckedContinuation<Void, Never>] in
                defer { phase = .empty }
                if case .running(let waiters) = phase { return waiters }
                return []
            }
            for waiter in waiters { waiter.resume() }
            throw error
        }
    }
}
