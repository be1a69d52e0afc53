import Router
import Testing

// Issue 44: after `shutdown()` every public door of the registry answers `shutDown`, not the miss it would
// give for an empty table (`unknownIdentifier`, `unknownPath`, nil, `[]`, `notSupplied`); and a `Lazy` or a
// `Provider` taken before shutdown reads the registry's state at each call, not the table it was made with.

private final class InjectedRadio {
    @Injected(.radio) var radio: any Radio
}

private final class OptionallyInjectedRadio {
    @Injected(.radio) var radio: (any Radio)?
}

/// A shut-down registry with a registration behind every kind of door: by key, with arguments, by
/// identifier, by path, supplied by request scopes, and a singleton made before shutdown.
private func shutDownRegistry() throws -> RouteRegistry {
    let registry = try sealedRegistry { registry in
        try registry.register(.engine) { _ in V8() }.scope(.singleton).identifier("engine")
            .teardown { _ in }
        try registry.register(.radio) { _ in RadioImpl() }
        try registry.register(path: "radio", to: .radio)
        try registry.register(.wheel, arguments: Int.self) { _, position in WheelImpl(position: position) }
        try registry.registerSupplied(.requestInfo)
    }
    _ = try registry.makeDestination(to: .engine)
    try registry.shutdown()
    return registry
}

/// An object made by hand, its properties injected from `registry`.
private func madeByHand<Made>(_ make: () -> Made, in registry: RouteRegistry) -> Made {
    registry.withInjectionBinding { make() }
}

/// One public lookup door, run against a shut-down registry.
enum ShutDownDoor: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case makeDestinationByKey, makeDestinationOfABuiltSingleton, makeDestinationWithArguments
    case makeDestinationWithAPreparation, makeDestinationIfRegistered, makeDestinations
    case makeDestinationByIdentifier, makeDestinationByIdentifierAsAny
    case makeDestinationByPath, makeDestinationByPathAsAny, routeByPath, routeByPathAsAny, routeToKey
    case lazy, provider, providerWithArguments
    case makeDestinationAsync, makeDestinationAsyncWithArguments
    case requestScopeSupply, requestScopeMakeDestination, requestScopeMakeDestinationAsync
    case injected, optionalInjected

    var testDescription: String { rawValue }

    /// What the door answers: the error it throws (or, for an injected property, its projected value's).
    func error(of registry: RouteRegistry) async -> (any Error)? {
        do {
            switch self {
            case .makeDestinationByKey: _ = try registry.makeDestination(to: .radio)
            case .makeDestinationOfABuiltSingleton: _ = try registry.makeDestination(to: .engine)
            case .makeDestinationWithArguments: _ = try registry.makeDestination(to: .wheel, arguments: 1)
            case .makeDestinationWithAPreparation: _ = try registry.makeDestination(to: .radio) { _ in }
            case .makeDestinationIfRegistered: _ = try registry.makeDestinationIfRegistered(to: .radio)
            case .makeDestinations: _ = try registry.makeDestinations(to: .radio)
            case .makeDestinationByIdentifier:
                _ = try registry.makeDestination(identifier: "engine", as: (any Engine).self)
            case .makeDestinationByIdentifierAsAny: _ = try registry.makeDestination(identifier: "engine")
            case .makeDestinationByPath: _ = try registry.makeDestination(path: "radio", as: (any Radio).self)
            case .makeDestinationByPathAsAny: _ = try registry.makeDestination(path: "radio")
            case .routeByPath: _ = try registry.route(path: "radio", as: (any Radio).self)
            case .routeByPathAsAny: _ = try registry.route(path: "radio")
            case .routeToKey: _ = try registry.route(to: .radio)
            case .lazy: _ = try registry.lazy(.radio)
            case .provider: _ = try registry.provider(.radio)
            case .providerWithArguments: _ = try registry.provider(.wheel, arguments: Int.self)
            case .makeDestinationAsync: _ = try await registry.makeDestinationAsync(to: .radio)
            case .makeDestinationAsyncWithArguments:
                _ = try await registry.makeDestinationAsync(to: .wheel, arguments: 1)
            case .requestScopeSupply:
                try registry.openRequestScope().supply(RequestInfoValue(id: 1), for: .requestInfo)
            case .requestScopeMakeDestination: _ = try registry.openRequestScope().makeDestination(to: .radio)
            case .requestScopeMakeDestinationAsync:
                _ = try await registry.openRequestScope().makeDestinationAsync(to: .radio)
            case .injected:
                if case .failure(let error) = madeByHand(InjectedRadio.init, in: registry).$radio {
                    return error
                }
            case .optionalInjected:
                if case .failure(let error) = madeByHand(OptionallyInjectedRadio.init, in: registry).$radio {
                    return error
                }
            }
            return nil
        } catch {
            return error
        }
    }
}

struct ShutdownDoorsTests {
    @Test(arguments: ShutDownDoor.allCases)
    func everyDoorOfAShutDownRegistryAnswersShutDown(_ door: ShutDownDoor) async throws {
        let registry = try shutDownRegistry()
        let error = await door.error(of: registry)
        #expect((error as? RouteError)?.code == .shutDown, "\(door) answered \(String(describing: error))")
    }

    @Test func aLazyAndAProviderTakenBeforeShutdownAnswerShutDownAndHandOutNoTornDownInstance() throws {
        let tornDown = TestLocked<[ObjectIdentifier]>([])
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8() }.scope(.singleton)
                .teardown { engine in tornDown.withLock { $0.append(ObjectIdentifier(engine)) } }
            try registry.register(.wheel, arguments: Int.self) { r, position in
                _ = try r.resolve(.engine)
                return WheelImpl(position: position)
            }.dependencies(.initializer(.engine))
        }
        let builtLazy = try registry.lazy(.engine)
        let unbuiltLazy = try registry.lazy(.engine)
        let provider = try registry.provider(.engine)
        let providerWithArguments = try registry.provider(.wheel, arguments: Int.self)
        let engine = try builtLazy.value
        #expect(try provider() === engine)
        try registry.shutdown()
        #expect(tornDown.withLock { $0 } == [ObjectIdentifier(engine)])

        let heard = TestLocked<[RouteError.Code]>([])
        registry.errorHandler = { error in heard.withLock { $0.append(error.code) } }
        let answers: [() throws -> Any] = [
            { try builtLazy.value }, { try builtLazy.value() }, { try unbuiltLazy.value },
            { try provider() }, { try providerWithArguments(1) },
        ]
        for answer in answers {
            #expect {
                _ = try answer()
            } throws: { error in
                let failure = error as? RouteError
                return failure?.code == .shutDown
                    && ["RoutableService<Engine>", "RoutableService<Wheel>"].contains(failure?.key ?? "")
            }
        }
        #expect(heard.withLock { $0 } == Array(repeating: .shutDown, count: answers.count))
        #expect(tornDown.withLock { $0 } == [ObjectIdentifier(engine)])
    }

    @Test func aProviderTakenBeforeResetSingletonsGivesTheNewInstance() throws {
        let tornDown = Counter()
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8() }.resettable().teardown { _ in tornDown.increment() }
        }
        let provider = try registry.provider(.engine)
        let before = try provider()
        registry.resetSingletons()
        #expect(tornDown.value == 1)
        let after = try provider()
        #expect(after !== before)
        #expect(try registry.makeDestination(to: .engine) === after)
    }
}
