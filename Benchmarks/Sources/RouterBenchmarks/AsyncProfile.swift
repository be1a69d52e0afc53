import Router

// s12 and s13: async lookups, against hand-written async code doing the same work.

/// A database an async factory opens: an async transient in s12, an async singleton in s12s, and the
/// dependency s13's async factory looks up through the registry.
protocol Store: AnyObject, Sendable {}
final class StoreImpl: Store {}
/// s13's destination: made by an async factory that asks the registry for a store.
protocol Repository: AnyObject, Sendable {}
final class RepositoryImpl: Repository {
    let store: any Store
    init(store: any Store) { self.store = store }
}
extension RoutableService where Destination == any Store {
    static var store: Self { Self(declaring: (any Store).self) }
}
extension RoutableService where Destination == any Repository {
    static var repository: Self { Self(declaring: (any Repository).self) }
}

/// What an async factory awaits, by hand: nothing to wait for, but a real async call.
@inline(never)
nonisolated(nonsending) func openStoreByHand() async -> any Store { StoreImpl() }

@inline(never)
nonisolated(nonsending) func makeRepositoryByHand() async -> any Repository {
    RepositoryImpl(store: await openStoreByHand())
}

/// `--profile <s12|s12s|s13> <handwired|router> <count>`, as ``runProfile(_:)``, from an async context:
/// s12 an async transient, s12s an async singleton already built, s13 an async transient whose async
/// factory looks its dependency up through the registry (the call joins the running lookup).
///
/// On the main actor, and every async call `nonisolated(nonsending)`: nothing leaves the main thread, so
/// callgrind (which fails when the cooperative pool starts its threads) can measure it.
@MainActor
func runAsyncProfile(_ arguments: [String]) async throws -> UInt {
    guard arguments.count >= 3, let variant = Variant.Name(rawValue: arguments[1]), let count = Int(arguments[2])
    else { throw BenchmarkError.unexpected("usage: --profile <s12|s12s|s13> <handwired|router> <count>") }
    let registry = RouteRegistry()
    var sum: UInt = 0
    switch arguments[0] {
    case "s12":
        try registry.registerAsync(.store) { _ in await openStoreByHand() }
        try registry.seal()
        for _ in 0..<count {
            switch variant {
            case .handwired: sum = mix(sum, await openStoreByHand())
            case .router, .swinject: sum = mix(sum, try await registry.makeDestinationAsync(to: .store))
            }
        }
    case "s12s":
        try registry.registerAsync(.store) { _ in await openStoreByHand() }.scope(.singleton)
        try registry.seal()
        let built = try await registry.makeDestinationAsync(to: .store)
        for _ in 0..<count {
            switch variant {
            case .handwired: sum = mix(sum, built)
            case .router, .swinject: sum = mix(sum, try await registry.makeDestinationAsync(to: .store))
            }
        }
    case "s13":
        try registry.registerAsync(.store) { _ in await openStoreByHand() }
        try registry.registerAsync(.repository) { _ in
            RepositoryImpl(store: try await registry.makeDestinationAsync(to: .store))
        }
        try registry.seal()
        for _ in 0..<count {
            switch variant {
            case .handwired: sum = mix(sum, await makeRepositoryByHand())
            case .router, .swinject: sum = mix(sum, try await registry.makeDestinationAsync(to: .repository))
            }
        }
    default:
        throw BenchmarkError.unexpected("--profile async supports s12, s12s, s13")
    }
    return sum
}
