import Foundation
import Modules
import Router
import Synchronization

/// Builds a sealed registry from the module under test plus fakes for its collaborators, for the tests
/// that check a module in isolation.
func testRegistry(
    _ modules: [any RouteModule], fakes: (RouteRegistry) throws -> Void = { _ in }
) throws -> RouteRegistry {
    let registry = RouteRegistry()
    for module in modules { try registry.load(module) }
    try fakes(registry)
    try registry.seal()
    return registry
}

final class FakeSession: UserSession {
    private let user: TestLocked<String?>

    init(user: String?) {
        self.user = TestLocked(user)
    }

    var currentUser: String? { user.withLock { $0 } }

    func signIn(_ name: String) -> Bool {
        user.withLock { user in
            guard user == nil else { return false }
            user = name
            return true
        }
    }

    func signOut() -> String? {
        user.withLock { user in
            defer { user = nil }
            return user
        }
    }
}

final class FakeCart: Cart {
    let owner: String
    private let books: TestLocked<[Book]>

    init(owner: String, items: [Book] = []) {
        self.owner = owner
        self.books = TestLocked(items)
    }

    var items: [Book] { books.withLock { $0 } }

    func add(_ book: Book) { books.withLock { $0.append(book) } }

    func removeAll() { books.withLock { $0.removeAll() } }
}

final class FakeCartConfiguration: ModuleConfiguration<any Cart>, CartModuleConfig {
    var owner: String?

    func constructCart(owner: String) { self.owner = owner }
}

final class FakePayment: PaymentProcessing {
    private let calls = TestLocked<[(cents: Int, customer: String)]>([])
    private let outcome: PaymentOutcome

    init(outcome: PaymentOutcome) {
        self.outcome = outcome
    }

    var charges: [Int] { calls.withLock { $0.map(\.cents) } }

    func pay(amountCents: Int, customer: String) -> PaymentOutcome {
        calls.withLock { $0.append((amountCents, customer)) }
        return outcome
    }
}

final class FakeGateway: PaymentGateway {
    let answer: GatewayCharge

    init(answer: GatewayCharge) {
        self.answer = answer
    }

    func charge(cents: Int, customer: String) -> GatewayCharge { answer }
}

/// Declines every charge, as a test override of the payments module's gateway.
final class DecliningGateway: PaymentGateway {
    func charge(cents: Int, customer: String) -> GatewayCharge {
        GatewayCharge(approved: false, transactionID: "", message: "no funds")
    }
}

/// The whole shop, sealed, with a fresh per-user scope: the base that test overrides replace parts of.
func shopRegistry(userScope: CustomScope = CustomScope("user")) throws -> RouteRegistry {
    try RouteRegistry(modules: ShopModules.all(userScope: userScope))
}

/// Collects what a registry's error handler receives.
final class ErrorLog: Sendable {
    private let errors = TestLocked<[RouteError]>([])

    var all: [RouteError] { errors.withLock { $0 } }

    func record(_ error: RouteError) { errors.withLock { $0.append(error) } }
}

struct FixedBadge: BadgeCounter {
    let label: String
    let count: Int
}

let sampleBook = Book(id: 100, title: "Test Driven Swift", author: "Tess Ter", priceCents: 2_000)
let otherBook = Book(id: 101, title: "Fakes and Stubs", author: "Stu Bb", priceCents: 1_500)

/// State behind an `NSLock`. The tests use it instead of `Synchronization.Mutex` because ThreadSanitizer
/// sees pthread locks (which `NSLock` is built on) and not the futex-based `Mutex`.
final class TestLocked<State>: @unchecked Sendable {
    // @unchecked: `state` is only reached inside `withLock`, which holds `lock`.
    private let lock = NSLock()
    private var state: State

    init(_ state: State) { self.state = state }

    func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}
