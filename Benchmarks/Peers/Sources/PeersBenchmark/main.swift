import DITranquillity
import FactoryKit
import Foundation
import Router
import Swinject

// Hand-wired code, Router, Swinject 2.10.0, Factory 3.2.1 and DITranquillity 6.0.0 doing the same lookups in
// one process, interleaved round by round (the order rotates), median of the rounds. A peer that cannot
// express a scenario gets no figure: Factory has no property injection inside a resolution, so no s6.
// s14 (an app's launch) is timed per whole launch, each with a fresh container; `--launch <variant>` times
// the first launch of a fresh process.

enum Variant: String, CaseIterable {
    case handwired, router, swinject, factory, ditranquillity
}

struct Scenario {
    let id: String
    let title: String
    /// What `variant` does `n` times, folded into a checksum; nil when the variant cannot do it.
    let run: (Variant, Int) throws -> UInt?
}

@inline(__always)
func mix(_ checksum: UInt, _ object: AnyObject) -> UInt {
    (checksum &* 31) &+ UInt(bitPattern: ObjectIdentifier(object))
}

func repeatMixing(_ n: Int, _ make: () throws -> AnyObject) rethrows -> UInt {
    var sum: UInt = 0
    for _ in 0..<n { sum = mix(sum, try make()) }
    return sum
}

func makeScenarios() throws -> [Scenario] {
    let registry = RouteRegistry()
    try registry.register(.engine) { _ in V8() }
    try registry.register(.settings) { _ in SettingsImpl() }.scope(.singleton)
    try registerTree(in: registry)
    try registerCycle(in: registry)
    try registry.seal()
    let swinject = Swinject.Container()
    swinject.register((any Engine).self) { _ in V8() }
    swinject.register((any Settings).self) { _ in SettingsImpl() }.inObjectScope(.container)
    registerTree(in: swinject)
    registerCycle(in: swinject)
    let factory = FactoryKit.Container.shared
    let di = makeDITranquillityContainer()
    let holders = makeSettingsHolders()
    // Singletons built once before timing, as an app's are.
    _ = try registry.makeDestination(to: .settings)
    _ = swinject.resolve((any Settings).self)
    _ = factory.settings()
    let _: any Settings = di.resolve()

    let s1 = Scenario(id: "s1", title: "transient, no dependencies") { variant, n in
        switch variant {
        case .handwired: repeatMixing(n) { makeEngineByHand() }
        case .router: try repeatMixing(n) { try registry.makeDestination(to: .engine) }
        case .swinject: repeatMixing(n) { required(swinject.resolve((any Engine).self)) }
        case .factory: repeatMixing(n) { factory.engine() }
        case .ditranquillity: repeatMixing(n) { () -> any Engine in di.resolve() }
        }
    }
    let s2 = Scenario(id: "s2", title: "transient tree of 10 objects") { variant, n in
        switch variant {
        case .handwired: repeatMixing(n) { makeTreeByHand() }
        case .router: try repeatMixing(n) { try registry.makeDestination(to: .treeRoot) }
        case .swinject: repeatMixing(n) { required(swinject.resolve((any TreeRoot).self)) }
        case .factory: repeatMixing(n) { factory.treeRoot() }
        case .ditranquillity: repeatMixing(n) { () -> any TreeRoot in di.resolve() }
        }
    }
    let s3 = Scenario(id: "s3", title: "singleton, already built") { variant, n in
        var index = 0
        switch variant {
        case .handwired:
            return repeatMixing(n) {
                index &+= 1
                return settingsByHand(holders, index)
            }
        case .router: return try repeatMixing(n) { try registry.makeDestination(to: .settings) }
        case .swinject: return repeatMixing(n) { required(swinject.resolve((any Settings).self)) }
        case .factory: return repeatMixing(n) { factory.settings() }
        case .ditranquillity: return repeatMixing(n) { () -> any Settings in di.resolve() }
        }
    }
    let s6 = Scenario(id: "s6", title: "cycle: A(init: B), B.a = A, one A per graph") { variant, n in
        switch variant {
        case .handwired: repeatMixing(n) { makeCycleByHand() }
        case .router: try repeatMixing(n) { try registry.makeDestination(to: .cycleA) }
        case .swinject: repeatMixing(n) { required(swinject.resolve((any CycleA).self)) }
        case .factory: nil
        case .ditranquillity: repeatMixing(n) { () -> any CycleA in di.resolve() }
        }
    }
    // Each variant's cycle is checked once: B's back reference is the A that was returned.
    for variant in [Variant.router, .swinject, .ditranquillity] {
        let a: any CycleA
        switch variant {
        case .router: a = try registry.makeDestination(to: .cycleA)
        case .swinject: a = required(swinject.resolve((any CycleA).self))
        default: a = di.resolve()
        }
        guard a.b.a === a else { throw PeerError.brokenCycle(variant.rawValue) }
    }
    return [s1, s2, s3, s6]
}

enum PeerError: Error {
    case brokenCycle(String)
    case usage
}

func nanos() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
}

/// s14, one launch of the app in Launch.swift (generated): the variant's container made from 100 modules of 10
/// services (and sealed, for Router), then each module's root screen made with its graph of 10.
func launch(_ variant: Variant) throws -> UInt {
    let roots: [AnyObject]
    switch variant {
    case .handwired: roots = launchByHand()
    case .router: roots = try launchRouter()
    case .swinject: roots = launchSwinject()
    case .factory: roots = launchFactory()
    case .ditranquillity: roots = launchDITranquillity()
    }
    guard roots.count == launchModuleCount else { throw PeerError.usage }
    return roots.reduce(0) { mix($0, $1) }
}

/// s14 as a scenario: `n` whole launches, each with a fresh container.
let s14 = Scenario(id: "s14", title: "launch: 100 modules, 1,000 registrations, 100 root screens of 10") { variant, n in
    var sum: UInt = 0
    for _ in 0..<n { sum = sum &+ (try launch(variant)) }
    return sum
}

let arguments = CommandLine.arguments
if let flag = arguments.firstIndex(of: "--launch") {
    // The first launch in a fresh process, what a user waits for: prints its wall-clock time in µs.
    guard let name = arguments.dropFirst(flag + 1).first, let variant = Variant(rawValue: name) else {
        throw PeerError.usage
    }
    let start = nanos()
    let sum = try launch(variant)
    print(String(format: "%.1f", Double(nanos() - start) / 1000), "checksum=\(sum)")
    exit(0)
}
if let flag = arguments.firstIndex(of: "--profile"), arguments.dropFirst(flag + 1).first == "s14" {
    // Before the other scenarios' containers exist, so that `count` 0 and 1 give the first launch's cost.
    guard arguments.count == flag + 4, let variant = Variant(rawValue: arguments[flag + 2]),
        let count = Int(arguments[flag + 3])
    else { throw PeerError.usage }
    print("checksum=\(try s14.run(variant, count) ?? 0)")
    exit(0)
}
let scenarios = try makeScenarios() + [s14]
if let flag = arguments.firstIndex(of: "--profile") {
    // For valgrind --tool=callgrind: instructions per lookup = (Ir at N2 − Ir at N1) / (N2 − N1).
    let rest = Array(arguments[(flag + 1)...])
    guard rest.count == 3, let scenario = scenarios.first(where: { $0.id == rest[0] }),
        let variant = Variant(rawValue: rest[1]), let count = Int(rest[2])
    else { throw PeerError.usage }
    print("checksum=\(try scenario.run(variant, count) ?? 0)")
    exit(0)
}

let quick = arguments.contains("--quick")
let rounds = quick ? 5 : 21
var checksum: UInt = 0
print("| scenario | " + Variant.allCases.map(\.rawValue).joined(separator: " | ") + " |")
print("|---|" + Variant.allCases.map { _ in "---:" }.joined(separator: "|") + "|")
for scenario in scenarios {
    // Batches of about 5 ms of hand-wired work, fewer lookups for the slow peers.
    var samples: [Variant: [Double]] = [:]
    for round in 0..<rounds {
        for offset in 0..<Variant.allCases.count {
            let variant = Variant.allCases[(round + offset) % Variant.allCases.count]
            // s14's launches take milliseconds: a few per batch.
            let lookups = [.handwired, .router, .factory].contains(variant) ? 50_000 : 5_000
            let batch = scenario.id == "s14" ? (quick ? 2 : 5) : quick ? lookups / 10 : lookups
            let start = nanos()
            guard let sum = try scenario.run(variant, batch) else { continue }
            checksum = checksum &+ sum
            samples[variant, default: []].append(Double(nanos() - start) / Double(batch))
        }
    }
    let cells = Variant.allCases.map { variant in
        samples[variant].map {
            scenario.id == "s14" ? String(format: "%.0f µs", median($0) / 1000) : String(format: "%.1f ns", median($0))
        } ?? "–"
    }
    print("| \(scenario.id) \(scenario.title) | \(cells.joined(separator: " | ")) |")
}
print("checksum=\(checksum)")
