import Router
import Testing

// The "Module configuration" article's example (ConfiguringModules.md), as written there, in a target whose
// default isolation is the main actor (issue 45): the configuration protocol, its class, the key, the
// factory that reads a configuration property, and the lookup that configures. (The service's protocol is
// `Greeter` there; this target has a `Greeter` of its own, from the README's port.) Without `nonisolated` on
// the configuration protocol, the factory could not read `punctuation`: the class's property that satisfies
// a requirement of a main-actor protocol is on the main actor too, and the factory is not.

nonisolated protocol ConfiguredGreeter: AnyObject { var greeting: String { get } }

nonisolated protocol GreeterModuleConfig: ModuleConfiguration<any ConfiguredGreeter> {
    func constructGreeter(name: String)
    var punctuation: String { get set }
}

extension RoutableServiceModule<any GreeterModuleConfig, any ConfiguredGreeter> {
    nonisolated static var greeter: Self { .init(declaring: Configuration.self, making: Destination.self) }
}

final class GreeterConfiguration: ModuleConfiguration<any ConfiguredGreeter>, GreeterModuleConfig {
    var name: String?
    var punctuation = "."
    func constructGreeter(name: String) { self.name = name }
}

// Not shown by the article (its prelude has it): a service's class, `nonisolated` as the main-actor article's
// table says, since its protocol does not inherit `Sendable`.
nonisolated final class GreeterImpl: ConfiguredGreeter {
    let greeting: String
    init(greeting: String) { self.greeting = greeting }
}

struct ConfiguringModulesPortTests {
    @Test func theConfiguringModulesExampleCompilesAndRunsInAMainActorTarget() throws {
        let registry = RouteRegistry()
        try registry.register(.greeter, configuration: GreeterConfiguration.init) { config, _ in
            let name = try config.require(config.name, setBy: "constructGreeter(name:)")
            return GreeterImpl(greeting: "Hello, \(name)\(config.punctuation)")
        }
        try registry.seal()

        let greeter = try registry.makeDestination(to: .greeter) { config in
            config.constructGreeter(name: "Ann")
            config.punctuation = "!"
        }
        #expect(greeter.greeting == "Hello, Ann!")
    }
}
