import Router
import Testing

// A view model's main-actor initializer registered as the factory, its parameters auto-wired: it runs
// on the main actor when looked up from main-actor code, and fails with `mainActorRequired` elsewhere.

nonisolated protocol WiringClock: AnyObject, Sendable { var now: Int { get } }
extension RoutableService<any WiringClock> {
    nonisolated static var wiringClock: Self { Self(declaring: (any WiringClock).self) }
}
final class FixedWiringClock: WiringClock {
    let now = 42
}

protocol Bell: AnyObject { var time: Int { get } }
extension RoutableService<any Bell> {
    nonisolated static var bell: Self { Self(declaring: (any Bell).self) }
}
final class BellModel: Bell {
    let time: Int
    var label = ""
    init(clock: any WiringClock) { time = clock.now }
}

struct MainActorAutoWiringTests {
    private func registry() throws -> RouteRegistry {
        let registry = RouteRegistry()
        try registry.register(.wiringClock) { _ in FixedWiringClock() }
        try registry.registerOnMainActor(.bell, initializer: BellModel.init)
        try registry.seal()
        return registry
    }

    @Test func aMainActorInitializerIsAutoWiredAndRunsOnTheMainActor() throws {
        let bell = try registry().makeDestination(to: .bell)
        #expect(bell.time == 42)
    }

    @Test func aMainActorInitializerLookedUpOffTheMainActorIsATypedError() async throws {
        let registry = try registry()
        let code = await Task.detached { () -> RouteError.Code? in
            do {
                _ = try registry.makeDestination(to: .bell)
                return nil
            } catch let error as RouteError {
                return error.code
            } catch {
                return nil
            }
        }.value
        #expect(code == .mainActorRequired)
    }

    @Test func theMainActorAsFormReachesTheImplementationsProperties() throws {
        let registry = RouteRegistry()
        try registry.register(.wiringClock) { _ in FixedWiringClock() }
        try registry.registerOnMainActor(.bell, as: BellModel.self, initializer: BellModel.init)
            .preparingOnMainActor { bell, _ in bell.label = "ready" }
        try registry.seal()
        let bell = try #require(try registry.makeDestination(to: .bell) as? BellModel)
        #expect(bell.label == "ready")
    }
}
