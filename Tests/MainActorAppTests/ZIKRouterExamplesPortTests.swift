import Router
import Synchronization
import Testing

// ZIKRouter's dependency-injection examples (issue 17), ported: a person module whose name is a required
// `construct…` call of its configuration, a person service prepared by the caller and then by its router
// (which only fills what the caller left unset), and a parent screen and a child screen that each look the
// other up in their prepare hooks.
//
// ZIKRouter's screens are view controllers, main-actor classes, and so are they here: registered with
// `registerOnMainActor` and prepared with `.preparingOnMainActor`, whose closure may set their properties.

// MARK: - A person, made through a module configuration

nonisolated protocol Name: Sendable {
    var firstName: String { get }
    var lastName: String { get }
}

struct PersonName: Name {
    let firstName: String
    let lastName: String
}

nonisolated protocol PersonType: AnyObject {
    var name: any Name { get }
    var wife: (any PersonType)? { get set }
    var children: [any PersonType] { get }
    var addressBook: (any AddressBook)? { get set }
    var history: [String] { get set }
    func addChild(_ child: any PersonType)
}
extension RoutableService<any PersonType> { nonisolated static var person: Self { .init(declaring: Destination.self) } }

nonisolated final class Person: PersonType {
    let name: any Name
    var wife: (any PersonType)?
    private(set) var children: [any PersonType] = []
    var addressBook: (any AddressBook)?
    var history = ["made"]
    init(name: any Name) { self.name = name }
    func addChild(_ child: any PersonType) { children.append(child) }
}

protocol PersonModuleConfig: ModuleConfiguration<any PersonType> {
    func constructWithName(_ name: any Name)
}
extension RoutableServiceModule<any PersonModuleConfig, any PersonType> {
    nonisolated static var personModule: Self { .init(declaring: Configuration.self, making: Destination.self) }
}

final class PersonConfiguration: ModuleConfiguration<any PersonType>, PersonModuleConfig {
    var name: (any Name)?
    func constructWithName(_ name: any Name) { self.name = name }
}

/// Where every prepared person is filed, once, by the router's did-finish hook.
nonisolated protocol AddressBook: AnyObject, Sendable {
    var entries: [String] { get }
    func file(_ entry: String)
}
extension RoutableService<any AddressBook> {
    nonisolated static var addressBook: Self { .init(declaring: Destination.self) }
}

final class SharedAddressBook: AddressBook {
    private let stored = Mutex<[String]>([])
    var entries: [String] { stored.withLock { $0 } }
    func file(_ entry: String) { stored.withLock { $0.append(entry) } }
}

// MARK: - A parent screen and a child screen

protocol ParentScreen: AnyObject {
    var child: (any ChildScreen)? { get set }
}
extension RoutableService<any ParentScreen> {
    nonisolated static var parentScreen: Self { .init(declaring: Destination.self) }
}

protocol ChildScreen: AnyObject {
    var parent: (any ParentScreen)? { get set }
}
extension RoutableService<any ChildScreen> {
    nonisolated static var childScreen: Self { .init(declaring: Destination.self) }
}

final class ParentViewController: ParentScreen {
    var child: (any ChildScreen)?
    let title = "Parent"
}

final class ChildViewController: ChildScreen {
    var parent: (any ParentScreen)?
    let title = "Child"
}

/// Counts the screens made, so that a test can tell that neither side of the cycle was built twice.
nonisolated final class MadeCounter: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    func add() { count.withLock { $0 += 1 } }
}

// MARK: - Routers

struct PeopleModule: RouteModule {
    func register(in registry: RouteRegistry) throws {
        try registry.register(.addressBook) { _ in SharedAddressBook() }.scope(.singleton)
        try registry.register(.personModule, configuration: PersonConfiguration.init) { config, _ in
            Person(name: try config.require(config.name, setBy: "constructWithName(_:)"))
        }
        try registry.register(.person) { _ in Person(name: PersonName(firstName: "Anonymous", lastName: "")) }
            .preparing { person, r in
                person.history.append("router prepares")
                if person.addressBook == nil { person.addressBook = try r.resolve(.addressBook) }
            }
            .didFinishPrepare { person, _ in
                person.history.append("did finish")
                person.addressBook?.file("\(person.name.firstName), married: \(person.wife != nil)")
            }
    }
}

struct FamilyScreensModule: RouteModule {
    let made: MadeCounter

    func register(in registry: RouteRegistry) throws {
        try registry.registerOnMainActor(.parentScreen) { [made] _ in
            made.add()
            return ParentViewController()
        }.preparingOnMainActor { parent, r in
            // The child's own hook would look the parent up; setting it first avoids a second parent.
            if parent.child == nil { parent.child = try r.resolve(.childScreen) { $0.parent = parent } }
        }
        try registry.registerOnMainActor(.childScreen) { [made] _ in
            made.add()
            return ChildViewController()
        }.preparingOnMainActor { child, r in
            if child.parent == nil { child.parent = try r.resolve(.parentScreen) { $0.child = child } }
        }
    }
}

// MARK: - Tests

struct ZIKRouterExamplesPortTests {
    @Test func aConfiguredModuleIsMadeWithTheNameItsConstructCallGave() throws {
        let registry = try RouteRegistry(modules: [PeopleModule()])
        var made: [String] = []
        let person = try registry.makeDestination(to: .personModule) { config in
            config.constructWithName(PersonName(firstName: "Ann", lastName: "Lee"))
            config.successHandler = { made.append($0.name.lastName) }
        }
        #expect(person.name.firstName == "Ann")
        #expect(made == ["Lee"])
    }

    @Test func aForgottenConstructCallIsATypedErrorAndNoPersonIsMade() throws {
        let registry = try RouteRegistry(modules: [PeopleModule()])
        var failures: [RouteError.Code] = []
        #expect {
            _ = try registry.makeDestination(to: .personModule) { config in
                config.errorHandler = { failures.append($0.code) }
            }
        } throws: { error in
            (error as? RouteError)?.code == .invalidConfiguration
                && "\(error)".contains("constructWithName(_:)")
        }
        #expect(failures == [.invalidConfiguration])
    }

    @Test func theCallersPreparationRunsBeforeTheRoutersAndDidFinishSeesBoth() throws {
        let registry = try RouteRegistry(modules: [PeopleModule()])
        let wife = Person(name: PersonName(firstName: "Eve", lastName: "Lee"))
        let child = Person(name: PersonName(firstName: "Kim", lastName: "Lee"))
        let person = try registry.makeDestination(to: .person) { person in
            person.history.append("caller prepares")
            person.wife = wife
            person.addChild(child)
        }
        #expect(person.history == ["made", "caller prepares", "router prepares", "did finish"])
        #expect(person.wife === wife)
        #expect(person.children.map(\.name.firstName) == ["Kim"])
        #expect(try registry.makeDestination(to: .addressBook).entries == ["Anonymous, married: true"])
    }

    @Test func theRouterFillsInTheAddressBookOnlyWhenTheCallerLeftItUnset() throws {
        let registry = try RouteRegistry(modules: [PeopleModule()])
        let privateBook = SharedAddressBook()
        let shared = try registry.makeDestination(to: .addressBook)

        let listed = try registry.makeDestination(to: .person) { $0.addressBook = privateBook }
        #expect(listed.addressBook === privateBook)
        #expect(privateBook.entries == ["Anonymous, married: false"])

        let defaulted = try registry.makeDestination(to: .person)
        #expect(defaulted.addressBook === shared)
        #expect(shared.entries == ["Anonymous, married: false"])
    }

    @Test func aParentScreenAndItsChildPointAtEachOtherAndEachIsMadeOnce() throws {
        let made = MadeCounter()
        let registry = try RouteRegistry(modules: [FamilyScreensModule(made: made)])
        let parent = try registry.makeDestination(to: .parentScreen)
        let child = try #require(parent.child)
        #expect(child.parent === parent)
        #expect(made.value == 2)
    }

    @Test func aChildScreenLookedUpFirstGetsAParentThatPointsBackAtIt() throws {
        let made = MadeCounter()
        let registry = try RouteRegistry(modules: [FamilyScreensModule(made: made)])
        let child = try registry.makeDestination(to: .childScreen)
        let parent = try #require(child.parent)
        #expect(parent.child === child)
        #expect(made.value == 2)
    }
}
