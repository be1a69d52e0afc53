import Router
import Testing

protocol Greeter: AnyObject { var greeting: String { get } }
protocol GreeterModuleConfig: ModuleConfiguration<any Greeter> {
    func constructGreeter(name: String)
    var punctuation: String { get set }
}

final class GreeterImpl: Greeter {
    let greeting: String
    init(greeting: String) { self.greeting = greeting }
}

final class GreeterConfiguration: ModuleConfiguration<any Greeter>, GreeterModuleConfig {
    var name: String?
    var punctuation = "."
    func constructGreeter(name: String) { self.name = name }
}

/// A configuration class that forgets to adopt the module's protocol.
final class ForgetfulConfiguration: ModuleConfiguration<any Greeter> {}

extension RoutableServiceModule where Configuration == any GreeterModuleConfig, Destination == any Greeter {
    static var greeter: Self { Self(declaring: (any GreeterModuleConfig).self, making: (any Greeter).self) }
}

struct ModuleConfigurationTests {
    func registry() throws -> RouteRegistry {
        try sealedRegistry { registry in
            try registry.register(.greeter, configuration: GreeterConfiguration.init) { config, _ in
                let name = try config.require(config.name, setBy: "constructGreeter(name:)")
                return GreeterImpl(greeting: "Hello, \(name)\(config.punctuation)")
            }
        }
    }

    @Test func constructCallsGiveTheInitializerItsParameters() throws {
        let greeter = try registry().makeDestination(to: .greeter) { config in
            config.constructGreeter(name: "Ann")
            config.punctuation = "!"
        }
        #expect(greeter.greeting == "Hello, Ann!")
    }

    @Test func aMissingConstructCallIsAnInvalidConfigurationThatNamesTheCall() throws {
        let error = #expect(throws: RouteError.self) {
            try registry().makeDestination(to: .greeter) { _ in }
        }
        #expect(error?.code == .invalidConfiguration)
        #expect(
            error?.description
                == "The configuration of RoutableServiceModule<GreeterModuleConfig, Greeter> is missing the call constructGreeter(name:); no destination was made. Hint: Call constructGreeter(name:) in the configuring closure of makeDestination(to:configuring:)."
        )
    }

    @Test func handlersRunOnceWithTheOutcomeAndAreReleased() throws {
        let registry = try registry()
        let log = EventLog()
        weak var weakConfig: (any GreeterModuleConfig)?
        _ = try registry.makeDestination(to: .greeter) { config in
            weakConfig = config
            config.constructGreeter(name: "Bo")
            config.successHandler = { log.record("success \($0.greeting)") }
            config.errorHandler = { _ in log.record("error") }
            config.completionHandler = { result in log.record((try? result.get()) == nil ? "failed" : "completed") }
        }
        _ = try? registry.makeDestination(to: .greeter) { config in
            config.errorHandler = { log.record("error \($0.code)") }
            config.completionHandler = { _ in log.record("completed with error") }
        }
        #expect(
            log.events == ["success Hello, Bo.", "completed", "error invalidConfiguration", "completed with error"])
        #expect(weakConfig == nil)
    }

    @Test func theRegistrysErrorHandlerSeesEveryFailure() throws {
        let registry = try registry()
        let log = EventLog()
        registry.errorHandler = { log.record($0.code.description) }
        _ = try? registry.makeDestination(to: .greeter) { _ in }
        _ = try? registry.makeDestination(to: .unregistered)
        #expect(log.events == ["invalidConfiguration", "unregisteredKey"])
    }

    @Test func sealingReportsAConfigurationThatDoesNotAdoptTheProtocol() throws {
        let registry = RouteRegistry()
        try registry.register(.greeter, configuration: ForgetfulConfiguration.init) { _, _ in GreeterImpl(greeting: "")
        }
        let error = #expect(throws: RouteError.self) { try registry.seal() }
        #expect(error?.code == .validationFailed)
        #expect(
            error?.description
                == "Sealing found 1 problem:\n- The configuration ForgetfulConfiguration registered for RoutableServiceModule<GreeterModuleConfig, Greeter> does not conform to GreeterModuleConfig. Hint: Make ForgetfulConfiguration adopt the configuration protocol."
        )
    }
}
