import Router

// `RouterBenchmarks --profile walk <transient|singleton> <count>`: the lookups whose walk through the
// engine's files ARCHITECTURE.md counts, each in a fresh registry so that the singleton is built every
// time. Profile with `valgrind --tool=callgrind --toggle-collect='*walkLookup*'` on a build made with
// `-Xswiftc -g`, then count the files that have instructions (scripts/count-walk-files.py).

protocol WalkCar: AnyObject {}
final class WalkCarImpl: WalkCar {
    let engine: any Engine
    init(engine: any Engine) { self.engine = engine }
}
extension RoutableService where Destination == any WalkCar {
    static var walkCar: Self { Self(declaring: (any WalkCar).self) }
}

/// The one lookup the profile collects.
@inline(never)
func walkLookup(_ registry: RouteRegistry) throws -> any WalkCar {
    try registry.makeDestination(to: .walkCar)
}

func runWalkProfile(_ arguments: [String]) throws -> UInt {
    guard arguments.count >= 3, ["transient", "singleton"].contains(arguments[1]), let count = Int(arguments[2])
    else {
        throw BenchmarkError.unexpected("usage: --profile walk <transient|singleton> <count>")
    }
    var sum: UInt = 0
    // One lookup before the collected ones makes this thread's context (once per thread, not per walk).
    let warmUp = RouteRegistry()
    try warmUp.register(.engine) { _ in V8() }
    try warmUp.seal()
    sum = mix(sum, try warmUp.makeDestination(to: .engine))
    for _ in 0..<count {
        let registry = RouteRegistry()
        try registry.register(.engine) { _ in V8() }
        let car = try registry.register(.walkCar) { r in WalkCarImpl(engine: try r.resolve(.engine)) }
        if arguments[1] == "singleton" { try car.scope(.singleton) }
        try registry.seal()
        sum = mix(sum, try walkLookup(registry))
    }
    return sum
}
