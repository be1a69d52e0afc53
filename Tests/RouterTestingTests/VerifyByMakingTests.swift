import Router
import RouterTesting
import Synchronization
import Testing

// `verifyByMaking()`: every registration made once, and every failure and every edge a registration took
// without declaring it in one list (issue 35, item 1).

protocol Logger: AnyObject, Sendable { func log(_ line: String) }
protocol Analytics: AnyObject, Sendable {}
protocol Home: AnyObject {}
protocol Greeting: AnyObject { var text: String { get } }
protocol Store: AnyObject, Sendable {}
@MainActor protocol Screen: AnyObject {}

final class PrintLogger: Logger { func log(_ line: String) {} }
final class NoAnalytics: Analytics {}
final class MemoryStore: Store {}

/// The view model: two wrapped properties, no `.dependencies(…)`.
final class HomeViewModel: Home {
    @Injected(.logger) var logger: any Logger
    @Injected(.analytics) var analytics: any Analytics
}

final class GreetingText: Greeting {
    let text: String
    var logger: (any Logger)?
    init(text: String) { self.text = text }
}

@MainActor final class ScreenModel: Screen {
    let logger: any Logger
    init(logger: any Logger) { self.logger = logger }
}

extension RoutableService where Destination == any Logger {
    static var logger: Self { Self(declaring: (any Logger).self) }
}
extension RoutableService where Destination == any Analytics {
    static var analytics: Self { Self(declaring: (any Analytics).self) }
}
extension RoutableService where Destination == any Home {
    static var home: Self { Self(declaring: (any Home).self) }
}
extension RoutableService where Destination == any Greeting {
    static var greeting: Self { Self(declaring: (any Greeting).self) }
}
extension RoutableService where Destination == any Store {
    static var store: Self { Self(declaring: (any Store).self) }
}
extension RoutableService where Destination == any Screen {
    nonisolated static var screen: Self { Self(declaring: (any Screen).self) }
}

struct VerifyByMakingTests {
    @Test func theViewModelWithInjectedPropertiesThatValidatePassesIsReported() async throws {
        let registry = RouteRegistry()
        try registry.register(.logger) { _ in PrintLogger() }
        try registry.register(.analytics) { _ in NoAnalytics() }
        let line = #line + 1
        try registry.register(.home) { _ in HomeViewModel() }
        try registry.seal()
        // What the issue saw: validation reads only declarations, and this registration declares none.
        #expect(try registry.validate().description == "No problems found.")
        let report = await #expect(throws: VerificationReport.self) { try await registry.verifyByMaking() }
        let site = "RouterTestingTests/VerifyByMakingTests.swift:\(line)"
        #expect(
            report?.description == """
                verifyByMaking() found 2 problems:
                - RoutableService<Home> from \(site) looked up RoutableService<Logger> in its factory, but declares no dependencies (resolving Home → Logger). Hint: Declare it, .dependencies(.initializer(…)) (or .lazy, .many), so that sealing checks it and the graph shows it.
                - RoutableService<Home> from \(site) looked up RoutableService<Analytics> in its factory, but declares no dependencies (resolving Home → Analytics). Hint: Declare it, .dependencies(.initializer(…)) (or .lazy, .many), so that sealing checks it and the graph shows it.
                """)
        #expect(report?.problems.map(\.error.code) == [.undeclaredDependency, .undeclaredDependency])
        #expect(report?.problems.first?.line == line)
    }

    @Test func aMissingDependencyAndAnUndeclaredOneComeInOneList() async throws {
        let registry = RouteRegistry()
        try registry.register(.analytics) { _ in NoAnalytics() }
        try registry.register(.home) { _ in HomeViewModel() }
        try registry.register(.greeting) { r in
            _ = try r.resolve(.analytics)
            return GreetingText(text: "hi")
        }
        try registry.seal()
        let report = await #expect(throws: VerificationReport.self) { try await registry.verifyByMaking() }
        let errors = report?.problems.map(\.error) ?? []
        // The view model cannot be made (no logger): the lookup's own error, with its path.
        #expect(errors.first?.code == .unregisteredKey)
        #expect(errors.first?.path == ["Home", "Logger"])
        // The view model's other property and the closure factory took undeclared edges: listed with it.
        #expect(errors.count == 3)
        #expect(errors.dropFirst().map(\.code) == [.undeclaredDependency, .undeclaredDependency])
        #expect(errors.dropFirst().map(\.path) == [["Home", "Analytics"], ["Greeting", "Analytics"]])
        #expect(
            report?.problems.first?.description.hasPrefix(
                "RoutableService<Home> from RouterTestingTests/VerifyByMakingTests.swift:") == true)
        #expect(
            report?.problems.first?.description.contains(
                " could not be made: No router is registered for RoutableService<Logger> (resolving Home → Logger).")
                == true)
    }

    @Test func closureFactoriesAndPreparationsThatResolveAreReported() async throws {
        let registry = RouteRegistry()
        try registry.register(.logger) { _ in PrintLogger() }
        try registry.register(.store) { r in
            _ = try r.resolve(.logger)
            return MemoryStore()
        }
        try registry.register(.greeting, as: GreetingText.self) { _ in GreetingText(text: "hi") }
            .preparing { greeting, r in greeting.logger = try r.resolve(.logger) }
        try registry.seal()
        let report = await #expect(throws: VerificationReport.self) { try await registry.verifyByMaking() }
        let reasons = report?.problems.map(\.error.reason) ?? []
        #expect(reasons.count == 2)
        #expect(reasons.first?.contains("RoutableService<Store>") == true)
        #expect(reasons.first?.contains("looked up RoutableService<Logger> in its factory") == true)
        #expect(reasons.last?.contains("looked up RoutableService<Logger> in a preparation") == true)
        #expect(report?.problems.last?.error.hint?.contains(".dependencies(.property(…))") == true)
    }

    @Test func declaredEdgesPassAndNoSingletonMadeHereIsKept() async throws {
        let built = Atomic<Int>(0)
        let registry = RouteRegistry()
        try registry.register(.logger) { _ in
            built.add(1, ordering: .relaxed)
            return PrintLogger()
        }.scope(.singleton)
        try registry.register(.home) { _ in HomeViewModel() }
            .dependencies(.initializer(.logger), .initializer(.analytics))
        try registry.register(.analytics) { _ in NoAnalytics() }
        try registry.register(.greeting, initializer: { (logger: any Logger) in GreetingText(text: "auto") })
        try registry.seal()
        let appLogger = try registry.makeDestination(to: .logger)
        let report = try await registry.verifyByMaking()
        #expect(report.description == "No problems found.")
        let home = report.trials.first { $0.key == "RoutableService<Home>" }
        #expect(
            home?.taken.map(\.description) == [
                "initializer → RoutableService<Logger>", "initializer → RoutableService<Analytics>",
            ])
        // The singleton was built anew in the throwaway layer (its factory ran), and the app still has its own.
        #expect(built.load(ordering: .relaxed) == 2)
        #expect(try registry.makeDestination(to: .logger) === appLogger)
    }

    @Test func argumentsComeFromTheTestAndAMissingOneIsReported() async throws {
        let registry = RouteRegistry()
        try registry.register(.logger) { _ in PrintLogger() }
        try registry.register(.greeting, arguments: String.self) { r, name in
            _ = try r.resolve(.logger)
            return GreetingText(text: "Hi \(name)")
        }.dependencies(.initializer(.logger))
        try registry.seal()
        let missing = await #expect(throws: VerificationReport.self) { try await registry.verifyByMaking() }
        #expect(missing?.problems.map(\.error.code) == [.argumentMismatch])
        #expect(
            missing?.problems.first?.error.reason.hasSuffix(
                "takes the arguments (String), and none were supplied, so it was not made.") == true)
        var inputs = RegistrationInputs()
        inputs.arguments(for: .greeting, "ann")
        let report = try await registry.verifyByMaking(supplying: inputs)
        #expect(report.trials.first { $0.name == "Greeting" }?.taken.map(\.isDeclared) == [true])
    }

    @Test func mainActorAndAsyncRegistrationsAreMadeWhereTheyRun() async throws {
        let registry = RouteRegistry()
        try registry.register(.logger) { _ in PrintLogger() }
        try registry.registerOnMainActor(.screen) { r in ScreenModel(logger: try r.resolve(.logger)) }
        try registry.registerAsync(.store) { r async throws in
            _ = try r.resolve(.logger)
            await Task.yield()
            return MemoryStore()
        }
        try registry.seal()
        let report = await #expect(throws: VerificationReport.self) { try await registry.verifyByMaking() }
        // Both were made (no failure), and each one's lookup is reported as undeclared.
        #expect(report?.problems.map(\.error.code) == [.undeclaredDependency, .undeclaredDependency])
        #expect(report?.problems.map(\.key) == ["RoutableService<Screen>", "RoutableService<Store>"])
    }
}
