import Foundation
import Router
import Synchronization

// s17: requests in flight (issue 44). Tasks run requests back to back, 2 or 256 of them at once; a request
// opens a request scope, supplies its context and makes a tree of four request-scoped instances whose root
// comes from an async factory that suspends once. The same tree through a child registry per request, and
// by hand. Reported as requests per second and as ratios, which the machine's speed cancels out of:
// each variant at 256 against itself at 2, and the request scope against the child registry at each.
//
//   swift run -c release --package-path Benchmarks RouterBenchmarks --load [--check]

/// The request's root: request-scoped, from an async factory that suspends once.
protocol LoadHandler: AnyObject, Sendable {}
/// Its three request-scoped dependencies (the first reads the request's context).
protocol LoadLogger: AnyObject, Sendable {}
protocol LoadStore: AnyObject, Sendable {}
protocol LoadAudit: AnyObject, Sendable {}
final class LoadLoggerImpl: LoadLogger {
    let context: any RequestContext
    init(context: any RequestContext) { self.context = context }
}
final class LoadStoreImpl: LoadStore {}
final class LoadAuditImpl: LoadAudit {}
final class LoadHandlerImpl: LoadHandler {
    let logger: any LoadLogger
    let store: any LoadStore
    let audit: any LoadAudit
    init(logger: any LoadLogger, store: any LoadStore, audit: any LoadAudit) {
        self.logger = logger
        self.store = store
        self.audit = audit
    }
}
extension RoutableService where Destination == any LoadHandler {
    static var loadHandler: Self { Self(declaring: (any LoadHandler).self) }
}
extension RoutableService where Destination == any LoadLogger {
    static var loadLogger: Self { Self(declaring: (any LoadLogger).self) }
}
extension RoutableService where Destination == any LoadStore {
    static var loadStore: Self { Self(declaring: (any LoadStore).self) }
}
extension RoutableService where Destination == any LoadAudit {
    static var loadAudit: Self { Self(declaring: (any LoadAudit).self) }
}

/// The tree's registrations: request-scoped (`scope`) or transient, with the context supplied per scope or
/// registered (by each child registry; here a placeholder so that the parent seals). `suspends`: the root's
/// factory suspends once (false for the callgrind profile, which must not leave the main thread).
func registerLoadServices(in registry: RouteRegistry, requestScoped: Bool, suspends: Bool = true) throws {
    if requestScoped {
        try registry.registerSupplied(.requestContext)
    } else {
        try registry.register(.requestContext) { _ in RequestContextValue(id: -1) }
    }
    let scope: Scope = requestScoped ? .request : .transient
    try registry.register(.loadLogger) { r in LoadLoggerImpl(context: try r.resolve(.requestContext)) }
        .scope(scope)
    try registry.register(.loadStore) { _ in LoadStoreImpl() }.scope(scope)
    try registry.register(.loadAudit) { _ in LoadAuditImpl() }.scope(scope)
    try registry.registerAsync(.loadHandler) { r async throws in
        if suspends { await Task.yield() }
        return LoadHandlerImpl(
            logger: try r.resolve(.loadLogger), store: try r.resolve(.loadStore), audit: try r.resolve(.loadAudit))
    }.scope(scope)
}

/// The variants of s17.
enum LoadVariant: String, CaseIterable, Sendable {
    case requestScope = "request scope"
    case childRegistry = "child registry"
    case handwired = "hand-wired"

    /// One request, on the caller's executor.
    @inline(never)
    nonisolated(nonsending) func request(_ registry: RouteRegistry, _ id: Int) async throws -> any LoadHandler {
        switch self {
        case .requestScope:
            let scope = registry.openRequestScope()
            defer { scope.end() }
            try scope.supply(RequestContextValue(id: id), for: .requestContext)
            return try await scope.makeDestinationAsync(to: .loadHandler)
        case .childRegistry:
            let child = RouteRegistry(parent: registry)
            let context = RequestContextValue(id: id)
            try child.register(.requestContext) { _ in context }
            try child.seal()
            return try await child.makeDestinationAsync(to: .loadHandler)
        case .handwired:
            let context = RequestContextValue(id: id)
            await Task.yield()
            return LoadHandlerImpl(
                logger: LoadLoggerImpl(context: context), store: LoadStoreImpl(), audit: LoadAuditImpl())
        }
    }
}

/// What the workers of one s17 measurement share: when to stop, and how many requests they finished.
final class LoadRun: Sendable {
    let stop = Atomic<Bool>(false)
    let done = Atomic<Int>(0)
}

/// Requests per second of `variant` with `inFlight` tasks running requests back to back for `nanos`.
func loadRate(_ variant: LoadVariant, registry: RouteRegistry, inFlight: Int, nanos duration: UInt64) async throws
    -> Double
{
    let run = LoadRun()
    let start = nanos()
    try await withThrowingTaskGroup(of: Void.self) { group in
        for worker in 0..<inFlight {
            group.addTask {
                var count = 0
                var sum: UInt = 0
                while !run.stop.load(ordering: .relaxed) {
                    sum = mix(sum, try await variant.request(registry, worker &* 1_000_000 &+ count))
                    count += 1
                }
                run.done.add(count, ordering: .relaxed)
                if sum == 1 { print("") }  // keeps the objects observable
            }
        }
        try await Task.sleep(nanoseconds: duration)
        run.stop.store(true, ordering: .relaxed)
        try await group.waitForAll()
    }
    let elapsed = nanos() - start
    return Double(run.done.load(ordering: .relaxed)) / (Double(max(elapsed, 1)) / 1e9)
}

/// `--load [--check]`: s17's rates and ratios, each the median over 7 rounds. A round measures each variant at
/// 2 and then at 256 in flight, back to back, so that a ratio compares two runs under the same conditions of
/// the machine; the median over rounds drops the odd round a neighbouring process slowed (the best of each
/// level, as reported before, paired a lucky round at 2 with an ordinary one at 256 and swung 0.70–0.91 on
/// an idle machine). With `--check`, fails (exit 1) when the request scope at 256 keeps less than 0.7 of its
/// rate at 2, or serves less than 0.9 of a child registry's rate at either level: floors below issue 44's
/// targets (256/2 ≥ 0.8, and at least the child registry's rate at both), which are printed as met or not,
/// so that a CI machine busy with other work does not fail a build the targets hold for, while the collapse
/// a lookup's cost growing with the lookups in flight gives (0.12 when every creation event walked them all,
/// 0.65 when every async lookup scanned one process-wide list of them) still fails it.
func runLoadProfile(check: Bool) async throws -> Bool {
    let scoped = RouteRegistry()
    try registerLoadServices(in: scoped, requestScoped: true)
    try scoped.seal()
    let parent = RouteRegistry()
    try registerLoadServices(in: parent, requestScoped: false)
    try parent.seal()
    // `LOAD_ONLY=<variant>@<level>` (e.g. `request scope@256`) runs that one measurement for `LOAD_SECONDS`, for
    // `perf record`.
    if let only = ProcessInfo.processInfo.environment["LOAD_ONLY"] {
        let parts = only.split(separator: "@")
        guard parts.count == 2, let variant = LoadVariant(rawValue: String(parts[0])), let level = Int(parts[1]) else {
            throw BenchmarkError.unexpected("LOAD_ONLY=<variant>@<level>, e.g. 'request scope@256'")
        }
        let seconds = Double(ProcessInfo.processInfo.environment["LOAD_SECONDS"] ?? "5") ?? 5
        let rate = try await loadRate(
            variant, registry: variant == .requestScope ? scoped : parent, inFlight: level,
            nanos: UInt64(seconds * 1e9))
        print(String(format: "%@: %.0f requests per second", only, rate))
        return true
    }
    let rounds = 7
    let duration: UInt64 = 250_000_000
    // Per round: each variant's rate at 2 and at 256.
    var measured: [[LoadVariant: (low: Double, high: Double)]] = []
    for _ in 0..<rounds {
        var round: [LoadVariant: (low: Double, high: Double)] = [:]
        for variant in LoadVariant.allCases {
            let registry = variant == .requestScope ? scoped : parent
            let low = try await loadRate(variant, registry: registry, inFlight: 2, nanos: duration)
            let high = try await loadRate(variant, registry: registry, inFlight: 256, nanos: duration)
            round[variant] = (low, high)
        }
        measured.append(round)
    }
    func median(_ value: ([LoadVariant: (low: Double, high: Double)]) -> Double) -> Double {
        let sorted = measured.map(value).sorted()
        return sorted[sorted.count / 2]
    }
    print("s17: requests per second, medians of \(rounds) rounds of \(duration / 1_000_000) ms per level")
    print("variant".padding(toLength: 16, withPad: " ", startingAt: 0) + "      at 2    at 256   256/2")
    for variant in LoadVariant.allCases {
        let low = median { $0[variant]?.low ?? 0 }
        let high = median { $0[variant]?.high ?? 0 }
        let scaling = median { ($0[variant]?.high ?? 0) / max($0[variant]?.low ?? 0, 1) }
        print(
            variant.rawValue.padding(toLength: 16, withPad: " ", startingAt: 0)
                + String(format: "%10.0f%10.0f%8.2f", low, high, scaling))
    }
    let scaling = median { ($0[.requestScope]?.high ?? 0) / max($0[.requestScope]?.low ?? 0, 1) }
    let atLow = median { ($0[.requestScope]?.low ?? 0) / max($0[.childRegistry]?.low ?? 0, 1) }
    let atHigh = median { ($0[.requestScope]?.high ?? 0) / max($0[.childRegistry]?.high ?? 0, 1) }
    print(String(format: "request scope / child registry: %.2f at 2, %.2f at 256", atLow, atHigh))
    let targetsMet = scaling >= 0.8 && atLow >= 1 && atHigh >= 1
    print(
        "issue 44's targets (request scope 256/2 ≥ 0.80, and ≥ child registry at 2 and at 256): "
            + (targetsMet ? "met" : "NOT met"))
    let passed = scaling >= 0.7 && atLow >= 0.9 && atHigh >= 0.9
    if check {
        print(
            passed
                ? String(
                    format: "s17: passed (request scope 256/2 = %.2f ≥ 0.70; / child registry %.2f and %.2f ≥ 0.90)",
                    scaling, atLow, atHigh)
                : String(
                    format:
                        "s17: FAILED: request scope 256/2 = %.2f (floor 0.70), / child registry %.2f at 2 and %.2f at 256 (floor 0.90)",
                    scaling, atLow, atHigh))
    }
    return passed || !check
}

/// `--profile s17 <router|child> <count>`: `count` s17 requests one after another, through a request scope
/// (`router`) or a child registry per request (`child`), with no suspension in the root's factory, for
/// `valgrind --tool=callgrind` (instructions per request: the difference of two counts, over their
/// difference). On the main actor, every async call `nonisolated(nonsending)`: callgrind fails once the
/// cooperative pool starts its threads.
@MainActor
func runLoadRequestProfile(_ arguments: [String]) async throws -> UInt {
    guard arguments.count >= 3, let count = Int(arguments[2]), ["router", "child"].contains(arguments[1]) else {
        throw BenchmarkError.unexpected("usage: --profile s17 <router|child> <count>")
    }
    let scoped = arguments[1] == "router"
    let registry = RouteRegistry()
    try registerLoadServices(in: registry, requestScoped: scoped, suspends: false)
    try registry.seal()
    let variant: LoadVariant = scoped ? .requestScope : .childRegistry
    var sum: UInt = 0
    for index in 0..<count { sum = mix(sum, try await variant.request(registry, index)) }
    return sum
}
