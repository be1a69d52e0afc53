import Router
import Testing

struct RouteLifecycleTests {
    func registry(hooks: EventLog = EventLog()) throws -> RouteRegistry {
        try sealedRegistry { registry in
            try registry.register(.screen) { _ in ScreenImpl(title: "Home") }.hooks(
                RouteHooks(
                    willPerform: { hooks.record("will perform \($0.title)") },
                    didPerform: { hooks.record("did perform \($0.title)") },
                    willRemove: { hooks.record("will remove \($0.title)") },
                    didRemove: { hooks.record("did remove \($0.title)") }))
        }
    }

    @Test func aPresentedRouteGoesThroughEveryState() throws {
        let stack = ScreenStack()
        stack.manual = true
        let route = try registry().route(to: .screen)
        let states = EventLog()
        route.stateDidChange = { old, new in states.record("\(old)→\(new)") }
        #expect(route.canPerform)
        let screen = try route.perform(presenter: stack)
        #expect(route.state == .routing)  // a screen route completes when the screen is shown
        stack.finishShowing()
        #expect(route.state == .routed)
        #expect(route.canRemove)
        try route.remove()
        #expect(route.state == .removed)
        #expect(stack.screens.isEmpty)
        #expect(states.events == ["unrouted→routing", "routing→routed", "routed→removing", "removing→removed"])
        #expect(screen.title == "Home")
    }

    @Test func aServiceRouteCompletesAtOnce() throws {
        let route = try registry().route(to: .screen)
        _ = try route.perform()
        #expect(route.state == .routed)
    }

    @Test func performingWhileRoutingIsAnOverRoute() throws {
        let stack = ScreenStack()
        stack.manual = true
        let route = try registry().route(to: .screen)
        try route.perform(presenter: stack)
        let error = #expect(throws: RouteError.self) { try route.perform(presenter: stack) }
        #expect(error?.code == .overRoute)
        #expect(
            error?.description
                == "The route to RoutableService<Screen> is already routing. Hint: Wait for it to complete (see stateDidChange) before performing again."
        )
        stack.finishShowing()
    }

    @Test func removingBeforePerformingIsAnActionFailure() throws {
        let route = try registry().route(to: .screen)
        let error = #expect(throws: RouteError.self) { try route.remove() }
        #expect(error?.code == .actionFailed)
        #expect(
            error?.description
                == "Cannot remove the route to RoutableService<Screen>: it is unrouted, not routed. Hint: Perform the route first, and remove it once."
        )
    }

    @Test func theRouteHoldsItsDestinationWeakly() throws {
        let route = try registry().route(to: .screen)
        _ = try route.perform()  // nobody keeps the screen
        #expect(route.destination == nil)
        #expect(!route.canRemove)
        let error = #expect(throws: RouteError.self) { try route.remove() }
        #expect(
            error?.reason == "Cannot remove the route to RoutableService<Screen>: its destination is already gone.")
    }

    @Test func aFactoryThatFailsIsThrownAndReachesTheCompletionOnceAndTheErrorHandler() throws {
        let registry = try sealedRegistry { try $0.register(.screen) { _ in throw Boom() } }
        let log = EventLog()
        registry.errorHandler = { log.record("registry \($0.code)") }
        let route = try registry.route(to: .screen)
        let thrown = #expect(throws: RouteError.self) {
            try route.perform(
                completion: { result in
                    switch result {
                    case .success: log.record("completion success")
                    case .failure(let error): log.record("completion \(error.code)")
                    }
                })
        }
        #expect(thrown?.code == .factoryFailed)
        #expect(route.state == .unrouted)
        #expect(log.events == ["registry factoryFailed", "completion factoryFailed"])
    }

    @Test func aPresenterFailureReachesOnlyTheCompletionSinceNothingIsLeftToThrow() throws {
        let stack = ScreenStack()
        stack.manual = true
        stack.failNext = true
        let route = try registry().route(to: .screen)
        var outcome: Result<any Screen, RouteError>?
        // Nothing failed yet when perform returns: the presenter answers later.
        _ = try route.perform(presenter: stack, completion: { outcome = $0 })
        #expect(outcome == nil)
        #expect(route.state == .routing)
        stack.finishShowing()
        guard case .failure(let error) = outcome else {
            Issue.record("the presenter's failure did not reach the completion")
            return
        }
        #expect(error.code == .destinationUnavailable)
        #expect(route.state == .unrouted)
    }

    @Test func aPresenterThatCannotShowMakesTheDestinationUnavailable() throws {
        let stack = ScreenStack()
        stack.failNext = true
        let route = try registry().route(to: .screen)
        let log = EventLog()
        try route.perform(
            presenter: stack,
            completion: {
                if case .failure(let error) = $0 { log.record(error.description) }
            })
        #expect(route.state == .unrouted)
        #expect(log.events == ["The presenter could not show the destination of RoutableService<Screen>: boom."])
    }

    @Test func handlersAreReleasedAfterUse() throws {
        final class Witness {}
        let route = try registry().route(to: .screen)
        var witness: Witness? = Witness()
        weak let weakWitness = witness
        let stack = ScreenStack()
        try route.perform(presenter: stack) { [witness] _ in _ = witness }
        witness = nil
        #expect(weakWitness == nil)
        #expect(route.state == .routed)
    }

    @Test func hooksFireOncePerRouteWhoeverPerformsIt() throws {
        let hooks = EventLog()
        let registry = try registry(hooks: hooks)
        let stack = ScreenStack()
        for _ in 0..<2 {
            let route = try registry.route(to: .screen)
            try route.perform(presenter: stack)
            try route.remove()
        }
        let once = ["will perform Home", "did perform Home", "will remove Home", "did remove Home"]
        #expect(hooks.events == once + once)
    }

    @Test func removalRunsItsOwnPreparation() throws {
        let stack = ScreenStack()
        let route = try registry().route(to: .screen)
        try route.perform(presenter: stack)
        let log = EventLog()
        try route.remove(preparation: { log.record("preparing removal of \($0.title)") })
        #expect(log.events == ["preparing removal of Home"])
    }
}

struct InterceptorTests {
    @Test func interceptorsRunAroundEveryRouteInOrder() throws {
        let log = EventLog()
        let registry = try sealedRegistry { try $0.register(.screen) { _ in ScreenImpl(title: "A") } }
        registry.addInterceptor(RecordingInterceptor(name: "first", log: log))
        registry.addInterceptor(RecordingInterceptor(name: "second", log: log))
        let route = try registry.route(to: .screen)
        let stack = ScreenStack()
        try route.perform(presenter: stack)
        #expect(
            log.events == [
                "first before perform RoutableService<Screen>", "second before perform RoutableService<Screen>",
                "first after perform", "second after perform", "first success perform", "second success perform",
            ])
    }

    @Test func anInterceptorCanCancelARoute() throws {
        let log = EventLog()
        let made = Counter()
        let registry = try sealedRegistry { registry in
            try registry.register(.screen) { _ in
                made.increment()
                return ScreenImpl(title: "A")
            }
        }
        registry.addInterceptor(RecordingInterceptor(name: "guard", log: log, veto: true))
        let route = try registry.route(to: .screen)
        let error = #expect(throws: RouteError.self) { try route.perform() }
        #expect(error?.code == .routeCancelled)
        #expect(error?.reason == "An interceptor cancelled the route to RoutableService<Screen>: boom.")
        #expect(made.value == 0)
        #expect(route.state == .unrouted)
        #expect(log.events.last == "guard error routeCancelled")
    }
}

struct LeakDetectionTests {
    @Test func aRemovedDestinationThatStaysAliveIsReported() async throws {
        let registry = try sealedRegistry { try $0.register(.screen) { _ in ScreenImpl(title: "Leaky") } }
        registry.leakCheckDelay = .milliseconds(10)
        let log = EventLog()
        registry.errorHandler = { log.record($0.description) }
        let route = try registry.route(to: .screen)
        let leaked = try route.perform()  // the test keeps it: a deliberate leak
        try route.remove()
        await registry.waitForLeakChecks()
        #expect(
            log.events == [
                "The destination ScreenImpl of RoutableService<Screen> was removed but is still alive after 0.01 seconds. Hint: Look for a strong reference to it: a closure capturing it, a delegate, a cache."
            ])
        _ = leaked
    }

    @Test func aReleasedDestinationIsNotReported() async throws {
        let registry = try sealedRegistry { try $0.register(.screen) { _ in ScreenImpl(title: "Fine") } }
        registry.leakCheckDelay = .milliseconds(10)
        let log = EventLog()
        registry.errorHandler = { log.record($0.description) }
        let stack = ScreenStack()
        let route = try registry.route(to: .screen)
        try route.perform(presenter: stack)
        try route.remove()
        await registry.waitForLeakChecks()
        #expect(log.events.isEmpty)
    }
}

struct KeyVarietyTests {
    @Test func aSwitchableKeyIsChosenAtRunTimeAndStaysTyped() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8(horsepower: 1) }
            try registry.register(.engine.tagged(Diesel.self)) { _ in V8(horsepower: 2) }
        }
        // ZIKRouter's switchable service is a `switch` over keys of one type (see SwitchableService+Unavailable).
        func engine(diesel: Bool) -> RoutableService<any Engine> {
            diesel ? .engine.tagged(Diesel.self) : .engine
        }
        #expect(try registry.makeDestination(to: engine(diesel: true)).horsepower == 2)
        #expect(try registry.makeDestination(to: engine(diesel: false)).horsepower == 1)
    }

    @Test func aComposedProtocolIsAKeyOfItsOwn() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.titledInput) { _ in ScreenImpl(title: "Editor") }
        }
        let editor = try registry.makeDestination(to: .titledInput)
        editor.text = "draft"
        #expect(editor.title == "Editor")
        #expect(editor.text == "draft")
        // The runtime orders a composition's members, so both spellings are one key.
        #expect(RoutableService.titledInput.description == "RoutableService<Input & Titled>")
        #expect(RoutableService.titledInput == RoutableService(declaring: (any Input & Titled).self))
    }

    @Test func anExclusiveRegistrationRejectsASecondRouter() throws {
        let registry = RouteRegistry()
        try registry.register(.screen, line: 1) { _ in ScreenImpl(title: "Only") }.exclusive()
        try registry.register(.bookScreen, line: 2) { _ in ScreenImpl(title: "Other") }
        let report = try registry.validate()
        #expect(report.problems.map(\.code) == [.exclusiveRegistration])
        #expect(
            report.problems.first?.reason
                == "RoutableService<Screen> is registered exclusively by RouterTests/RouteLifecycleTests.swift:1, but is also served by RoutableService<Screen>[tag: BookTag] from RouterTests/RouteLifecycleTests.swift:2."
        )
    }
}
