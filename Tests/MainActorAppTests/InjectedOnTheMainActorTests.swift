import Router
import Testing

// `@Injected` in a target whose code is main-actor by default (issue 27, part 3): a view model holding one
// compiles without annotations and resolves on the main actor, including a main-actor-only dependency; a
// `Sendable` struct can hold one; a main-actor model made off the main actor's lookup is a typed error.

protocol Salutation: AnyObject { func greet() -> String }
extension RoutableService<any Salutation> {
    nonisolated static var salutation: Self { Self(declaring: (any Salutation).self) }
}
final class MainActorSalutation: Salutation {
    func greet() -> String { "hello" }
}

nonisolated protocol Ticker: Sendable { var ticks: Int { get } }
extension RoutableService<any Ticker> {
    nonisolated static var ticker: Self { Self(declaring: (any Ticker).self) }
}
nonisolated struct FixedTicker: Ticker {
    let ticks = 3
}

/// A value type that may cross actors: `Injected` is `Sendable` when its value is.
nonisolated struct TickerSnapshot: Sendable {
    @Injected(.ticker) var ticker: any Ticker
}
extension RoutableService<TickerSnapshot> {
    nonisolated static var tickerSnapshot: Self { Self(declaring: TickerSnapshot.self) }
}

protocol Greeting: AnyObject { var text: String { get } }
extension RoutableService<any Greeting> {
    nonisolated static var greeting: Self { Self(declaring: (any Greeting).self) }
}
final class GreetingModel: Greeting {
    @Injected(.salutation) var salutation: any Salutation
    @Injected(.ticker) var ticker: any Ticker
    var text: String { "\(salutation.greet()) \(ticker.ticks)" }
}

/// A nonisolated object whose property needs a main-actor dependency.
nonisolated final class SalutationHolder {
    @Injected(.salutation) var salutation: any Salutation
}
extension RoutableService<SalutationHolder> {
    nonisolated static var salutationHolder: Self { Self(declaring: SalutationHolder.self) }
}

struct InjectedOnTheMainActorTests {
    private func registry() throws -> RouteRegistry {
        let registry = RouteRegistry()
        try registry.registerOnMainActor(.salutation) { _ in MainActorSalutation() }
        try registry.register(.ticker) { _ in FixedTicker() }
        try registry.register(.tickerSnapshot) { _ in TickerSnapshot() }
        try registry.register(.salutationHolder) { _ in SalutationHolder() }
        try registry.registerOnMainActor(.greeting) { _ in GreetingModel() }.dependencies(
            .initializer(.salutation), .initializer(.ticker))
        try registry.seal()
        return registry
    }

    @Test func aMainActorModelResolvesItsPropertiesOnTheMainActor() throws {
        #expect(try registry().makeDestination(to: .greeting).text == "hello 3")
    }

    @Test func aSendableValueHoldingAnInjectedPropertyCrossesActors() async throws {
        let registry = try registry()
        let ticks = await Task.detached { try? registry.makeDestination(to: .tickerSnapshot).ticker.ticks }.value
        #expect(ticks == 3)
    }

    @Test func aMainActorDependencyInjectedOffTheMainActorFailsTheLookupWithATypedError() async throws {
        let registry = try registry()
        #expect(try registry.makeDestination(to: .salutationHolder).salutation.greet() == "hello")
        let code = await Task.detached { () -> RouteError.Code? in
            do {
                _ = try registry.makeDestination(to: .salutationHolder)
                return nil
            } catch {
                return (error as? RouteError)?.code
            }
        }.value
        #expect(code == .mainActorRequired)
    }

    @Test func aMainActorModelMadeByHandResolvesInTheBoundRegistry() throws {
        let model = try registry().withInjectionBinding { GreetingModel() }
        #expect(model.ticker.ticks == 3)
        // A property initializer cannot see its caller's isolation, so the lookup is not the main actor's:
        // a main-actor-only dependency resolves only where the engine takes the thread for the main actor's.
        #if canImport(Darwin)
            #expect(model.salutation.greet() == "hello")
        #else
            #expect((try? model.$salutation.get()) == nil)
            if case .failure(let error) = model.$salutation { #expect(error.code == .mainActorRequired) }
        #endif
    }
}
