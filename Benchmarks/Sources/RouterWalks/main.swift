import Router

#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

// The lookups whose walk through the engine's files ARCHITECTURE.md counts ("How many files a walk
// touches"), one kind per run:
//
//     RouterWalks <transient|built-singleton|first-singleton|property-cycle|async> <count>
//
// scripts/check-walks.sh builds this with `-Xswiftc -g`, runs each walk under
// `valgrind --tool=callgrind --toggle-collect='*walkLookup*'` and counts the files of Sources/Router that have
// instructions in the collected part (scripts/count-walk-files.py). Only the `walkLookup…` functions are
// collected: registering and sealing are not part of a walk. Before the collected lookups, one lookup of
// another registry on the same thread makes the thread's context (once per thread, not per walk), and the
// registry of a walk that repeats (all but `first-singleton`) is looked up once, uncollected, first.
// A target of its own, apart from RouterBenchmarks, so that this build needs neither Swinject nor the
// 10,000 generated services.

protocol WalkEngine: AnyObject {}
final class WalkEngineImpl: WalkEngine {}
protocol WalkCar: AnyObject {}
final class WalkCarImpl: WalkCar {
    let engine: any WalkEngine
    init(engine: any WalkEngine) { self.engine = engine }
}
// A(init B) and B.a by property: ARCHITECTURE.md's cycle.
protocol WalkA: AnyObject {}
protocol WalkB: AnyObject { var a: (any WalkA)? { get set } }
final class WalkAImpl: WalkA {
    let b: any WalkB
    init(b: any WalkB) { self.b = b }
}
final class WalkBImpl: WalkB {
    var a: (any WalkA)?
}

extension RoutableService where Destination == any WalkEngine {
    static var walkEngine: Self { Self(declaring: (any WalkEngine).self) }
}
extension RoutableService where Destination == any WalkCar {
    static var walkCar: Self { Self(declaring: (any WalkCar).self) }
}
extension RoutableService where Destination == any WalkA {
    static var walkA: Self { Self(declaring: (any WalkA).self) }
}
extension RoutableService where Destination == any WalkB {
    static var walkB: Self { Self(declaring: (any WalkB).self) }
}

/// Folds an object's address into a checksum, so the optimizer must keep every object made.
func mix(_ checksum: UInt, _ object: AnyObject) -> UInt {
    (checksum &* 31) &+ UInt(bitPattern: ObjectIdentifier(object))
}

// The collected lookups, one function each so that a profile shows which walk it is.

/// A transient with no dependencies, or a built singleton (the registry decides).
@inline(never)
func walkLookupEngine(_ registry: RouteRegistry) throws -> any WalkEngine {
    try registry.makeDestination(to: .walkEngine)
}

/// A singleton with one dependency, `WalkCarImpl(engine:)`.
@inline(never)
func walkLookupCar(_ registry: RouteRegistry) throws -> any WalkCar {
    try registry.makeDestination(to: .walkCar)
}

/// A(init B), B.a by property; breaks the cycle so the objects go.
@inline(never)
func walkLookupCycle(_ registry: RouteRegistry) throws -> any WalkA {
    let a = try registry.makeDestination(to: .walkA)
    (a as? WalkAImpl)?.b.a = nil
    return a
}

/// Where an async lookup started on this thread leaves its object.
final class AsyncResult: @unchecked Sendable {  // written by the task and read after it, on one thread
    var made: (any WalkEngine)?
    var failure: (any Error)?
}

/// An async lookup run as a task that starts on this thread (`Task.immediate`). None of its steps
/// suspends, so the whole lookup runs before this returns, inside its caller's frame. (Collecting an
/// async function by name would miss most of the lookup: it hands over to its callees by tail calls,
/// which end its collection.)
@inline(__always)
func lookUpAsyncOnThisThread(_ registry: RouteRegistry) throws -> any WalkEngine {
    let result = AsyncResult()
    Task.immediate {
        do {
            result.made = try await registry.makeDestinationAsync(to: .walkEngine)
        } catch {
            result.failure = error
        }
    }
    if let failure = result.failure { throw failure }
    guard let made = result.made else { throw WalkError.suspended }
    return made
}

/// A transient with an async factory and no dependencies, looked up from a nonisolated task.
@inline(never)
func walkLookupAsync(_ registry: RouteRegistry) throws -> any WalkEngine {
    try lookUpAsyncOnThisThread(registry)
}

func sealed(_ register: (RouteRegistry) throws -> Void) throws -> RouteRegistry {
    let registry = RouteRegistry()
    try register(registry)
    try registry.seal()
    return registry
}

/// A registry of one transient `WalkEngine`, made synchronously.
func engineRegistry() throws -> RouteRegistry {
    try sealed { registry in try registry.register(.walkEngine) { _ in WalkEngineImpl() } }
}

func run(_ walk: String, count: Int) throws -> UInt {
    // One lookup before the collected ones makes this thread's context.
    var sum = mix(0, try engineRegistry().makeDestination(to: .walkEngine))
    switch walk {
    case "transient":
        let registry = try engineRegistry()
        sum = mix(sum, try registry.makeDestination(to: .walkEngine))
        for _ in 0..<count { sum = mix(sum, try walkLookupEngine(registry)) }
    case "built-singleton":
        let registry = try sealed { registry in
            try registry.register(.walkEngine) { _ in WalkEngineImpl() }.scope(.singleton)
        }
        sum = mix(sum, try registry.makeDestination(to: .walkEngine))
        for _ in 0..<count { sum = mix(sum, try walkLookupEngine(registry)) }
    case "first-singleton":
        // A fresh registry each time, so that the singleton is built every time.
        for _ in 0..<count {
            let registry = try sealed { registry in
                try registry.register(.walkEngine) { _ in WalkEngineImpl() }
                try registry.register(.walkCar) { r in WalkCarImpl(engine: try r.resolve(.walkEngine)) }
                    .scope(.singleton)
            }
            sum = mix(sum, try walkLookupCar(registry))
        }
    case "async":
        let registry = try sealed { registry in try registry.registerAsync(.walkEngine) { _ in WalkEngineImpl() } }
        sum = mix(sum, try lookUpAsyncOnThisThread(registry))
        for _ in 0..<count { sum = mix(sum, try walkLookupAsync(registry)) }
    case "property-cycle":
        let registry = try sealed { registry in
            try registry.register(.walkA) { r in WalkAImpl(b: try r.resolve(.walkB)) }
            try registry.register(.walkB) { _ in WalkBImpl() }.injecting(\.a, .walkA)
        }
        let warmUp = try registry.makeDestination(to: .walkA)
        (warmUp as? WalkAImpl)?.b.a = nil
        for _ in 0..<count { sum = mix(sum, try walkLookupCycle(registry)) }
    default:
        throw WalkError.usage
    }
    return sum
}

enum WalkError: Error, CustomStringConvertible {
    case usage
    case suspended
    var description: String {
        switch self {
        case .usage: "usage: RouterWalks <transient|built-singleton|first-singleton|property-cycle|async> <count>"
        case .suspended: "the async lookup suspended: the part after its suspension ran elsewhere, uncollected"
        }
    }
}

// Synchronous at the top level: an async main ends the main thread in dispatch's signal wait, which
// valgrind does not survive.
let arguments = CommandLine.arguments
guard arguments.count == 3, let count = Int(arguments[2]) else {
    print(WalkError.usage)
    exit(2)
}
do {
    print("checksum=\(try run(arguments[1], count: count))")
} catch {
    print("\(error)")
    exit(1)
}
