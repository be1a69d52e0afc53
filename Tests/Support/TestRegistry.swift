import Foundation
import Router
import ShopInterfaces

/// Builds a sealed registry from the modules under test plus fakes for what they require, so that a
/// feature is tested alone, without loading the other features.
/// - Parameters:
///   - modules: The modules under test, usually one.
///   - fakes: Registers fakes of what the modules require.
/// - Returns: The sealed registry.
/// - Throws: `RouteError` when a module or fake cannot be registered, or sealing finds a problem.
public func testRegistry(
    _ modules: [any RouteModule], fakes: (RouteRegistry) throws -> Void = { _ in }
) throws -> RouteRegistry {
    let registry = RouteRegistry()
    for module in modules { try registry.load(module) }
    try fakes(registry)
    try registry.seal()
    return registry
}

/// A book for tests, priced $20.00.
public let sampleBook = Book(id: 100, title: "Test Driven Swift", author: "Tess Ter", priceCents: 2_000)
/// Another book for tests, priced $15.00.
public let otherBook = Book(id: 101, title: "Fakes and Stubs", author: "Stu Bb", priceCents: 1_500)

/// State behind an `NSLock`. The tests use it instead of `Synchronization.Mutex` because ThreadSanitizer
/// sees pthread locks (which `NSLock` is built on) and not the futex-based `Mutex`.
public final class TestLocked<State>: @unchecked Sendable {
    // @unchecked: `state` is only reached inside `withLock`, which holds `lock`.
    private let lock = NSLock()
    private var state: State

    /// Makes the lock around `state`.
    /// - Parameter state: The initial state.
    public init(_ state: State) { self.state = state }

    /// Runs `body` on the state while holding the lock.
    /// - Parameter body: Reads or changes the state.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    public func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}
