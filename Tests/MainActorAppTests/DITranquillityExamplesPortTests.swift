import Router
import Synchronization
import Testing

// DITranquillity's documentation examples (issue 17), ported: a car injected through its initializer, its
// properties and a post-init hook; a cat and a dog told apart by tag types; badge counters gathered with
// many; pets made from runtime arguments; an engine built lazily; a cat and its home that point at each
// other. The badge and the adoption screen are main-actor view models.

// MARK: - A car: initializer, properties, many and post-init

nonisolated protocol Engine: AnyObject {
    var model: String { get }
}
extension RoutableService<any Engine> { nonisolated static var engine: Self { .init(declaring: Destination.self) } }

nonisolated protocol Wheel: AnyObject {
    var position: Int { get }
}
extension RoutableService<any Wheel> { nonisolated static var wheel: Self { .init(declaring: Destination.self) } }

nonisolated protocol Body: AnyObject {
    var maker: String { get }
}
extension RoutableService<any Body> { nonisolated static var body: Self { .init(declaring: Destination.self) } }

nonisolated protocol Vehicle: AnyObject {
    var engine: any Engine { get }
    var body: any Body { get }
    var wheels: [any Wheel] { get set }
    var trip: String { get }
    func move(to city: String)
}
extension RoutableService<any Vehicle> { nonisolated static var vehicle: Self { .init(declaring: Destination.self) } }

nonisolated final class BMWEngine: Engine {
    let model = "B58"
}

nonisolated final class AlloyWheel: Wheel {
    let position: Int
    init(position: Int) { self.position = position }
}

nonisolated final class SedanBody: Body {
    let maker: String
    init(maker: String) { self.maker = maker }
}

nonisolated final class Car: Vehicle {
    let engine: any Engine
    let body: any Body
    var wheels: [any Wheel] = []
    private(set) var trip = "parked"
    init(engine: any Engine, body: any Body) {
        self.engine = engine
        self.body = body
    }
    func move(to city: String) { trip = "to \(city) on \(wheels.count) wheels" }
}

/// Tag types: a misspelt tag does not compile.
enum Felix {}
enum Rex {}

// MARK: - Pets: tags, arguments and a cycle

nonisolated protocol Animal: AnyObject {
    var name: String { get }
}
extension RoutableService<any Animal> { nonisolated static var animal: Self { .init(declaring: Destination.self) } }

nonisolated protocol Home: AnyObject {
    var animals: [any Animal] { get set }
}
extension RoutableService<any Home> { nonisolated static var home: Self { .init(declaring: Destination.self) } }

nonisolated final class Cat: Animal {
    let name: String
    let owner: String
    let age: Int
    let home: (any Home)?
    init(name: String, owner: String = "", age: Int = 0, home: (any Home)? = nil) {
        (self.name, self.owner, self.age, self.home) = (name, owner, age, home)
    }
}
extension RoutableService<Cat> { nonisolated static var cat: Self { .init(declaring: Destination.self) } }

nonisolated final class Dog: Animal {
    let name: String
    init(name: String) { self.name = name }
}
extension RoutableService<Dog> { nonisolated static var dog: Self { .init(declaring: Destination.self) } }

nonisolated final class Hamster: Animal {
    let name: String
    let species: String
    init(name: String, species: String = "Syrian") { (self.name, self.species) = (name, species) }
}
extension RoutableService<Hamster> { nonisolated static var hamster: Self { .init(declaring: Destination.self) } }

nonisolated final class House: Home {
    var animals: [any Animal] = []
}

/// Two animals picked by tag.
nonisolated final class Yard {
    let first: any Animal
    let second: any Animal
    init(first: any Animal, second: any Animal) { (self.first, self.second) = (first, second) }
}
extension RoutableService<Yard> { nonisolated static var yard: Self { .init(declaring: Destination.self) } }

// MARK: - Badge counters: many

nonisolated protocol NewCounter: AnyObject {
    var count: Int { get }
}
extension RoutableService<any NewCounter> {
    nonisolated static var newCounter: Self { .init(declaring: Destination.self) }
}

nonisolated final class FixedCounter: NewCounter {
    let count: Int
    init(count: Int) { self.count = count }
}

nonisolated final class MessagesService: NewCounter {
    private(set) var count = 2
    func readAll() { count = 0 }
}
extension RoutableService<MessagesService> {
    nonisolated static var messages: Self { .init(declaring: Destination.self) }
}

final class BadgeViewModel {
    let counters: [any NewCounter]
    init(counters: [any NewCounter]) { self.counters = counters }
    var total: Int { counters.reduce(0) { $0 + $1.count } }
}
extension RoutableService<BadgeViewModel> {
    nonisolated static var badgeScreen: Self { .init(declaring: Destination.self) }
}

// MARK: - Adoption: a provider with arguments, and a lazy engine

final class AdoptionViewModel {
    private let makeCat: Provider<Cat, String, String, Int>
    init(makeCat: Provider<Cat, String, String, Int>) { self.makeCat = makeCat }
    func adopt(_ name: String, by owner: String, age: Int) throws -> Cat { try makeCat(name, owner, age) }
}
extension RoutableService<AdoptionViewModel> {
    nonisolated static var adoptionScreen: Self { .init(declaring: Destination.self) }
}

/// Starts its engine only when asked to.
nonisolated final class Garage {
    let engine: Lazy<any Engine>
    init(engine: Lazy<any Engine>) { self.engine = engine }
}
extension RoutableService<Garage> { nonisolated static var garage: Self { .init(declaring: Destination.self) } }

nonisolated final class EngineCounter: Sendable {
    private let made = Mutex(0)
    var value: Int { made.withLock { $0 } }
    func add() { made.withLock { $0 += 1 } }
}

// MARK: - Registrations

struct GarageModule: RouteModule {
    let enginesMade: EngineCounter

    func register(in registry: RouteRegistry) throws {
        try registry.register(.engine) { [enginesMade] _ in
            enginesMade.add()
            return BMWEngine()
        }
        for position in 1...4 { try registry.register(.wheel) { _ in AlloyWheel(position: position) } }
        try registry.register(.body) { _ in SedanBody(maker: "BMW") }
        try registry.register(.vehicle, initializer: Car.init)
            .preparing(declaring: .many(.wheel)) { car, r in car.wheels = try r.resolveAll(.wheel) }
            .didFinishPrepare { car, _ in car.move(to: "Moscow") }
        try registry.register(.garage) { r in Garage(engine: try r.lazy(.engine)) }.dependencies(.lazy(.engine))
    }
}

struct PetsModule: RouteModule {
    func register(in registry: RouteRegistry) throws {
        try registry.register(.animal.tagged(Felix.self)) { _ in Cat(name: "Felix") }
        try registry.register(.animal.tagged(Rex.self)) { _ in Dog(name: "Rex") }
        try registry.register(.yard) { r in
            Yard(first: try r.resolve(.animal.tagged(Felix.self)), second: try r.resolve(.animal.tagged(Rex.self)))
        }
        try registry.register(.dog, arguments: String.self) { _, name in Dog(name: name) }
        try registry.register(.hamster, arguments: String.self) { _, name in Hamster(name: name) }
        try registry.register(.hamster, arguments: String.self, String.self) { _, name, species in
            Hamster(name: name, species: species)
        }
        try registry.register(.cat, arguments: String.self, String.self, Int.self) { _, name, owner, age in
            Cat(name: name, owner: owner, age: age)
        }
        try registry.registerOnMainActor(.adoptionScreen) { r in
            AdoptionViewModel(makeCat: try r.provider(.cat, arguments: String.self, String.self, Int.self))
        }
        // Without .asDefault() a lookup without arguments counts the registration that takes three as well.
        try registry.register(.cat) { r in Cat(name: "Tom", home: try r.resolve(.home)) }.asDefault()
        try registry.register(.home) { _ in House() }.preparing { home, r in home.animals.append(try r.resolve(.cat)) }
    }
}

struct BadgeModule: RouteModule {
    func register(in registry: RouteRegistry) throws {
        try registry.register(.newCounter) { _ in FixedCounter(count: 3) }
        try registry.register(.messages) { _ in MessagesService() }.scope(.singleton).also(.newCounter)
        try registry.register(.newCounter) { _ in FixedCounter(count: 1) }
        try registry.registerOnMainActor(.badgeScreen) { r in
            BadgeViewModel(counters: try r.resolveAll(.newCounter))
        }.dependencies(.many(.newCounter))
    }
}

// MARK: - Tests

struct DITranquillityExamplesPortTests {
    @Test func theCarGetsItsPartsThenEveryWheelThenMovesOnceItIsComplete() throws {
        let registry = try RouteRegistry(modules: [GarageModule(enginesMade: EngineCounter())])
        let car = try registry.makeDestination(to: .vehicle)
        #expect(car.engine.model == "B58")
        #expect(car.body.maker == "BMW")
        #expect(car.wheels.map(\.position) == [1, 2, 3, 4])
        #expect(car.trip == "to Moscow on 4 wheels")
    }

    @Test func tagsPickTheCatAndTheDogFromOneProtocol() throws {
        let registry = try RouteRegistry(modules: [PetsModule()])
        let yard = try registry.makeDestination(to: .yard)
        #expect((yard.first as? Cat)?.name == "Felix")
        #expect((yard.second as? Dog)?.name == "Rex")
        #expect(try registry.makeDestinationIfRegistered(to: .animal) == nil)
    }

    @Test func theBadgeAddsUpEveryCounterAndSharesTheMessagesSingleton() throws {
        let registry = try RouteRegistry(modules: [BadgeModule()])
        let badge = try registry.makeDestination(to: .badgeScreen)
        #expect(badge.counters.map(\.count).sorted() == [1, 2, 3])
        #expect(badge.total == 6)

        try registry.makeDestination(to: .messages).readAll()
        #expect(badge.total == 4)
    }

    @Test func argumentsArriveAndTheirTypesPickTheHamstersInitializer() throws {
        let registry = try RouteRegistry(modules: [PetsModule()])
        #expect(try registry.makeDestination(to: .dog, arguments: "Rex").name == "Rex")
        #expect(try registry.makeDestination(to: .hamster, arguments: "Bob").species == "Syrian")
        #expect(try registry.makeDestination(to: .hamster, arguments: "Bob", "Roborovski").species == "Roborovski")
        #expect {
            _ = try registry.makeDestination(to: .dog, arguments: 7)
        } throws: { ($0 as? RouteError)?.code == .argumentMismatch }
    }

    @Test func theAdoptionScreenMakesANewCatFromEachCallsArguments() throws {
        let registry = try RouteRegistry(modules: [PetsModule()])
        let adoption = try registry.makeDestination(to: .adoptionScreen)
        let felix = try adoption.adopt("Felix", by: "Peter", age: 2)
        let luna = try adoption.adopt("Luna", by: "Ann", age: 1)
        #expect([felix.name, felix.owner] == ["Felix", "Peter"])
        #expect(felix.age == 2)
        #expect(luna !== felix)
        #expect(luna.owner == "Ann")
    }

    @Test func aLazyEngineIsBuiltOnFirstUseAndOnlyOnce() throws {
        let enginesMade = EngineCounter()
        let registry = try RouteRegistry(modules: [GarageModule(enginesMade: enginesMade)])
        let garage = try registry.makeDestination(to: .garage)
        #expect(enginesMade.value == 0)
        #expect(!garage.engine.isBuilt)

        let engine = try garage.engine.value
        #expect(try garage.engine.value === engine)
        #expect(enginesMade.value == 1)
    }

    @Test func aCatAndItsHomePointAtEachOtherFromEitherSide() throws {
        let registry = try RouteRegistry(modules: [PetsModule()])
        let home = try registry.makeDestination(to: .home)
        let tom = try #require(home.animals.first as? Cat)
        #expect(tom.home === home)
        #expect(home.animals.count == 1)

        let cat = try registry.makeDestination(to: .cat)
        #expect(cat.home?.animals.first === cat)
    }
}
