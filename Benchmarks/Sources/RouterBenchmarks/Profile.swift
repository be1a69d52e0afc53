import Router
import Swinject

/// `RouterBenchmarks --profile <s1|s2|s3|s5|s6|s6p|s8|s10|s11|s14|s15n|s15|s15b> <handwired|router|swinject> <count>`: runs one variant of one
/// scenario (s11, s12–s13 and s16 are dispatched by main.swift) `count` times with no timing, for `valgrind --tool=callgrind`. Instructions per lookup are
/// (Ir at count N − Ir at count 0) / N.
func runProfile(_ arguments: [String]) throws -> UInt {
    guard arguments.count >= 3, let variant = Variant.Name(rawValue: arguments[1]), let count = Int(arguments[2])
    else {
        throw BenchmarkError.unexpected(
            "usage: --profile <s1|s2|s3|s5|s6|s6p|s8|s10|s11|s14|s15n|s15|s15b> <handwired|router|swinject> <count>")
    }
    let registry = RouteRegistry()
    let container = Container()
    var sum: UInt = 0
    switch arguments[0] {
    case "s1":
        try registry.register(.engine) { _ in V8() }
        container.register((any Engine).self) { _ in V8() }
        try registry.seal()
        for _ in 0..<count {
            switch variant {
            case .handwired: sum = mix(sum, makeEngineByHand())
            case .router: sum = mix(sum, try registry.makeDestination(to: .engine))
            case .swinject: sum = mix(sum, required(container.resolve((any Engine).self)))
            }
        }
    case "s2":
        try registerTree(in: registry)
        registerTree(in: container)
        try registry.seal()
        for _ in 0..<count {
            switch variant {
            case .handwired: sum = mix(sum, makeTreeByHand())
            case .router: sum = mix(sum, try registry.makeDestination(to: .treeRoot))
            case .swinject: sum = mix(sum, required(container.resolve((any TreeRoot).self)))
            }
        }
    case "s3":
        let holders = makeSettingsHolders()
        try registry.register(.settings) { _ in SettingsImpl() }.scope(.singleton)
        container.register((any Settings).self) { _ in SettingsImpl() }.inObjectScope(.container)
        try registry.seal()
        for index in 0..<count {
            switch variant {
            case .handwired: sum = mix(sum, settingsByHand(holders, index))
            case .router: sum = mix(sum, try registry.makeDestination(to: .settings))
            case .swinject: sum = mix(sum, required(container.resolve((any Settings).self)))
            }
        }
    case "s6", "s6p":
        try registerCycle(in: registry, byClosure: arguments[0] == "s6p")
        registerCycle(in: container)
        try registry.seal()
        for _ in 0..<count {
            switch variant {
            case .handwired: sum = mix(sum, makeCycleByHand())
            case .router: sum = mix(sum, try registry.makeDestination(to: .cycleA))
            case .swinject: sum = mix(sum, required(container.resolve((any CycleA).self)))
            }
        }
    case "s8":
        try registerChain(in: registry)
        registerChain(in: container)
        try registry.seal()
        for _ in 0..<count {
            switch variant {
            case .handwired: sum = mix(sum, makeChainByHand())
            case .router: sum = mix(sum, try registry.makeDestination(to: .chain0))
            case .swinject: sum = mix(sum, required(container.resolve((any Chain0).self)))
            }
        }
    case "s5":
        for _ in 0..<count {
            switch variant {
            case .handwired: break
            case .router:
                let fresh = RouteRegistry()
                try registerGeneratedServices(in: fresh)
                try fresh.seal()
                sum = mix(sum, fresh)
            case .swinject:
                let fresh = Container()
                registerGeneratedServices(in: fresh)
                sum = mix(sum, fresh)
            }
        }
    case "s14":
        // Whole launches: `count` fresh registries of 100 modules, sealed, each root screen looked up once.
        // Swinject's figure is in Benchmarks/Peers, with the other peers.
        for _ in 0..<count {
            let roots: [AnyObject]
            switch variant {
            case .handwired: roots = launchByHand()
            case .router: roots = try launchRouter()
            case .swinject: throw BenchmarkError.unexpected("s14 with Swinject runs in Benchmarks/Peers")
            }
            for root in roots { sum = mix(sum, root) }
        }
    case "s10":
        // The router variant is s2's tree auto-wired; compare it with s2's router figure.
        try registerTreeAutoWired(in: registry)
        registerTree(in: container)
        try registry.seal()
        for _ in 0..<count {
            switch variant {
            case .handwired: sum = mix(sum, makeTreeByHand())
            case .router: sum = mix(sum, try registry.makeDestination(to: .treeRoot))
            case .swinject: sum = mix(sum, required(container.resolve((any TreeRoot).self)))
            }
        }
    case "s15n", "s15", "s15b":
        // The same transient (one singleton dependency) looked up with no, one and two runtime arguments:
        // s15 and s15b against s15n say what the arguments cost.
        try registerGreetings(in: registry)
        let clock = ClockImpl()
        container.register((any Clock).self) { _ in ClockImpl() }.inObjectScope(.container)
        container.register((any GreetingFor).self) { (r: Swinject.Resolver, times: Int) in
            GreetingImpl(clock: required(r.resolve((any Clock).self)), name: "Ann", times: times)
        }
        try registry.seal()
        let name = "Ann"
        // How many arguments, decided once: compared in the loop, the scenario's name cost s15 one string
        // comparison per lookup and s15b two (about 22 instructions each), which s15n did not pay.
        let argumentCount = ["s15n": 0, "s15": 1][arguments[0]] ?? 2
        for index in 0..<count {
            switch (variant, argumentCount) {
            case (.handwired, _): sum = mix(sum, makeGreetingByHand(clock, name, index))
            case (.router, 0): sum = mix(sum, try registry.makeDestination(to: .greeting))
            case (.router, 1): sum = mix(sum, try registry.makeDestination(to: .greetingFor, arguments: index))
            case (.router, _):
                sum = mix(sum, try registry.makeDestination(to: .greetingForTimes, arguments: name, index))
            case (.swinject, _): sum = mix(sum, required(container.resolve((any GreetingFor).self, argument: index)))
            }
        }
    default:
        throw BenchmarkError.unexpected(
            "--profile supports s1, s2, s3, s5, s6, s6p, s8, s10, s11, s14, s15n, s15, s15b")
    }
    return sum
}

/// `--profile s11 …`: as ``runProfile(_:)``, from main-actor code, as an app's screens are looked up. (The
/// other scenarios run from nonisolated code: a lookup from the main actor also records that it is.)
@MainActor
func runMainActorProfile(_ arguments: [String]) throws -> UInt {
    guard arguments.count >= 3, let variant = Variant.Name(rawValue: arguments[1]), let count = Int(arguments[2])
    else { throw BenchmarkError.unexpected("usage: --profile s11 <handwired|router> <count>") }
    let registry = RouteRegistry()
    try registry.registerOnMainActor(.screen) { _ in ScreenModel() }
    try registry.seal()
    var sum: UInt = 0
    for _ in 0..<count {
        switch variant {
        case .handwired: sum = mix(sum, makeScreenByHand())
        case .router, .swinject: sum = mix(sum, try registry.makeDestination(to: .screen))
        }
    }
    return sum
}
