public import Router
public import Testing

/// A Swift Testing trait that runs a test with registrations replaced in every registry the test looks up
/// in: `@Test(.overriding(.clock) { _ in FakeClock() })`, also on a `@Suite` (then for each of its tests).
///
/// It runs each test inside ``Router/RouteRegistry/withOverridesEverywhere(_:operation:)``, so it follows
/// the rules of ``Router/RouteRegistry/withOverrides(_:operation:)``: the replacements apply to the test's
/// task and the tasks it starts only, so tests running in parallel never see each other's; each test (and
/// each repetition, each argument of a parameterized test) gets fresh fakes; async and main-actor tests
/// work alike. A test's own `withOverrides` is layered over the trait's, and wins.
public struct RouteOverridesTrait: TestTrait, SuiteTrait, TestScoping {
    private let overrides: @Sendable (RouteRegistry) throws -> Void

    init(_ overrides: @escaping @Sendable (RouteRegistry) throws -> Void) {
        self.overrides = overrides
    }

    /// On a suite, the trait applies to each of its tests, each getting fresh fakes.
    public var isRecursive: Bool { true }

    /// Runs the test with the replacements in force.
    /// - Parameters:
    ///   - test: The test (or suite).
    ///   - testCase: The test case, nil for a suite.
    ///   - function: Runs the test.
    /// - Throws: Whatever the test throws.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await RouteRegistry.withOverridesEverywhere(overrides) { try await function() }
    }
}

extension Trait where Self == RouteOverridesTrait {
    /// Replaces the registration of `key` for the test, in every registry it looks up in.
    ///
    /// ```swift
    /// @Test(.overriding(.clock) { _ in FakeClock() })
    /// func theBellRingsAtNoon() throws { … }
    /// ```
    ///
    /// By default the replacement is **transient**: each lookup gets a new fake, so a fake that keeps state
    /// (a repository a POST writes to, read back by a GET) loses it between lookups. Pass
    /// `scope: .singleton` for such a fake: it is made once for the test (each test, repetition and
    /// argument gets its own) and every lookup in the test shares it.
    ///
    /// ```swift
    /// @Test(.overriding(.repository, scope: .singleton) { _ in InMemoryRepository() })
    /// func aPostIsReadBack() async throws { … }
    /// ```
    /// - Parameters:
    ///   - key: The key to replace.
    ///   - scope: The replacement's scope: transient (the default), or `.singleton` for one fake shared
    ///     by the test's lookups. For more modifiers, register the replacement with ``overrides(_:)``.
    ///   - factory: Makes the replacement.
    /// - Returns: The trait.
    public static func overriding<Destination>(
        _ key: RoutableService<Destination>, scope: Scope = .transient,
        with factory: @escaping @Sendable (inout Resolver) throws -> Destination
    ) -> Self {
        RouteOverridesTrait { registry in try registry.register(key, factory: factory).scope(scope) }
    }

    /// Replaces the registration of `key` for the test with a factory that runs on the main actor, as
    /// ``Router/RouteRegistry/registerOnMainActor(_:file:line:factory:)`` registers one: a screen or a view
    /// model the app makes on the main actor.
    ///
    /// ```swift
    /// @MainActor
    /// @Test(.overridingOnMainActor(.profileScreen) { _ in FakeProfileScreen() })
    /// func theProfileShowsTheFake() throws { … }
    /// ```
    ///
    /// It is ``overriding(_:scope:with:)`` with a main-actor factory, one registration through the same
    /// trait: a lookup from main-actor code gets the fake synchronously, and one from elsewhere fails with
    /// ``Router/RouteError/Code/mainActorRequired`` before the factory runs, as the app's own main-actor
    /// registration would.
    /// - Parameters:
    ///   - key: The key to replace.
    ///   - scope: The replacement's scope: transient (the default), or `.singleton` for one fake shared
    ///     by the test's lookups. For more modifiers, register the replacement with ``overrides(_:)``.
    ///   - factory: Makes the replacement, on the main actor.
    /// - Returns: The trait.
    public static func overridingOnMainActor<Destination>(
        _ key: RoutableService<Destination>, scope: Scope = .transient,
        with factory: @escaping @MainActor @Sendable (inout Resolver) throws -> Destination
    ) -> Self {
        RouteOverridesTrait { registry in try registry.registerOnMainActor(key, factory: factory).scope(scope) }
    }

    /// Replaces any number of registrations for the test, in every registry it looks up in, with the
    /// registration API's modifiers.
    ///
    /// ```swift
    /// @Test(.overrides { overrides in
    ///     try overrides.register(.clock) { _ in FakeClock() }.scope(.singleton)
    ///     try overrides.register(.session) { _ in FakeSession(user: "ann") }
    /// })
    /// ```
    /// - Parameter register: Registers the replacements.
    /// - Returns: The trait.
    public static func overrides(_ register: @escaping @Sendable (RouteRegistry) throws -> Void) -> Self {
        RouteOverridesTrait(register)
    }
}
