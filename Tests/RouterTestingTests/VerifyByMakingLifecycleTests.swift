import Dispatch
import Router
import RouterTesting
import Synchronization
import Testing

// `verifyByMaking()` where an app's registrations live (issue 45): a main-actor factory is made on the main
// actor, a server registry's request-scoped and supplied registrations in a request scope of the trial's,
// and the singletons a run makes are torn down by it; a registry that was shut down is not verified.

struct RequestInfo: Sendable {
    let path: String
}
protocol OrderHandler: AnyObject, Sendable { var path: String { get } }
protocol OrderPage: AnyObject, Sendable { var handler: any OrderHandler { get } }
protocol Dashboard: AnyObject, Sendable {}

final class PathOrderHandler: OrderHandler {
    let path: String
    init(path: String) { self.path = path }
}
final class HandlerPage: OrderPage {
    let handler: any OrderHandler
    init(handler: any OrderHandler) { self.handler = handler }
}
@MainActor final class ThreadScreen: Screen {}
final class StoreDashboard: Dashboard {}
/// A count several threads may add to.
final class Count: Sendable {
    private let atomic = Atomic<Int>(0)
    var value: Int { atomic.load(ordering: .relaxed) }
    func add() { atomic.add(1, ordering: .relaxed) }
}

extension RoutableService where Destination == RequestInfo {
    static var requestInfo: Self { Self(declaring: RequestInfo.self) }
}
extension RoutableService where Destination == any OrderHandler {
    static var orderHandler: Self { Self(declaring: (any OrderHandler).self) }
}
extension RoutableService where Destination == any OrderPage {
    static var orderPage: Self { Self(declaring: (any OrderPage).self) }
}
extension RoutableService where Destination == any Dashboard {
    static var dashboard: Self { Self(declaring: (any Dashboard).self) }
}

/// Marks the main dispatch queue, the main actor's executor, so that code can ask whether it runs on it
/// without trapping (as `MainActor.assertIsolated` would).
let mainQueueMark = DispatchSpecificKey<Bool>()

/// Whether the caller runs on the main dispatch queue, marked once (a global's initializer runs once,
/// however many tests ask at the same time).
func runsOnTheMainQueue() -> Bool {
    _ = mainQueueMarked
    return DispatchQueue.getSpecific(key: mainQueueMark) == true
}
private let mainQueueMarked: Void = DispatchQueue.main.setSpecific(key: mainQueueMark, value: true)

struct VerifyByMakingLifecycleTests {
    /// Not `@MainActor`: Swift Testing runs it off the main actor, as most tests run. The main actor's
    /// executor is the main dispatch queue; under `swift test` on Linux a pool thread drains it, not the
    /// process's main thread, so the factory asks the queue, not `Thread.isMainThread`.
    @Test func aMainActorFactoryIsMadeOnTheMainActor() async throws {
        // 0: not run; 1: ran on the main actor's queue; 2: ran elsewhere.
        let ranOn = Atomic<Int>(0)
        let registry = RouteRegistry()
        try registry.registerOnMainActor(.screen) { _ in
            ranOn.store(runsOnTheMainQueue() ? 1 : 2, ordering: .relaxed)
            return ThreadScreen()
        }
        try registry.seal()
        try await registry.verifyByMaking()
        #expect(ranOn.load(ordering: .relaxed) == 1)
    }

    /// The same for one made with the arguments a test supplies (through `RegistrationInputs`).
    @Test func aMainActorFactoryTakingArgumentsIsMadeOnTheMainActor() async throws {
        let ranOn = Atomic<Int>(0)
        let registry = RouteRegistry()
        try registry.registerOnMainActor(.screen, arguments: String.self) { _, _ in
            ranOn.store(runsOnTheMainQueue() ? 1 : 2, ordering: .relaxed)
            return ThreadScreen()
        }
        try registry.seal()
        var inputs = RegistrationInputs()
        inputs.arguments(for: .screen, "home")
        try await registry.verifyByMaking(supplying: inputs)
        #expect(ranOn.load(ordering: .relaxed) == 1)
    }

    /// A registry of a server: a supplied request context, a request-scoped handler made from it, and a
    /// transient page made from the handler.
    private func serverRegistry(seen: Count) throws -> RouteRegistry {
        let registry = RouteRegistry()
        try registry.registerSupplied(.requestInfo)
        try registry.register(.orderHandler) { r in
            let info = try r.resolve(.requestInfo)
            if info.path == "/orders" { seen.add() }
            return PathOrderHandler(path: info.path)
        }.scope(.request).dependencies(.initializer(.requestInfo))
        try registry.register(.orderPage) { r in HandlerPage(handler: try r.resolve(.orderHandler)) }
            .dependencies(.initializer(.orderHandler))
        try registry.seal()
        return registry
    }

    @Test func requestScopedRegistrationsAreMadeInARequestScopeWithTheSuppliedValue() async throws {
        let seen = Count()
        let registry = try serverRegistry(seen: seen)
        var inputs = RegistrationInputs()
        inputs.supply(RequestInfo(path: "/orders"), for: .requestInfo)
        let report = try await registry.verifyByMaking(supplying: inputs)
        #expect(report.description == "No problems found.")
        // The handler was made from the value supplied: in its own trial, and in the page's.
        #expect(seen.value == 2)
        #expect(
            report.trials.first { $0.name == "OrderPage" }?.taken.map(\.description) == [
                "initializer → RoutableService<OrderHandler>"
            ])
    }

    @Test func aSuppliedKeyWithNoValueIsReportedAsNotSuppliedByTheInputs() async throws {
        let registry = try serverRegistry(seen: Count())
        let report = await #expect(throws: VerificationReport.self) { try await registry.verifyByMaking() }
        let problems = report?.problems ?? []
        // The key itself, and each registration made from it: none is `outsideRequestScope`.
        #expect(problems.map(\.error.code) == [.notSupplied, .notSupplied, .notSupplied])
        #expect(problems.map(\.error.key).allSatisfy { $0 == "RoutableService<RequestInfo>" })
        #expect(
            problems.map(\.error.path) == [
                ["RequestInfo"], ["OrderHandler", "RequestInfo"], ["OrderPage", "OrderHandler", "RequestInfo"],
            ])
        #expect(
            problems.first?.description
                == "RoutableService<RequestInfo> from \(problems.first?.site ?? "") could not be made: RoutableService<RequestInfo> is supplied by each request scope, and the RegistrationInputs gave no value for it. Hint: Supply one: inputs.supply(value, for: RequestInfo)."
        )
    }

    @Test func aSingletonReachingARequestScopedKeyIsStillACaptiveDependency() async throws {
        let registry = try serverRegistry(seen: Count())
        let child = RouteRegistry(parent: registry)
        // Declares nothing, so sealing cannot refuse it: only a lookup sees the edge.
        try child.register(.dashboard) { r in
            _ = try r.resolve(.orderHandler)
            return StoreDashboard()
        }.scope(.singleton)
        try child.seal()
        var inputs = RegistrationInputs()
        inputs.supply(RequestInfo(path: "/orders"), for: .requestInfo)
        let report = await #expect(throws: VerificationReport.self) {
            try await child.verifyByMaking(supplying: inputs)
        }
        #expect(report?.problems.first?.key == "RoutableService<Dashboard>")
        #expect(report?.problems.first?.error.code == .captiveDependency)
    }

    @Test func aValueForAKeyThatIsNotSuppliedFailsTheRunBeforeAnythingIsMade() async throws {
        let made = Atomic<Int>(0)
        let registry = RouteRegistry()
        try registry.register(.requestInfo) { _ in
            made.add(1, ordering: .relaxed)
            return RequestInfo(path: "/")
        }
        try registry.seal()
        var inputs = RegistrationInputs()
        inputs.supply(RequestInfo(path: "/orders"), for: .requestInfo)
        let error = await #expect(throws: RouteError.self) { try await registry.verifyByMaking(supplying: inputs) }
        #expect(error?.code == .notSupplied)
        #expect(error?.key == "RoutableService<RequestInfo>")
        #expect(made.load(ordering: .relaxed) == 0)
    }

    @Test func theSingletonsAVerificationMakesAreTornDownAndTheRegistrysOwnAreNot() async throws {
        let tornDown = Atomic<Int>(0)
        let registry = RouteRegistry()
        try registry.register(.store) { _ in MemoryStore() }
            .scope(.singleton)
            .teardown { _ in _ = tornDown.add(1, ordering: .relaxed) }
        try registry.register(.logger) { _ in PrintLogger() }
            .scope(.eagerSingleton)
            .teardown { _ in _ = tornDown.add(10, ordering: .relaxed) }
        try registry.seal()
        let appStore = try registry.makeDestination(to: .store)
        try await registry.verifyByMaking()
        // The run's store and logger, once each; the app's own are untouched and still served.
        #expect(tornDown.load(ordering: .relaxed) == 11)
        #expect(try registry.makeDestination(to: .store) === appStore)
        // The registry's shutdown tears down its own, once each.
        try await registry.shutdownAsync()
        #expect(tornDown.load(ordering: .relaxed) == 22)
    }

    @Test func verifyingLeavesTheRegistrysShutdownOrderAlone() async throws {
        // Each teardown records when it ran: the dependent (Dashboard) must go before what it was made from.
        let clock = Atomic<Int>(0)
        let storeAt = Atomic<Int>(0)
        let dashboardAt = Atomic<Int>(0)
        let failing = Atomic<Bool>(false)
        let registry = RouteRegistry()
        try registry.register(.store) { _ in MemoryStore() }
            .scope(.singleton)
            .teardown { _ in storeAt.store(clock.add(1, ordering: .relaxed).newValue, ordering: .relaxed) }
        try registry.register(.dashboard) { r in
            _ = try r.resolve(.store)
            if failing.load(ordering: .relaxed) { throw CancellationError() }
            return StoreDashboard()
        }
        .scope(.singleton)
        .dependencies(.initializer(.store))
        .teardown { _ in dashboardAt.store(clock.add(1, ordering: .relaxed).newValue, ordering: .relaxed) }
        try registry.seal()
        _ = try registry.makeDestination(to: .dashboard)
        // The run makes a store of its own, and no dashboard: its store must not move the app's later.
        failing.store(true, ordering: .relaxed)
        _ = try? await registry.verifyByMaking()
        #expect(storeAt.load(ordering: .relaxed) == 1)
        try await registry.shutdownAsync()
        #expect(dashboardAt.load(ordering: .relaxed) == 2)
        #expect(storeAt.load(ordering: .relaxed) == 3)
    }

    @Test func aTeardownThatThrowsDuringVerificationIsReported() async throws {
        struct Stuck: Error {}
        let registry = RouteRegistry()
        try registry.register(.store) { _ in MemoryStore() }
            .scope(.singleton)
            .teardown { _ in throw Stuck() }
        try registry.seal()
        let report = await #expect(throws: VerificationReport.self) { try await registry.verifyByMaking() }
        #expect(report?.problems.map(\.error.code) == [.teardownFailed])
        #expect(report?.problems.first?.error.underlyingError is Stuck)
        #expect(
            report?.problems.first?.description.contains(
                "RoutableService<Store> from RouterTestingTests/VerifyByMakingLifecycleTests.swift:") == true)
        #expect(report?.problems.first?.description.contains(" was made, and its teardown failed: ") == true)
    }

    @Test func aRegistryThatWasShutDownIsNotVerified() async throws {
        let made = Atomic<Int>(0)
        let registry = RouteRegistry()
        try registry.register(.store) { _ in
            made.add(1, ordering: .relaxed)
            return MemoryStore()
        }
        try registry.seal()
        try await registry.shutdownAsync()
        let error = await #expect(throws: RouteError.self) { try await registry.verifyByMaking() }
        #expect(error?.code == .shutDown)
        #expect(made.load(ordering: .relaxed) == 0)
    }

    @Test func aChildOfARegistryThatWasShutDownIsNotVerified() async throws {
        let parent = RouteRegistry()
        try parent.register(.store) { _ in MemoryStore() }
        try parent.seal()
        let child = RouteRegistry(parent: parent)
        try child.register(.logger) { _ in PrintLogger() }
        try child.seal()
        try await parent.shutdownAsync()
        let error = await #expect(throws: RouteError.self) { try await child.verifyByMaking() }
        #expect(error?.code == .shutDown)
    }
}
