import Router
import Testing

// What an override builds stays with the override: an instance rebuilt inside `withOverrides` because the
// app's weak instance was released, or its custom scope reset, or built by a route made before the
// override, must never be what the app gets afterwards.

protocol OverrideClock: AnyObject, Sendable { var isFake: Bool { get } }
final class RealOverrideClock: OverrideClock, Sendable { var isFake: Bool { false } }
final class FakeOverrideClock: OverrideClock, Sendable { var isFake: Bool { true } }
protocol OverrideAlarm: AnyObject, Sendable { var clock: any OverrideClock { get } }
final class OverrideAlarmImpl: OverrideAlarm, Sendable {
    let clock: any OverrideClock
    init(clock: any OverrideClock) { self.clock = clock }
}
extension RoutableService where Destination == any OverrideClock {
    static var overrideClock: Self { Self(declaring: (any OverrideClock).self) }
}
extension RoutableService where Destination == any OverrideAlarm {
    static var overrideAlarm: Self { Self(declaring: (any OverrideAlarm).self) }
}

struct OverrideLifetimeTests {
    private func registry(alarmScope: Scope) throws -> RouteRegistry {
        try sealedRegistry { registry in
            try registry.register(.overrideClock) { _ in RealOverrideClock() }
            try registry.register(.overrideAlarm) { r in OverrideAlarmImpl(clock: try r.resolve(.overrideClock)) }
                .scope(alarmScope)
        }
    }

    private func fakeClock(_ overrides: RouteRegistry) throws {
        try overrides.register(.overrideClock) { _ in FakeOverrideClock() }
    }

    @Test func aWeakInstanceRebuiltInsideAnOverrideIsNotTheAppsAfterwards() throws {
        let registry = try registry(alarmScope: .weakSingleton)
        var appAlarm: (any OverrideAlarm)? = try registry.makeDestination(to: .overrideAlarm)
        #expect(appAlarm?.clock.isFake == false)
        let builtInside = try registry.withOverrides(fakeClock) { () throws -> any OverrideAlarm in
            // The app's instance exists: the override shares it.
            #expect(try registry.makeDestination(to: .overrideAlarm) === appAlarm)
            appAlarm = nil  // released: the next lookup builds one under the fakes
            return try registry.makeDestination(to: .overrideAlarm)
        }
        #expect(builtInside.clock.isFake)
        // Still alive (the test holds it), yet the app must not get it.
        let after = try registry.makeDestination(to: .overrideAlarm)
        #expect(after !== builtInside)
        #expect(after.clock.isFake == false)
    }

    @Test func aCustomScopedInstanceRebuiltAfterAResetInsideAnOverrideIsNotTheAppsAfterwards() throws {
        let session = CustomScope("session")
        let registry = try registry(alarmScope: .custom(session))
        let appAlarm = try registry.makeDestination(to: .overrideAlarm)
        let builtInside = try registry.withOverrides(fakeClock) { () throws -> any OverrideAlarm in
            #expect(try registry.makeDestination(to: .overrideAlarm) === appAlarm)
            session.reset()
            return try registry.makeDestination(to: .overrideAlarm)
        }
        #expect(builtInside.clock.isFake)
        let after = try registry.makeDestination(to: .overrideAlarm)
        #expect(after !== builtInside)
        #expect(after.clock.isFake == false)
    }

    @Test func aRouteMadeBeforeAnOverrideBuildsUnderItWithoutTouchingTheAppsSingleton() throws {
        let registry = try registry(alarmScope: .singleton)
        let route = try registry.route(to: .overrideAlarm)
        let builtInside = try registry.withOverrides(fakeClock) { try route.perform() }
        #expect(builtInside.clock.isFake, "performed inside the override, the route sees the fakes")
        let after = try registry.makeDestination(to: .overrideAlarm)
        #expect(after.clock.isFake == false)
        #expect(after !== builtInside)
    }
}
