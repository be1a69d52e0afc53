import Router
import Testing

// Sealing knows which registrations are made on the main actor: a registration that is always built off
// the main actor (an eager singleton, an async factory) and needs one built with it can never be built,
// and validation says so, naming both keys and what to do.

/// A nonisolated object that holds a main-actor view.
protocol Presenter: AnyObject {
    var view: (any ProfileView)? { get set }
}
extension RoutableService<any Presenter> {
    nonisolated static var presenter: Self { .init(declaring: Destination.self) }
}
final class PresenterImpl: Presenter {
    var view: (any ProfileView)?
    let views: [any ProfileView]
    init() { views = [] }
    init(view: any ProfileView) {
        self.view = view
        views = []
    }
    init(views: [any ProfileView]) { self.views = views }
}

/// A nonisolated object that holds a presenter.
protocol Coordinator: AnyObject {}
extension RoutableService<any Coordinator> {
    nonisolated static var coordinator: Self { .init(declaring: Destination.self) }
}
final class CoordinatorImpl: Coordinator {
    let presenter: any Presenter
    init(presenter: any Presenter) { self.presenter = presenter }
}

/// The validation problems of a registry made by `body`, as text.
private func problems(_ body: (RouteRegistry) throws -> Void) throws -> [String] {
    let registry = RouteRegistry()
    try registry.registerOnMainActor(.profileView) { _ in ProfileViewImpl(title: "Profile") }
    try body(registry)
    return try registry.validate().problems.map(\.description)
}

private let eagerNeedsTheView =
    "RoutableService<Presenter> is built off the main actor (an eager singleton, built while sealing), but needs RoutableService<ProfileView>, which is made on the main actor, so it can never be built (resolving Presenter → ProfileView). Hint: Register Presenter with registerOnMainActor and a scope other than eagerSingleton, or give it a Lazy or Provider of ProfileView (declared as .lazy) and read that on the main actor."
struct MainActorValidationTests {
    @Test func anEagerSingletonDeclaringAMainActorDependencyIsAProblemNamingBoth() throws {
        #expect(
            try problems { registry in
                try registry.register(.presenter) { _ in PresenterImpl() }
                    .scope(.eagerSingleton).dependencies(.initializer(.profileView))
            } == [eagerNeedsTheView])
    }

    @Test func aMainActorEagerSingletonIsAProblemOnEveryPlatform() throws {
        let registry = RouteRegistry()
        try registry.registerOnMainActor(.profileView) { _ in ProfileViewImpl(title: "Profile") }
            .scope(.eagerSingleton)
        #expect(
            try registry.validate().problems.map(\.description) == [
                "RoutableService<ProfileView> is made on the main actor, but is an eager singleton, which sealing builds off the main actor. Hint: Use .scope(.singleton): it is built once, by the first lookup, which main-actor code makes synchronously."
            ])
        let error = #expect(throws: RouteError.self) { try registry.seal() }
        #expect(error?.code == .validationFailed)
    }

    @Test func anAutoWiredEagerSingletonNeedingAMainActorKeyIsAProblem() throws {
        #expect(
            try problems { registry in
                try registry.register(.presenter, initializer: PresenterImpl.init(view:)).scope(.eagerSingleton)
            } == [eagerNeedsTheView])
    }

    @Test func anAsyncFactoryNeedingAMainActorKeyIsNoProblem() throws {
        // It runs on its lookup's executor: the main actor, when main-actor code makes the lookup.
        #expect(
            try problems { registry in
                try registry.registerAsync(.presenter) { _ in PresenterImpl() }.dependencies(.initializer(.profileView))
                try registry.registerAsync(.presenter.named("injected")) { _ in PresenterImpl() }
                    .injecting(\.view, .profileView)
            } == [])
    }

    @Test func aManyEdgeReachingMainActorRegistrationsIsOneProblem() throws {
        let found = try problems { registry in
            try registry.registerOnMainActor(.profileView) { _ in ProfileViewImpl(title: "Second") }
            try registry.register(.presenter) { r in PresenterImpl(views: try r.resolveAll(.profileView)) }
                .scope(.eagerSingleton).dependencies(.many(.profileView))
        }
        #expect(found == [eagerNeedsTheView])
    }

    @Test func aNeedThroughOtherRegistrationsIsAProblemThatShowsThePath() throws {
        #expect(
            try problems { registry in
                try registry.register(.presenter, initializer: PresenterImpl.init(view:))
                try registry.register(.coordinator) { r in CoordinatorImpl(presenter: try r.resolve(.presenter)) }
                    .scope(.eagerSingleton).dependencies(.initializer(.presenter))
            } == [
                "RoutableService<Coordinator> is built off the main actor (an eager singleton, built while sealing), but needs RoutableService<ProfileView>, which is made on the main actor, so it can never be built (resolving Coordinator → Presenter → ProfileView). Hint: Register Coordinator with registerOnMainActor and a scope other than eagerSingleton, or give it a Lazy or Provider of ProfileView (declared as .lazy) and read that on the main actor."
            ])
    }

    @Test func sealingFailsWithTheProblemBeforeBuildingTheEagerSingleton() throws {
        let made = Counter()
        let registry = RouteRegistry()
        try registry.registerOnMainActor(.profileView) { _ in ProfileViewImpl(title: "Profile") }
        try registry.register(.presenter) { _ in
            made.increment()
            return PresenterImpl()
        }.scope(.eagerSingleton).dependencies(.initializer(.profileView))
        let error = #expect(throws: RouteError.self) { try registry.seal() }
        #expect(error?.code == .validationFailed)
        #expect(error?.description == "Sealing found 1 problem:\n- \(eagerNeedsTheView)")
        #expect(made.value == 0 && !registry.isSealed)
    }

    @Test func needsThatCanBeMetOnTheMainActorAreNoProblem() throws {
        #expect(
            try problems { registry in
                // A lazy edge: the Lazy is read on the main actor later.
                try registry.register(.presenter) { r in
                    _ = try r.lazy(.profileView)
                    return PresenterImpl()
                }.scope(.eagerSingleton).dependencies(.lazy(.profileView))
                // An ordinary singleton may be built first from main-actor code.
                try registry.register(.presenter.named("on demand"), initializer: PresenterImpl.init(view:))
                    .scope(.singleton)
                // An async factory reaching it through a shared instance, which main-actor code may have built.
                try registry.registerAsync(.coordinator) { r in
                    CoordinatorImpl(presenter: try r.resolve(.presenter.named("on demand")))
                }.dependencies(.initializer(.presenter.named("on demand")))
                // A main-actor registration needing another.
                try registry.registerOnMainActor(.profileView.named("host")) { r in try r.resolve(.profileView) }
                    .dependencies(.initializer(.profileView))
            } == [])
    }

    @Test func theGraphMarksMainActorRegistrations() throws {
        let registry = try sealedRegistry { registry in
            try registry.registerOnMainActor(.profileView) { _ in ProfileViewImpl(title: "Profile") }
            try registry.register(.presenter, initializer: PresenterImpl.init(view:))
        }
        let graph = try registry.dependencyGraph()
        #expect(graph.nodes.map(\.isMainActor) == [true, false])
        #expect(
            graph.textTree
                == """
                Presenter (transient, RouteRegistry)
                └─ initializer → ProfileView (transient, main actor, RouteRegistry)

                """)
        #expect(graph.dot.contains("n0 [label=\"ProfileView\\ntransient, main actor\"];"))
        #expect(graph.dot.contains("n1 [label=\"Presenter\\ntransient\"];"))
    }
}
