import Router
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// Shared pieces of the reliability suite (issue 7): the long-run switch, a seeded generator, and the
// small services the stress, memory and random-graph tests build.

/// Whether the long runs were asked for with `ROUTER_LONG_TESTS=1`.
let relLongTests: Bool = {
    guard let raw = getenv("ROUTER_LONG_TESTS") else { return false }
    return String(cString: raw) == "1"
}()

/// SplitMix64: a tiny, fully reproducible generator, so a failing seed can be replayed.
struct RelSplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A number in `0..<bound`, taken from the high bits (no dependence on the standard library's algorithm).
    mutating func below(_ bound: Int) -> Int {
        guard bound > 1 else { return 0 }
        return Int((next() >> 11) % UInt64(bound))
    }

    /// True with probability `percent`/100.
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
}

/// Per-index factory call counts, safe from any thread.
final class RelCounts: Sendable {
    private let storage: TestLocked<[Int]>

    init(size: Int) { storage = TestLocked([Int](repeating: 0, count: size)) }

    func increment(_ index: Int) { storage.withLock { $0[index] += 1 } }

    var values: [Int] { storage.withLock { $0 } }
}

/// A weak reference that can be handed out of the function that held the strong one.
struct RelWeak {
    weak var object: AnyObject?
    init(_ object: AnyObject) { self.object = object }
    var isFreed: Bool { object == nil }
}

// MARK: Services used by the stress and memory tests

protocol RelLeaf: AnyObject { var serial: Int { get } }
protocol RelPanel: AnyObject {
    var left: any Wheel { get }
    var right: any Wheel { get }
    var engine: any Engine { get }
}
protocol RelSession: AnyObject { var generation: Int { get } }
protocol RelOwner: AnyObject {
    var part: (any RelPart)? { get set }
}
protocol RelPart: AnyObject {
    var owner: (any RelOwner)? { get set }
}
protocol RelHolder: AnyObject {
    var payload: any RelLeaf { get }
    var lazyLeaf: Lazy<any RelLeaf>? { get }
    var leafProvider: Provider<any RelLeaf>? { get }
}
protocol RelStore: AnyObject, Sendable { var serial: Int { get } }

extension RoutableService where Destination == any RelLeaf {
    static var relLeaf: Self { Self(declaring: (any RelLeaf).self) }
}
extension RoutableService where Destination == any RelPanel {
    static var relPanel: Self { Self(declaring: (any RelPanel).self) }
}
extension RoutableService where Destination == any RelSession {
    static var relSession: Self { Self(declaring: (any RelSession).self) }
}
extension RoutableService where Destination == any RelOwner {
    static var relOwner: Self { Self(declaring: (any RelOwner).self) }
}
extension RoutableService where Destination == any RelPart {
    static var relPart: Self { Self(declaring: (any RelPart).self) }
}
extension RoutableService where Destination == any RelHolder {
    static var relHolder: Self { Self(declaring: (any RelHolder).self) }
}
extension RoutableService where Destination == any RelStore {
    static var relStore: Self { Self(declaring: (any RelStore).self) }
}

final class RelLeafImpl: RelLeaf {
    let serial: Int
    init(serial: Int) { self.serial = serial }
}

final class RelPanelImpl: RelPanel {
    let left: any Wheel
    let right: any Wheel
    let engine: any Engine
    init(left: any Wheel, right: any Wheel, engine: any Engine) {
        self.left = left
        self.right = right
        self.engine = engine
    }
}

final class RelSessionImpl: RelSession {
    let generation: Int
    init(generation: Int) { self.generation = generation }
}

final class RelOwnerImpl: RelOwner {
    var part: (any RelPart)?
}

/// Holds its owner weakly, so an owner ⇄ part cycle built by the router is freed with the owner.
final class RelPartImpl: RelPart {
    weak var owner: (any RelOwner)?
}

/// Holds a leaf and, optionally, a way to make more leaves later.
final class RelHolderImpl: RelHolder {
    let payload: any RelLeaf
    let lazyLeaf: Lazy<any RelLeaf>?
    let leafProvider: Provider<any RelLeaf>?
    init(payload: any RelLeaf, lazyLeaf: Lazy<any RelLeaf>? = nil, leafProvider: Provider<any RelLeaf>? = nil) {
        self.payload = payload
        self.lazyLeaf = lazyLeaf
        self.leafProvider = leafProvider
    }
}

final class RelStoreImpl: RelStore {
    let serial: Int
    init(serial: Int) { self.serial = serial }
}
