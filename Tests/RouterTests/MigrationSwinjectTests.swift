import Router
import Synchronization
import Testing

// The worked examples of the DocC article "Migrating from Swinject", so that they cannot rot.
// The article's declarations sit here inside `enum SwinjectPort`, and the keys are `fileprivate`, so that
// they do not clash with the other tests' `Engine`, `.engine` and so on; the code is otherwise the same.

enum SwinjectPort {
    // MARK: Car, Engine and Wheel

    protocol Engine: AnyObject { var horsepower: Int { get } }
    protocol Wheel: AnyObject { var position: String { get } }
    protocol Car: AnyObject {
        var engine: any Engine { get }
        var wheels: [any Wheel] { get }
    }

    final class V8: Engine {
        let horsepower: Int
        init(horsepower: Int = 400) { self.horsepower = horsepower }
    }

    final class Tyre: Wheel {
        let position: String
        init(position: String) { self.position = position }
    }

    final class Sedan: Car {
        let engine: any Engine
        let wheels: [any Wheel]
        init(engine: any Engine, wheels: [any Wheel]) {
            self.engine = engine
            self.wheels = wheels
        }
    }

    /// Swinject: `final class PartsAssembly: Assembly { func assemble(container: Container) { … } }`.
    struct PartsModule: RouteModule {
        func register(in registry: RouteRegistry) throws {
            try registry.register(.engine) { _ in V8() }.scope(.singleton)
            try registry.register(.engine.named("diesel")) { _ in V8(horsepower: 180) }
            for position in ["front left", "front right", "rear left", "rear right"] {
                // Several registrations of one key, made on purpose (Swinject would keep the last).
                try registry.register(.wheel) { _ in Tyre(position: position) }.oneOfMany()
            }
        }
    }

    struct CarModule: RouteModule {
        var requiredModules: [any RouteModule.Type] { [PartsModule.self] }

        func register(in registry: RouteRegistry) throws {
            try registry.register(.car) { r in
                Sedan(engine: try r.resolve(.engine), wheels: try r.resolveAll(.wheel))
            }
        }
    }

    // MARK: Arguments

    protocol Paint: AnyObject { var colour: String { get } }

    final class Lacquer: Paint {
        let colour: String
        init(colour: String) { self.colour = colour }
    }

    // MARK: Cat and Home

    protocol Animal: AnyObject { var name: String { get } }
    protocol Home: AnyObject { var animals: [any Animal] { get set } }
    protocol Cat: Animal { var home: any Home { get } }

    final class House: Home {
        var animals: [any Animal] = []
    }

    final class Tabby: Cat {
        let name: String
        let home: any Home
        init(name: String, home: any Home) {
            self.name = name
            self.home = home
        }
    }

    // MARK: Badge counters

    protocol BadgeCounter: Sendable {
        var label: String { get }
        var count: Int { get }
    }

    struct InboxCounter: BadgeCounter {
        let label = "inbox"
        let count = 3
    }

    struct TasksCounter: BadgeCounter {
        let label = "tasks"
        let count = 1
    }

    struct NewsCounter: BadgeCounter {
        let label = "news"
        let count = 0
    }

    protocol Badge: Sendable { var total: Int { get } }

    struct BadgeUpdater: Badge {
        let counters: [any BadgeCounter]
        var total: Int { counters.reduce(0) { $0 + $1.count } }
    }

    struct InboxModule: RouteModule {
        func register(in registry: RouteRegistry) throws {
            try registry.register(.badgeCounter) { _ in InboxCounter() }
        }
    }

    struct TasksModule: RouteModule {
        func register(in registry: RouteRegistry) throws {
            try registry.register(.badgeCounter) { _ in TasksCounter() }
        }
    }

    struct NewsModule: RouteModule {
        func register(in registry: RouteRegistry) throws {
            try registry.register(.badgeCounter) { _ in NewsCounter() }
        }
    }

    struct HeaderModule: RouteModule {
        func register(in registry: RouteRegistry) throws {
            try registry.register(.badge) { r in
                BadgeUpdater(counters: try r.resolveAll(.badgeCounter))
            }.dependencies(.many(.badgeCounter))
        }
    }
}

/// The article's main-actor presenter and view (its `@MainActor` attributes written out, as there).
enum SwinjectMainActorPort {
    @MainActor protocol ProfileView: AnyObject {
        func show(name: String)
    }

    @MainActor protocol ProfilePresenter: AnyObject {
        func viewDidLoad()
    }

    @MainActor final class ProfileViewController: ProfileView {
        var presenter: (any ProfilePresenter)?
        private(set) var shownName = ""
        func show(name: String) { shownName = name }
        func load() { presenter?.viewDidLoad() }
    }

    @MainActor final class ProfilePresenterImpl: ProfilePresenter {
        weak var view: (any ProfileView)?
        func viewDidLoad() { view?.show(name: "Ann") }
    }
}

extension RoutableService where Destination == any SwinjectMainActorPort.ProfileView {
    fileprivate static var profileView: Self { Self(declaring: (any SwinjectMainActorPort.ProfileView).self) }
}
extension RoutableService where Destination == any SwinjectMainActorPort.ProfilePresenter {
    fileprivate static var profilePresenter: Self {
        Self(declaring: (any SwinjectMainActorPort.ProfilePresenter).self)
    }
}

extension RoutableService where Destination == any SwinjectPort.Engine {
    fileprivate static var engine: Self { Self(declaring: (any SwinjectPort.Engine).self) }
}
extension RoutableService where Destination == any SwinjectPort.Wheel {
    fileprivate static var wheel: Self { Self(declaring: (any SwinjectPort.Wheel).self) }
}
extension RoutableService where Destination == any SwinjectPort.Car {
    fileprivate static var car: Self { Self(declaring: (any SwinjectPort.Car).self) }
}
extension RoutableService where Destination == any SwinjectPort.Paint {
    fileprivate static var paint: Self { Self(declaring: (any SwinjectPort.Paint).self) }
}
extension RoutableService where Destination == any SwinjectPort.Home {
    fileprivate static var home: Self { Self(declaring: (any SwinjectPort.Home).self) }
}
extension RoutableService where Destination == any SwinjectPort.Cat {
    fileprivate static var cat: Self { Self(declaring: (any SwinjectPort.Cat).self) }
}
extension RoutableService where Destination == any SwinjectPort.BadgeCounter {
    fileprivate static var badgeCounter: Self { Self(declaring: (any SwinjectPort.BadgeCounter).self) }
}
extension RoutableService where Destination == any SwinjectPort.Badge {
    fileprivate static var badge: Self { Self(declaring: (any SwinjectPort.Badge).self) }
}

struct MigrationSwinjectTests {
    @MainActor @Test func aMainActorPresenterAndViewSetEachOtherWithInjectingOnMainActor() throws {
        typealias Port = SwinjectMainActorPort
        let registry = RouteRegistry()
        try registry.registerOnMainActor(.profileView, as: Port.ProfileViewController.self) { _ in
            Port.ProfileViewController()
        }
        .injectingOnMainActor(.profilePresenter) { view, presenter in view.presenter = presenter }
        try registry.registerOnMainActor(.profilePresenter, as: Port.ProfilePresenterImpl.self) { _ in
            Port.ProfilePresenterImpl()
        }
        .injectingOnMainActor(.profileView) { presenter, view in presenter.view = view }
        try registry.seal()

        let view: any Port.ProfileView = try registry.makeDestination(to: .profileView)
        let controller = try #require(view as? Port.ProfileViewController)
        controller.load()
        #expect(controller.shownName == "Ann")
        #expect((controller.presenter as? Port.ProfilePresenterImpl)?.view === controller)
    }

    @Test func carEngineAndWheelsPortFromAnAssembler() throws {
        let registry = try RouteRegistry(modules: [SwinjectPort.PartsModule(), SwinjectPort.CarModule()])
        let car: any SwinjectPort.Car = try registry.makeDestination(to: .car)

        #expect(car.engine.horsepower == 400)
        #expect(car.wheels.map(\.position) == ["front left", "front right", "rear left", "rear right"])
        // `.singleton` is Swinject's `.container`: every car gets the same engine.
        let engine: any SwinjectPort.Engine = try registry.makeDestination(to: .engine)
        #expect(engine === car.engine)
        // `name:` becomes `.named(_:)`.
        let diesel: any SwinjectPort.Engine = try registry.makeDestination(to: .engine.named("diesel"))
        #expect(diesel.horsepower == 180)
    }

    @Test func aMissingAssemblyIsReportedAtSealingInsteadOfAsANilLater() throws {
        let error = #expect(throws: RouteError.self) {
            try RouteRegistry(modules: [SwinjectPort.CarModule()])
        }
        #expect(error?.code == .validationFailed)
        #expect(error?.reason.contains("PartsModule") == true)
    }

    @Test func argumentsAreCheckedByTypeAtLookup() throws {
        let registry = RouteRegistry()
        try registry.register(.paint, arguments: String.self) { _, colour in SwinjectPort.Lacquer(colour: colour) }
        try registry.seal()

        let red: any SwinjectPort.Paint = try registry.makeDestination(to: .paint, arguments: "red")
        #expect(red.colour == "red")

        let error = #expect(throws: RouteError.self) {
            let _: any SwinjectPort.Paint = try registry.makeDestination(to: .paint, arguments: 42)
        }
        #expect(error?.code == .argumentMismatch)
        #expect(
            error?.description
                == "RoutableService<Paint> takes the arguments (String), but was given (Int). Hint: Pass arguments of exactly these types, in this order."
        )
    }

    @Test func catAndHomeCycleClosesWithoutGraphScopeOrInitCompleted() throws {
        let homes = Atomic<Int>(0)
        let cats = Atomic<Int>(0)
        let registry = RouteRegistry()
        try registry.register(.home) { _ in
            homes.add(1, ordering: .relaxed)
            return SwinjectPort.House()
        }.preparing { home, r in home.animals.append(try r.resolve(.cat)) }
        try registry.register(.cat) { r in
            cats.add(1, ordering: .relaxed)
            return SwinjectPort.Tabby(name: "Felix", home: try r.resolve(.home))
        }
        try registry.seal()

        let home: any SwinjectPort.Home = try registry.makeDestination(to: .home)
        let cat = try #require(home.animals.first as? any SwinjectPort.Cat)
        #expect(cat.home === home)
        #expect(cat.name == "Felix")
        #expect(home.animals.count == 1)

        let felix: any SwinjectPort.Cat = try registry.makeDestination(to: .cat)
        #expect(felix.home.animals.first === felix)

        // One factory call per object per lookup: nothing is built twice and thrown away.
        #expect(homes.load(ordering: .relaxed) == 2)
        #expect(cats.load(ordering: .relaxed) == 2)

        home.animals.removeAll()  // both references are strong: break the cycle
        felix.home.animals.removeAll()
    }

    @Test func badgeCountersAreCollectedWithMany() throws {
        let registry = try RouteRegistry(modules: [
            SwinjectPort.InboxModule(), SwinjectPort.TasksModule(), SwinjectPort.NewsModule(),
            SwinjectPort.HeaderModule(),
        ])

        let counters: [any SwinjectPort.BadgeCounter] = try registry.makeDestinations(to: .badgeCounter)
        #expect(counters.map(\.label) == ["inbox", "tasks", "news"])

        let badge: any SwinjectPort.Badge = try registry.makeDestination(to: .badge)
        #expect(badge.total == 4)
    }

    @Test func aResolveThatWouldBeNilInSwinjectThrowsAnErrorThatSaysWhy() throws {
        let registry = try RouteRegistry(modules: [SwinjectPort.PartsModule()])
        let error = #expect(throws: RouteError.self) {
            let _: any SwinjectPort.Car = try registry.makeDestination(to: .car)
        }
        #expect(error?.code == .unregisteredKey)
        let optional: (any SwinjectPort.Car)? = try registry.makeDestinationIfRegistered(to: .car)
        #expect(optional == nil)
    }
}
