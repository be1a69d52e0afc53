import Router
import Testing

// The Concurrency article's example of a service in an app target isolated to the main actor, in such a
// target: with its protocol and key member declared `nonisolated` (the class adopts that nonisolated
// protocol, which inherits `Sendable` and so keeps it nonisolated), a plain factory makes it and a background task uses it. (Tests/CompileErrors
// pins what the compiler says when one is left out.)

nonisolated protocol Clock: AnyObject, Sendable {
    func now() -> Int
}

extension RoutableService<any Clock> {
    nonisolated static var clock: Self { .init(declaring: Destination.self) }
}

final class FixedClock: Clock {
    let time: Int
    init(time: Int) { self.time = time }
    func now() -> Int { time }
}

/// A service without a protocol of its own, made by a factory that resolves the clock.
nonisolated final class Alarm: Sendable {
    let clock: any Clock
    init(clock: any Clock) { self.clock = clock }
    func isDue(at time: Int) -> Bool { clock.now() >= time }
}

extension RoutableService<Alarm> {
    nonisolated static var alarm: Self { .init(declaring: Destination.self) }
}

struct NonisolatedServicesTests {
    @Test func aNonisolatedServiceIsMadeByAPlainFactoryAndUsedOffTheMainActor() async throws {
        let registry = RouteRegistry()
        try registry.register(.clock) { _ in FixedClock(time: 42) }.scope(.singleton)
        try registry.register(.alarm) { r in Alarm(clock: try r.resolve(.clock)) }
        try registry.seal()
        let time = try await Task.detached { try registry.makeDestination(to: .clock).now() }.value
        #expect(time == 42)
        let due = try await Task.detached { try registry.makeDestination(to: .alarm).isDue(at: 40) }.value
        #expect(due)
        // And from main-actor code, as everything else in this target.
        #expect(try registry.makeDestination(to: .clock).now() == 42)
    }
}
