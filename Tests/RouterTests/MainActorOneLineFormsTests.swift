import Router
import Testing

// Issue 35, section 2, from outside the module: the one-line main-actor forms (a path's preparation, an
// injection, a marked view model) behave as registerOnMainActor does: synchronous from main-actor code,
// a typed error naming what failed from anywhere else, and declared edges that sealing checks. And a route
// by path that names no type.

@MainActor final class ShelfScreen {
    var shelf = ""
    var page = 0
    var log: [String] = []
}
extension RoutableService<ShelfScreen> {
    nonisolated static var shelfScreen: Self { .init(declaring: Destination.self) }
}

@MainActor final class ShelfPresenter {
    weak var screen: ShelfScreen?
}
extension RoutableService<ShelfPresenter> {
    nonisolated static var shelfPresenter: Self { .init(declaring: Destination.self) }
}

/// A view model marked as made on the main actor, registered the plain way by a deprecated call (the
/// compiler warns there, naming registerOnMainActor; this helper is deprecated so that the test target
/// builds without warnings).
@MainActor final class ShelfModel: MainActorDestination {
    var count = 0
}
extension RoutableService<ShelfModel> {
    nonisolated static var shelfModel: Self { .init(declaring: Destination.self) }
}

private func shelfRegistry(counting made: Counter) throws -> RouteRegistry {
    try sealedRegistry { registry in
        try registry.registerOnMainActor(.shelfScreen) { _ in
            made.increment()
            let screen = ShelfScreen()
            screen.log.append("factory")
            return screen
        }
        .preparingOnMainActor { screen, _ in screen.log.append("registration's preparation") }
        try registry.registerOnMainActor(path: "shelves/:name/:page(Int)", to: .shelfScreen) { screen, p in
            screen.shelf = try p.string("name")
            screen.page = try p.int("page")
            screen.log.append("path's preparation")
        }
        try registry.register(.number) { _ in 7 }
        try registry.register(path: "lucky", to: .number)
    }
}

extension RoutableService<Int> {
    nonisolated static var number: Self { .init(declaring: Destination.self) }
}

struct MainActorOneLineFormsTests {
    @MainActor @Test func aPathsMainActorPreparationRunsAsTheCallersBeforeTheRegistrations() throws {
        let registry = try shelfRegistry(counting: Counter())
        let screen = try registry.makeDestination(path: "shelves/poetry/2", as: ShelfScreen.self)
        #expect(screen.shelf == "poetry" && screen.page == 2)
        #expect(screen.log == ["factory", "path's preparation", "registration's preparation"])
        let route = try registry.route(path: "shelves/prose/5", as: ShelfScreen.self)
        #expect(try route.perform().page == 5)
    }

    @Test func aPathsMainActorPreparationOffTheMainActorFailsBeforeTheFactoryRuns() throws {
        let made = Counter()
        let registry = try shelfRegistry(counting: made)
        let failure = #expect(throws: RouteError.self) {
            try registry.makeDestination(path: "shelves/poetry/2", as: ShelfScreen.self)
        }
        #expect(failure?.code == .mainActorRequired)
        #expect(
            failure?.description
                == "The path \"shelves/poetry/2\" leads to RoutableService<ShelfScreen>, whose path preparation runs on the main actor, but it was routed outside it. Hint: Make or perform it from main-actor code (from elsewhere: await MainActor.run { … }), or register the path with register(path:to:) and a nonisolated preparation."
        )
        #expect(made.value == 0)
    }

    @Test func aBadParameterInAMainActorPathPreparationIsTheSameTypedErrorAsInAPlainOne() async throws {
        let registry = try shelfRegistry(counting: Counter())
        let code = await MainActor.run { () -> RouteError.Code? in
            do {
                _ = try registry.makeDestination(path: "shelves/poetry/two", as: ShelfScreen.self)
                return nil
            } catch {
                return (error as? RouteError)?.code
            }
        }
        #expect(code == .invalidPath)
    }

    @Test func aRouteByPathWithoutATypeIsPerformedAndKeepsAValueDestination() throws {
        let registry = try shelfRegistry(counting: Counter())
        let route = try registry.route(path: "lucky")
        #expect(try route.perform() as? Int == 7)
        #expect(route.state == .routed)
        #expect(route.destination as? Int == 7)
        #expect(throws: RouteError.self) { try registry.route(path: "nowhere") }
    }

    @MainActor @Test func aMainActorInjectionClosesACycleAndDeclaresItsEdge() throws {
        let registry = try sealedRegistry { registry in
            try registry.registerOnMainActor(.shelfScreen) { _ in ShelfScreen() }
                .injectingOnMainActor(.shelfPresenter) { screen, presenter in
                    screen.log.append(presenter.screen === screen ? "presenter sees this screen" : "another screen")
                }
            try registry.registerOnMainActor(.shelfPresenter) { _ in ShelfPresenter() }
                .injectingOnMainActor(.shelfScreen) { presenter, screen in presenter.screen = screen }
        }
        let screen = try registry.makeDestination(to: .shelfScreen)
        #expect(screen.log == ["presenter sees this screen"])
        let text = try registry.dependencyGraph().textTree
        #expect(text.contains("ShelfPresenter"))

        // The edge is declared: leaving out its target is a sealing problem, not a first-lookup surprise.
        let incomplete = RouteRegistry()
        try incomplete.registerOnMainActor(.shelfScreen) { _ in ShelfScreen() }
            .injectingOnMainActor(.shelfPresenter) { screen, presenter in presenter.screen = screen }
        let problems = try incomplete.validate().problems
        #expect(problems.map(\.code) == [.unregisteredKey])
    }

    @Test func aMainActorInjectionOffTheMainActorIsATypedError() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.number) { _ in 1 }
            try registry.registerOnMainActor(.shelfPresenter) { _ in ShelfPresenter() }
            try registry.register(.number.named("shelf")) { _ in 2 }
                .injectingOnMainActor(.shelfPresenter) { _, _ in }
        }
        #expect(try registry.makeDestination(to: .number) == 1)
        let failure = #expect(throws: RouteError.self) { try registry.makeDestination(to: .number.named("shelf")) }
        #expect(failure?.code == .mainActorRequired)
    }

    @MainActor @Test func aMarkedViewModelRegisteredThePlainWayIsMadeOnlyOnTheMainActor() async throws {
        let made = Counter()
        let registry = try registerMarkedModelThePlainWay(counting: made)
        #expect(try registry.makeDestination(to: .shelfModel).count == 0)
        let code = await Task.detached { () -> RouteError.Code? in
            do {
                _ = try registry.makeDestination(to: .shelfModel)
                return nil
            } catch {
                return (error as? RouteError)?.code
            }
        }.value
        #expect(code == .mainActorRequired)
        #expect(made.value == 1)
    }
}

@available(*, deprecated, message: "calls the deprecated plain register of a MainActorDestination on purpose")
private func registerPlainly(_ registry: RouteRegistry, counting made: Counter) throws {
    try registry.register(.shelfModel) { _ in
        made.increment()
        return ShelfModel()
    }
}

/// Calls the deprecated form through a deprecated helper, reached by a protocol witness so that no
/// non-deprecated code names it (the compiler warns only where deprecated code is called from code that
/// is not).
private protocol PlainRegistering {
    func register(_ registry: RouteRegistry, counting made: Counter) throws
}
private struct Plainly: PlainRegistering {
    @available(*, deprecated, message: "calls the deprecated plain register of a MainActorDestination on purpose")
    func register(_ registry: RouteRegistry, counting made: Counter) throws {
        try registerPlainly(registry, counting: made)
    }
}

private func registerMarkedModelThePlainWay(counting made: Counter) throws -> RouteRegistry {
    try sealedRegistry { registry in
        try (Plainly() as any PlainRegistering).register(registry, counting: made)
    }
}
