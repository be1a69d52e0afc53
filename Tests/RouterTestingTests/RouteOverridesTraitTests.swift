import Router
import RouterTesting
import Synchronization
import Testing

// The `.overriding` trait, as a test target uses it: registries made inside the tests, tests running in
// parallel, repeated, async and on the main actor (issue 27, part 1).

protocol Clock: AnyObject, Sendable {
    var name: String { get }
    /// How many times this instance was asked for the time.
    func tick() -> Int
}

final class NamedClock: Clock {
    let name: String
    private let ticks = Atomic<Int>(0)
    init(_ name: String) { self.name = name }
    func tick() -> Int { ticks.add(1, ordering: .relaxed).newValue }
}

extension RoutableService where Destination == any Clock {
    static var clock: Self { Self(declaring: (any Clock).self) }
}

/// The app's registry, made inside each test as an app's tests make it.
func appRegistry() throws -> RouteRegistry {
    let registry = RouteRegistry()
    try registry.register(.clock) { _ in NamedClock("real") }.scope(.singleton)
    try registry.seal()
    return registry
}

struct RouteOverridesTraitTests {
    @Test(.overriding(.clock) { _ in NamedClock("fake") })
    func aRegistryMadeInsideTheTestGetsTheFake() throws {
        #expect(try appRegistry().makeDestination(to: .clock).name == "fake")
    }

    @Test func withoutTheTraitTheRealRegistrationIsBack() throws {
        #expect(try appRegistry().makeDestination(to: .clock).name == "real")
    }

    /// Many arguments of one test run in parallel: each sees its own fake, and no other argument's.
    @Test(
        .overrides { overrides in try overrides.register(.clock) { _ in NamedClock("mine") }.scope(.singleton) },
        arguments: 0..<16)
    func parallelTestCasesEachGetAFreshSingletonFake(_ index: Int) async throws {
        let registry = try appRegistry()
        let clock = try registry.makeDestination(to: .clock)
        for _ in 0..<50 { await Task.yield() }
        #expect(clock.name == "mine")
        // A shared fake made for another test case would have been ticked by it too.
        #expect(clock.tick() == 1)
        #expect(try registry.makeDestination(to: .clock) === clock)
    }

    /// The default fake is transient: a second lookup gets a new one, without the first one's state.
    @Test(.overriding(.clock) { _ in NamedClock("fresh") })
    func theDefaultFakeIsTransientAndLosesItsState() throws {
        let registry = try appRegistry()
        #expect(try registry.makeDestination(to: .clock).tick() == 1)
        #expect(try registry.makeDestination(to: .clock).tick() == 1)
    }

    /// Issue 36: a fake repository lost what a POST wrote; `scope: .singleton` shares one fake across the
    /// test's lookups, and each test case still gets its own.
    @Test(.overriding(.clock, scope: .singleton) { _ in NamedClock("shared") }, arguments: 0..<8)
    func aSingletonFakeKeepsItsStateAcrossTheTestsLookups(_ index: Int) async throws {
        let registry = try appRegistry()
        #expect(try registry.makeDestination(to: .clock).tick() == 1)
        for _ in 0..<20 { await Task.yield() }
        #expect(try registry.makeDestination(to: .clock).tick() == 2)
        #expect(try registry.makeDestination(to: .clock).name == "shared")
    }

    @Test(.overriding(.clock) { _ in NamedClock("left") })
    func leftSeesOnlyItsOwnFakeWhileRightRuns() async throws {
        for _ in 0..<200 {
            #expect(try appRegistry().makeDestination(to: .clock).name == "left")
            await Task.yield()
        }
    }

    @Test(.overriding(.clock) { _ in NamedClock("right") })
    func rightSeesOnlyItsOwnFakeWhileLeftRuns() async throws {
        for _ in 0..<200 {
            #expect(try await appRegistry().makeDestinationAsync(to: .clock).name == "right")
            await Task.yield()
        }
    }

    @MainActor
    @Test(.overriding(.clock) { _ in NamedClock("main") })
    func aMainActorTestGetsTheFake() throws {
        #expect(try appRegistry().makeDestination(to: .clock).name == "main")
    }

    @Test(.overriding(.clock) { _ in NamedClock("trait") })
    func aTestsOwnWithOverridesWinsOverTheTrait() throws {
        let registry = try appRegistry()
        let inner = try registry.withOverrides { overrides in
            try overrides.register(.clock) { _ in NamedClock("inner") }
        } operation: {
            try registry.makeDestination(to: .clock).name
        }
        #expect(inner == "inner")
        #expect(try registry.makeDestination(to: .clock).name == "trait")
    }

    @Test(.overriding(.clock) { _ in NamedClock("fake") })
    func aDetachedTaskStartedByTheTestDoesNotSeeItsFakes() async throws {
        let registry = try appRegistry()
        let gate = Atomic<Bool>(false)
        let late = Task.detached { () -> String in
            while !gate.load(ordering: .acquiring) { await Task.yield() }
            return try registry.makeDestination(to: .clock).name
        }
        gate.store(true, ordering: .releasing)
        // A detached task does not inherit the test's overrides at all.
        #expect(try await late.value == "real")
    }
}

/// On a suite, the trait applies to every test of it, each with fresh fakes.
@Suite(.overrides { overrides in try overrides.register(.clock) { _ in NamedClock("suite") }.scope(.singleton) })
struct SuiteWideOverridesTests {
    @Test func first() throws {
        let clock = try appRegistry().makeDestination(to: .clock)
        #expect(clock.name == "suite")
        #expect(clock.tick() == 1)
    }

    @Test func second() throws {
        let clock = try appRegistry().makeDestination(to: .clock)
        #expect(clock.name == "suite")
        #expect(clock.tick() == 1)
    }

    @Test(.overriding(.clock) { _ in NamedClock("test") })
    func aTestsTraitWinsOverItsSuites() throws {
        #expect(try appRegistry().makeDestination(to: .clock).name == "test")
    }
}

/// A model with an `@Injected` clock, as the swift-dependencies migration guide ports one.
final class ClockedModel {
    @Injected(.clock) var clock: any Clock
    var stamp: String { "time by \(clock.name)" }
}
extension RoutableService<ClockedModel> {
    static var clockedModel: Self { Self(declaring: ClockedModel.self) }
}

struct InjectedPropertyOverrideTraitTests {
    private func registry() throws -> RouteRegistry {
        let registry = RouteRegistry()
        try registry.register(.clock) { _ in NamedClock("real") }.scope(.singleton)
        try registry.register(.clockedModel) { _ in ClockedModel() }.dependencies(.initializer(.clock))
        try registry.seal()
        return registry
    }

    @Test(.overriding(.clock) { _ in NamedClock("fake") })
    func anInjectedPropertySeesTheTraitsFake() throws {
        #expect(try registry().makeDestination(to: .clockedModel).stamp == "time by fake")
    }

    @Test func withoutTheTraitAnInjectedPropertyGetsTheRealOne() throws {
        #expect(try registry().makeDestination(to: .clockedModel).stamp == "time by real")
    }
}

/// A model made by hand under a task's injection binding (issue 34) is a lookup of the bound registry, so the
/// test's trait reaches it as it reaches a model the registry makes.
struct HandMadeModelOverrideTraitTests {
    @Test(.overriding(.clock) { _ in NamedClock("fake") })
    func aModelMadeByHandUnderABindingSeesTheTraitsFake() throws {
        let registry = RouteRegistry()
        try registry.register(.clock) { _ in NamedClock("real") }.scope(.singleton)
        try registry.seal()
        #expect(registry.withInjectionBinding { ClockedModel() }.stamp == "time by fake")
    }
}

/// A screen the app makes on the main actor: a main-actor class, not Sendable.
@MainActor protocol OverriddenScreen: AnyObject { var title: String { get } }
@MainActor final class NamedScreen: OverriddenScreen {
    let title: String
    init(_ title: String) { self.title = title }
}
extension RoutableService where Destination == any OverriddenScreen {
    static var overriddenScreen: Self { Self(declaring: (any OverriddenScreen).self) }
}

/// `.overridingOnMainActor` replaces a main-actor registration in one line, as `registerOnMainActor` makes
/// it: the fake's factory runs on the main actor, a main-actor test gets it synchronously, and a lookup
/// from elsewhere is refused before the factory runs, as the app's own registration would be.
struct MainActorOverrideTraitTests {
    @MainActor private func screenRegistry() throws -> RouteRegistry {
        let registry = RouteRegistry()
        try registry.registerOnMainActor(.overriddenScreen) { _ in NamedScreen("real") }
        try registry.seal()
        return registry
    }

    @MainActor
    @Test(.overridingOnMainActor(.overriddenScreen) { _ in NamedScreen("fake") })
    func aMainActorFakeIsMadeForAMainActorTest() throws {
        let registry = try screenRegistry()
        #expect(try registry.makeDestination(to: .overriddenScreen).title == "fake")
        // Transient by default, as `.overriding`: a new fake per lookup.
        #expect(
            try registry.makeDestination(to: .overriddenScreen)
                !== (try registry.makeDestination(to: .overriddenScreen)))
    }

    @MainActor
    @Test(.overridingOnMainActor(.overriddenScreen, scope: .singleton) { _ in NamedScreen("shared") })
    func aSingletonMainActorFakeIsSharedByTheTestsLookups() throws {
        let registry = try screenRegistry()
        let first = try registry.makeDestination(to: .overriddenScreen)
        #expect(first.title == "shared")
        #expect(try registry.makeDestination(to: .overriddenScreen) === first)
    }

    @Test(.overridingOnMainActor(.overriddenScreen) { _ in NamedScreen("fake") })
    func aLookupOffTheMainActorIsRefusedAsTheAppsRegistrationWouldBe() async throws {
        let registry = try await screenRegistry()
        let error = await #expect(throws: RouteError.self) {
            _ = try await registry.makeDestinationAsync(to: .overriddenScreen)
        }
        #expect(error?.code == .mainActorRequired)
        #expect(try await MainActor.run { try registry.makeDestination(to: .overriddenScreen).title } == "fake")
    }
}
