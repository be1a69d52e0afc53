import Dependencies
import Foundation
import Router
import Synchronization

// Point-Free's swift-dependencies 1.17.1 beside hand-wired code and Router, for the scenarios its model
// can express. A separate executable, so that the benchmarks CI runs do not build it:
//   swift run -c release --package-path Benchmarks DependenciesPeer [--quick]
//   swift run -c release --package-path Benchmarks DependenciesPeer --profile <s1|s3|o1> <handwired|router|dependencies> N
//
// Its model: a dependency is a key type with a `liveValue`, built once per process and cached, read
// through `DependencyValues` (a task-local) with `@Dependency`. A transient service is therefore a
// factory stored as a dependency and called after the lookup (s1); a singleton is the cached value (s3);
// an override is `withDependencies` (o1). It has no resolver inside a factory, so no graph of services
// resolved by the container, no cycle handling and no scopes other than "built once".

// MARK: Services (the same shapes as RouterBenchmarks')

protocol Engine: AnyObject {}
final class V8: Engine {}
final class FakeEngine: Engine {}
extension RoutableService where Destination == any Engine {
    static var engine: Self { Self(declaring: (any Engine).self) }
}

protocol Settings: AnyObject, Sendable {}
final class SettingsImpl: Settings {}
extension RoutableService where Destination == any Settings {
    static var settings: Self { Self(declaring: (any Settings).self) }
}

@inline(never)
func makeEngineByHand() -> any Engine { V8() }

/// Hand-wired singleton: one instance in a stored property, read from one of two holders so that the read
/// stays inside the loop (as in RouterBenchmarks).
final class SettingsHolder: Sendable {
    let settings: any Settings
    init(_ settings: any Settings) { self.settings = settings }
}
@inline(never)
func settingsByHand(_ holders: [SettingsHolder], _ index: Int) -> any Settings { holders[index & 1].settings }

// MARK: swift-dependencies keys

/// A transient service in swift-dependencies' model: a factory held as the dependency's value.
struct EngineFactory: Sendable {
    var make: @Sendable () -> any Engine
}
enum EngineFactoryKey: DependencyKey {
    static let liveValue = EngineFactory { V8() }
}
enum SettingsKey: DependencyKey {
    static let liveValue: any Settings = SettingsImpl()
}
extension DependencyValues {
    var engineFactory: EngineFactory {
        get { self[EngineFactoryKey.self] }
        set { self[EngineFactoryKey.self] = newValue }
    }
    var settings: any Settings {
        get { self[SettingsKey.self] }
        set { self[SettingsKey.self] = newValue }
    }
}

/// How an app reads them: `@Dependency` properties of a model, read on every use.
struct Model {
    @Dependency(\.engineFactory) var engineFactory
    @Dependency(\.settings) var settings
}

// MARK: Running

@inline(__always)
func mix(_ checksum: UInt, _ object: AnyObject) -> UInt {
    (checksum &* 31) &+ UInt(bitPattern: ObjectIdentifier(object))
}

func nanos() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

enum Variant: String, CaseIterable {
    case handwired, router, dependencies
}

/// One scenario: what each variant does `n` times.
struct Scenario {
    let id: String
    let title: String
    let run: (Variant, Int) throws -> UInt
}

func makeScenarios() throws -> [Scenario] {
    let registry = RouteRegistry()
    try registry.register(.engine) { _ in V8() }
    try registry.register(.settings) { _ in SettingsImpl() }.scope(.singleton)
    try registry.seal()
    _ = try registry.makeDestination(to: .settings)
    let holders = [SettingsHolder(SettingsImpl()), SettingsHolder(SettingsImpl())]
    let model = Model()
    _ = model.settings

    let s1 = Scenario(id: "s1", title: "a transient service, no dependencies") { variant, n in
        var sum: UInt = 0
        switch variant {
        case .handwired: for _ in 0..<n { sum = mix(sum, makeEngineByHand()) }
        case .router: for _ in 0..<n { sum = mix(sum, try registry.makeDestination(to: .engine)) }
        case .dependencies: for _ in 0..<n { sum = mix(sum, model.engineFactory.make()) }
        }
        return sum
    }
    let s3 = Scenario(id: "s3", title: "a singleton, already built") { variant, n in
        var sum: UInt = 0
        switch variant {
        case .handwired: for index in 0..<n { sum = mix(sum, settingsByHand(holders, index)) }
        case .router: for _ in 0..<n { sum = mix(sum, try registry.makeDestination(to: .settings)) }
        case .dependencies: for _ in 0..<n { sum = mix(sum, model.settings) }
        }
        return sum
    }
    // o1: one override installed around a batch of 100 lookups of s1's service, per lookup: what a test
    // pays (the override's set-up spread over the lookups made under it, and each lookup under it).
    let o1 = Scenario(id: "o1", title: "s1 under an override (100 lookups per override)") { variant, n in
        var sum: UInt = 0
        let batches = max(1, n / 100)
        switch variant {
        case .handwired:
            for _ in 0..<batches { for _ in 0..<100 { sum = mix(sum, FakeEngine()) } }
        case .router:
            for _ in 0..<batches {
                try registry.withOverrides { fake in
                    try fake.register(.engine) { _ in FakeEngine() }
                } operation: {
                    for _ in 0..<100 { sum = mix(sum, try registry.makeDestination(to: .engine)) }
                }
            }
        case .dependencies:
            for _ in 0..<batches {
                withDependencies {
                    $0.engineFactory = EngineFactory { FakeEngine() }
                } operation: {
                    let model = Model()
                    for _ in 0..<100 { sum = mix(sum, model.engineFactory.make()) }
                }
            }
        }
        return sum
    }
    return [s1, s3, o1]
}

/// Runs `scenario` with `variant`'s lookups on `threads` threads at once, `n` each; returns the wall time.
func runThreads(_ scenario: Scenario, _ variant: Variant, threads: Int, n: Int) -> UInt64 {
    let ready = Atomic<Int>(0)
    let group = DispatchGroup()
    let start = Mutex<UInt64>(0)
    let box = UncheckedScenario(scenario)
    for _ in 0..<threads {
        group.enter()
        Thread {
            ready.add(1, ordering: .acquiringAndReleasing)
            while ready.load(ordering: .acquiring) < threads {}
            start.withLock { if $0 == 0 { $0 = nanos() } }
            _ = try? box.scenario.run(variant, n)
            group.leave()
        }.start()
    }
    group.wait()
    return nanos() - start.withLock { $0 }
}

/// The scenario's closures capture a registry and a model that are safe to use from any thread.
final class UncheckedScenario: @unchecked Sendable {
    let scenario: Scenario
    init(_ scenario: Scenario) { self.scenario = scenario }
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
}

let arguments = CommandLine.arguments
let scenarios = try makeScenarios()
if let flag = arguments.firstIndex(of: "--profile") {
    // For valgrind --tool=callgrind: instructions per lookup = (Ir at N2 − Ir at N1) / (N2 − N1).
    let rest = Array(arguments[(flag + 1)...])
    guard rest.count == 3, let scenario = scenarios.first(where: { $0.id == rest[0] }),
        let variant = Variant(rawValue: rest[1]), let count = Int(rest[2])
    else {
        print("usage: --profile <s1|s3|o1> <handwired|router|dependencies> N")
        exit(1)
    }
    print("checksum=\(try scenario.run(variant, count))")
    exit(0)
}

let quick = arguments.contains("--quick")
let rounds = quick ? 5 : 21
let batch = quick ? 20_000 : 200_000
var checksum: UInt = 0
print("| scenario | hand-wired | Router | swift-dependencies 1.17.1 |")
print("|---|---:|---:|---:|")
for scenario in scenarios {
    var samples: [Variant: [Double]] = [:]
    for round in 0..<rounds {
        for offset in 0..<Variant.allCases.count {
            let variant = Variant.allCases[(round + offset) % Variant.allCases.count]
            let start = nanos()
            checksum = checksum &+ (try scenario.run(variant, batch))
            samples[variant, default: []].append(Double(nanos() - start) / Double(batch))
        }
    }
    let cells = Variant.allCases.map { String(format: "%.1f ns", median(samples[$0] ?? [])) }
    print("| \(scenario.id) \(scenario.title) | \(cells.joined(separator: " | ")) |")
    for variant in Variant.allCases {
        print("scenario=\(scenario.id) variant=\(variant.rawValue) median_ns=\(median(samples[variant] ?? []))")
    }
}
// s7's shape with s1's lookup (swift-dependencies cannot build s2's tree): throughput of two threads over one.
var ratios: [Variant: [Double]] = [:]
for _ in 0..<(quick ? 3 : 11) {
    for variant in Variant.allCases {
        let one = runThreads(scenarios[0], variant, threads: 1, n: batch)
        let two = runThreads(scenarios[0], variant, threads: 2, n: batch)
        ratios[variant, default: []].append(2 * Double(one) / Double(two))
    }
}
let ratioCells = Variant.allCases.map { String(format: "%.2f×", median(ratios[$0] ?? [])) }
print("| s7 two threads doing s1, throughput vs one | \(ratioCells.joined(separator: " | ")) |")
for variant in Variant.allCases {
    print("scenario=s7 variant=\(variant.rawValue) ratio=\(median(ratios[variant] ?? []))")
}
print("checksum=\(checksum)")
