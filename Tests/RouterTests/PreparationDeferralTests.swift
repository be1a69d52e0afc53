import Router
import Testing

// A singleton's preparation that asks for an object an enclosing factory is still building cannot run
// yet: the engine runs it again once that object exists, and publishes the singleton after that. User
// code must not be able to cancel that by catching what the engine throws to unwind the preparation.

protocol DeferredSettings: AnyObject, Sendable {
    var screen: (any DeferredScreen)? { get set }
}
protocol DeferredScreen: AnyObject, Sendable {
    var settings: any DeferredSettings { get }
}
final class DeferredSettingsImpl: DeferredSettings, @unchecked Sendable {
    // @unchecked: `screen` is set by the registration's preparation before the singleton is published.
    var screen: (any DeferredScreen)?
}
final class DeferredScreenImpl: DeferredScreen, Sendable {
    let settings: any DeferredSettings
    init(settings: any DeferredSettings) { self.settings = settings }
}
extension RoutableService where Destination == any DeferredSettings {
    static var deferredSettings: Self { Self(declaring: (any DeferredSettings).self) }
}
extension RoutableService where Destination == any DeferredScreen {
    static var deferredScreen: Self { Self(declaring: (any DeferredScreen).self) }
}

struct PreparationDeferralTests {
    /// `try?` is how an optional dependency is naturally spelt; it must not leave the singleton with nil.
    @Test func aPreparationThatSwallowsTheDeferralWithTryStillGetsTheObject() throws {
        let runs = Counter()
        let registry = try sealedRegistry { registry in
            try registry.register(.deferredSettings) { _ in DeferredSettingsImpl() }
                .scope(.singleton)
                .preparing { settings, r in
                    runs.increment()
                    settings.screen = try? r.resolve(.deferredScreen)
                }
            try registry.register(.deferredScreen) { r in
                DeferredScreenImpl(settings: try r.resolve(.deferredSettings))
            }.scope(.graph)
        }
        let screen = try registry.makeDestination(to: .deferredScreen)
        let settings = try registry.makeDestination(to: .deferredSettings)
        #expect(settings === screen.settings)
        #expect(settings.screen === screen)
        #expect(runs.value == 2, "run once up to the deferral, then again whole")
    }

    /// A preparation that declares its edge is deferred before it runs: its own code never catches
    /// anything the engine throws, and runs once, whole.
    @Test func aPreparationThatDeclaresItsEdgeNeverSeesTheEngineUnwindIt() throws {
        let runs = Counter()
        let caught = Counter()
        let registry = try sealedRegistry { registry in
            try registry.register(.deferredSettings) { _ in DeferredSettingsImpl() }
                .scope(.singleton)
                .preparing(declaring: .property(.deferredScreen)) { settings, r in
                    runs.increment()
                    do { settings.screen = try r.resolve(.deferredScreen) } catch { caught.increment() }
                }
            // A singleton too: a declared edge from a singleton to a graph-scoped key is a captive dependency.
            try registry.register(.deferredScreen) { r in
                DeferredScreenImpl(settings: try r.resolve(.deferredSettings))
            }.scope(.singleton)
        }
        let screen = try registry.makeDestination(to: .deferredScreen)
        #expect(screen.settings.screen === screen)
        #expect(caught.value == 0)
        #expect(runs.value == 1)
    }

    /// The same with the deferral caught and turned into the user's own error.
    @Test func aPreparationThatRethrowsTheDeferralAsItsOwnErrorStillGetsTheObject() throws {
        struct Missing: Error {}
        let registry = try sealedRegistry { registry in
            try registry.register(.deferredSettings) { _ in DeferredSettingsImpl() }
                .scope(.singleton)
                .preparing { settings, r in
                    do { settings.screen = try r.resolve(.deferredScreen) } catch { throw Missing() }
                }
            try registry.register(.deferredScreen) { r in
                DeferredScreenImpl(settings: try r.resolve(.deferredSettings))
            }.scope(.graph)
        }
        let screen = try registry.makeDestination(to: .deferredScreen)
        #expect(screen.settings.screen === screen)
    }
}
