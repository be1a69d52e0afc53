import Router
import Testing

// The misuse catalogue of issue 7: every way a user can hold the API wrong, each with its error code,
// its exact message, and proof that the registry still works afterwards.

/// What must still hold after the misuse.
enum RelAfterwards: Sendable {
    /// The registry works: it is sealed (sealing it now if the misuse left it open) and a good lookup succeeds.
    case works
    /// Sealing failed, so the registry stays open, and sealing again reports the same problem.
    case staysOpenWithSameError
}

struct RelMisuse: Sendable, CustomTestStringConvertible {
    let name: String
    let code: RouteError.Code
    let message: String
    var seal = true
    var maxDepth = 1_000
    var afterwards = RelAfterwards.works
    /// Registrations made before sealing, besides the good key.
    var setUp: @Sendable (RouteRegistry) throws -> Void = { _ in }
    /// The misuse itself; it must throw.
    let misuse: @Sendable (RouteRegistry) throws -> Void

    var testDescription: String { name }
}

/// A key every catalogue registry registers correctly, to prove it still works after the misuse.
private let goodKey = RoutableService.engine.named("reliability-good")

private struct RelCheckoutModule: RouteModule {
    var requiredModules: [any RouteModule.Type] { [RelPaymentsModule.self] }
    func register(in registry: RouteRegistry) throws {}
}

private struct RelPaymentsModule: RouteModule {
    func register(in registry: RouteRegistry) throws {}
}

private let positionedWheel = RoutableService.wheel.named("positioned")
private let wrongModuleKey = RoutableServiceModule(
    declaring: (any GreeterModuleConfig).self, making: (any Engine).self)

private func cycle(of length: Int) -> @Sendable (RouteRegistry) throws -> Void {
    { registry in
        let keys = (0..<length).map { RoutableService.engine.named("cycle\($0)") }
        for index in 0..<length {
            let next = keys[(index + 1) % length]
            try registry.register(keys[index]) { r in
                _ = try r.resolve(next)
                return V8()
            }
        }
    }
}

private func registerGreeter(_ registry: RouteRegistry) throws {
    try registry.register(.greeter, configuration: GreeterConfiguration.init) { config, _ in
        GreeterImpl(greeting: "Hello, \(try config.require(config.name, setBy: "constructGreeter(name:)"))")
    }
}

private func registerPositionedWheel(_ registry: RouteRegistry) throws {
    try registry.register(positionedWheel, arguments: Int.self) { _, position in WheelImpl(position: position) }
}

extension RelMisuse {
    // Messages are pasted from real runs and reviewed; see the report of issue 7 for the ones that read badly.
    static let catalogue: [RelMisuse] = [
        RelMisuse(
            name: "unregistered key", code: .unregisteredKey,
            message:
                "No router is registered for RoutableService<Unregistered>. Hint: Register it in a RouteModule, e.g. registry.register(key) { … }.",
            misuse: { registry in
                _ = try registry.makeDestination(to: .unregistered)
            }),
        RelMisuse(
            name: "unregistered key with a tagged sibling", code: .unregisteredKey,
            message:
                "No router is registered for RoutableService<Radio>. Hint: Registered for the same protocol: RoutableService<Radio>[tag: Diesel].",
            setUp: { try $0.register(RoutableService.radio.tagged(Diesel.self)) { _ in RadioImpl() } },
            misuse: { _ = try $0.makeDestination(to: .radio) }),
        RelMisuse(
            name: "unregistered dependency inside a factory", code: .unregisteredKey,
            message:
                "No router is registered for RoutableService<Radio> (resolving Car → Radio). Hint: Register it in a RouteModule, e.g. registry.register(key) { … }.",
            setUp: { registry in
                try registry.register(.car) { r in
                    let car = CarImpl(engine: V8())
                    car.radio = try r.resolve(.radio)
                    return car
                }
            }, misuse: { _ = try $0.makeDestination(to: .car) }),
        RelMisuse(
            name: "unknown identifier", code: .unknownIdentifier,
            message:
                "No router is registered for the identifier \"parts/engine\". Hint: Known identifiers: \"parts/radio\".",
            setUp: { try $0.register(.radio) { _ in RadioImpl() }.identifier("parts/radio") },
            misuse: { _ = try $0.makeDestination(identifier: "parts/engine", as: (any Engine).self) }),
        RelMisuse(
            name: "unknown identifier when none are registered", code: .unknownIdentifier,
            message:
                "No router is registered for the identifier \"settings\". Hint: No identifiers are registered; pass identifier: to register(…).",
            misuse: { _ = try $0.makeDestination(identifier: "settings", as: (any Engine).self) }),
        RelMisuse(
            name: "identifier looked up as the wrong type", code: .destinationTypeMismatch,
            message:
                "The destination for \"parts/radio\" is Radio, which is not Engine. Hint: It is registered as RoutableService<Radio>; ask for the type it makes, Radio.",
            setUp: { try $0.register(.radio) { _ in RadioImpl() }.identifier("parts/radio") },
            misuse: { _ = try $0.makeDestination(identifier: "parts/radio", as: (any Engine).self) }),
        RelMisuse(
            name: "missing construct call", code: .invalidConfiguration,
            message:
                "The configuration of RoutableServiceModule<GreeterModuleConfig, Greeter> is missing the call constructGreeter(name:); no destination was made. Hint: Call constructGreeter(name:) in the configuring closure of makeDestination(to:configuring:).",
            setUp: registerGreeter,
            misuse: { _ = try $0.makeDestination(to: .greeter) { _ in } }),
        RelMisuse(
            name: "configuring closure throws", code: .factoryFailed,
            message:
                "The caller's configuring closure of RoutableServiceModule<GreeterModuleConfig, Greeter> threw: boom.",
            setUp: registerGreeter,
            misuse: { _ = try $0.makeDestination(to: .greeter) { _ in throw Boom() } }),
        RelMisuse(
            name: "module key with the wrong destination", code: .destinationTypeMismatch,
            message:
                "The module RoutableServiceModule<GreeterModuleConfig, Engine> makes Greeter, not Engine. Hint: A configuration protocol belongs to one module, and the one registered for GreeterModuleConfig makes Greeter: declare the key making that, or give the module that makes Engine a configuration protocol of its own.",
            setUp: registerGreeter, misuse: { _ = try $0.makeDestination(to: wrongModuleKey) { _ in } }),
        RelMisuse(
            name: "argument count mismatch", code: .argumentMismatch,
            message:
                "RoutableService<Wheel>[\"positioned\"] takes the arguments (Int), but was given (Int, Int). Hint: Pass arguments of exactly these types, in this order.",
            setUp: registerPositionedWheel,
            misuse: { _ = try $0.makeDestination(to: positionedWheel, arguments: 1, 2) }),
        RelMisuse(
            name: "argument type mismatch", code: .argumentMismatch,
            message:
                "RoutableService<Wheel>[\"positioned\"] takes the arguments (Int), but was given (String). Hint: Pass arguments of exactly these types, in this order.",
            setUp: registerPositionedWheel,
            misuse: { _ = try $0.makeDestination(to: positionedWheel, arguments: "front left") }),
        RelMisuse(
            name: "missing arguments", code: .argumentMismatch,
            message:
                "RoutableService<Wheel>[\"positioned\"] takes the arguments (Int), but none were given. Hint: Pass them with makeDestination(to:arguments:) or resolve(_:arguments:).",
            setUp: registerPositionedWheel,
            misuse: { _ = try $0.makeDestination(to: positionedWheel) }),
        RelMisuse(
            name: "arguments to a key that takes none", code: .argumentMismatch,
            message:
                "RoutableService<Radio> takes no arguments, but was given (Int). Hint: Look it up with makeDestination(to:) or resolve(_:), or register it with arguments:.",
            setUp: { try $0.register(.radio) { _ in RadioImpl() } },
            misuse: { _ = try $0.makeDestination(to: .radio, arguments: 1) }),
        RelMisuse(
            name: "argument mismatch inside a factory", code: .argumentMismatch,
            message:
                "RoutableService<Wheel>[\"positioned\"] takes the arguments (Int), but was given (String) (resolving Car → Wheel[\"positioned\"]). Hint: Pass arguments of exactly these types, in this order.",
            setUp: { registry in
                try registerPositionedWheel(registry)
                try registry.register(.car) { r in
                    _ = try r.resolve(positionedWheel, arguments: "rear")
                    return CarImpl(engine: V8())
                }
            }, misuse: { _ = try $0.makeDestination(to: .car) }),
        RelMisuse(
            name: "provider with arguments for a key that takes none", code: .argumentMismatch,
            message:
                "RoutableService<Radio> takes no arguments, but was given (Int). Hint: Look it up with makeDestination(to:) or resolve(_:), or register it with arguments:.",
            setUp: { try $0.register(.radio) { _ in RadioImpl() } },
            misuse: { _ = try $0.provider(.radio, arguments: Int.self) }),
        RelMisuse(
            name: "provider called with the wrong argument type", code: .argumentMismatch,
            message:
                "RoutableService<Wheel>[\"positioned\"] takes the arguments (Int), but was given (String). Hint: Pass arguments of exactly these types, in this order.",
            setUp: registerPositionedWheel,
            misuse: { registry in
                let provider: Provider<any Wheel, String> = try registry.provider(
                    positionedWheel, arguments: String.self)
                _ = try provider("spare")
            }),
        RelMisuse(
            name: "factory throws", code: .factoryFailed,
            message:
                "The factory of RoutableService<Radio> threw: boom.",
            setUp: { try $0.register(.radio) { _ in throw Boom() } },
            misuse: { _ = try $0.makeDestination(to: .radio) }),
        RelMisuse(
            name: "nested factory throws", code: .factoryFailed,
            message:
                "The factory of RoutableService<Engine> threw: boom (resolving Car → Engine).",
            setUp: { registry in
                try registry.register(.engine) { _ in throw Boom() }
                try registry.register(.car) { r in CarImpl(engine: try r.resolve(.engine)) }
            }, misuse: { _ = try $0.makeDestination(to: .car) }),
        RelMisuse(
            name: "injection throws", code: .factoryFailed,
            message:
                "The preparation of RoutableService<Car> threw: boom.",
            setUp: { registry in
                try registry.register(.car) { _ in CarImpl(engine: V8()) }.preparing { _, _ in throw Boom() }
            }, misuse: { _ = try $0.makeDestination(to: .car) }),
        RelMisuse(
            name: "preparation throws", code: .factoryFailed,
            message:
                "The preparation of RoutableService<Car> threw: boom.",
            setUp: { registry in
                try registry.register(.car) { _ in CarImpl(engine: V8()) }.preparing { _, _ in throw Boom() }
            }, misuse: { _ = try $0.makeDestination(to: .car) }),
        RelMisuse(
            name: "didFinishPrepare throws", code: .factoryFailed,
            message:
                "The didFinishPrepare hook of RoutableService<Car> threw: boom.",
            setUp: { registry in
                try registry.register(.car) { _ in CarImpl(engine: V8()) }.didFinishPrepare { _, _ in throw Boom() }
            }, misuse: { _ = try $0.makeDestination(to: .car) }),
        RelMisuse(
            name: "caller preparation throws", code: .factoryFailed,
            message:
                "The caller's preparation of RoutableService<Radio> threw: boom.",
            setUp: { try $0.register(.radio) { _ in RadioImpl() } },
            misuse: { _ = try $0.makeDestination(to: .radio) { _ in throw Boom() } }),
        RelMisuse(
            name: "lazy value whose factory throws", code: .factoryFailed,
            message:
                "The factory of RoutableService<Radio> threw: boom.",
            setUp: { try $0.register(.radio) { _ in throw Boom() } },
            misuse: { _ = try $0.lazy(.radio).value }),
        RelMisuse(
            name: "lazy of an unregistered key", code: .unregisteredKey,
            message:
                "No router is registered for RoutableService<Radio>. Hint: Register it in a RouteModule, e.g. registry.register(key) { … }.",
            misuse: { _ = try $0.lazy(.radio) }),
        RelMisuse(
            name: "makeDestinationIfRegistered still reports a failing factory", code: .factoryFailed,
            message:
                "The factory of RoutableService<Radio> threw: boom.",
            setUp: { try $0.register(.radio) { _ in throw Boom() } },
            misuse: { _ = try $0.makeDestinationIfRegistered(to: .radio) }),
        RelMisuse(
            name: "initializer-only cycle of length 1", code: .circularDependency,
            message:
                "Circular dependency: Engine[\"cycle0\"] → Engine[\"cycle0\"] cannot be built, because Engine[\"cycle0\"] is needed before its initializer has returned. Hint: Inject one edge of the cycle after creation (.injecting or .preparing), or through Lazy or Provider.",
            setUp: cycle(of: 1),
            misuse: { _ = try $0.makeDestination(to: RoutableService.engine.named("cycle0")) }),
        RelMisuse(
            name: "initializer-only cycle of length 2", code: .circularDependency,
            message:
                "Circular dependency: Engine[\"cycle0\"] → Engine[\"cycle1\"] → Engine[\"cycle0\"] cannot be built, because Engine[\"cycle0\"] is needed before its initializer has returned. Hint: Inject one edge of the cycle after creation (.injecting or .preparing), or through Lazy or Provider.",
            setUp: cycle(of: 2),
            misuse: { _ = try $0.makeDestination(to: RoutableService.engine.named("cycle0")) }),
        RelMisuse(
            name: "initializer-only cycle of length 3", code: .circularDependency,
            message:
                "Circular dependency: Engine[\"cycle1\"] → Engine[\"cycle2\"] → Engine[\"cycle0\"] → Engine[\"cycle1\"] cannot be built, because Engine[\"cycle1\"] is needed before its initializer has returned. Hint: Inject one edge of the cycle after creation (.injecting or .preparing), or through Lazy or Provider.",
            setUp: cycle(of: 3),
            misuse: { _ = try $0.makeDestination(to: RoutableService.engine.named("cycle1")) }),
        RelMisuse(
            name: "initializer-only cycle of length 4", code: .circularDependency,
            message:
                "Circular dependency: Engine[\"cycle3\"] → Engine[\"cycle0\"] → Engine[\"cycle1\"] → Engine[\"cycle2\"] → Engine[\"cycle3\"] cannot be built, because Engine[\"cycle3\"] is needed before its initializer has returned. Hint: Inject one edge of the cycle after creation (.injecting or .preparing), or through Lazy or Provider.",
            setUp: cycle(of: 4),
            misuse: { _ = try $0.makeDestination(to: RoutableService.engine.named("cycle3")) }),
        RelMisuse(
            name: "declared initializer cycle caught at sealing", code: .validationFailed,
            message:
                "Sealing found 1 problem:\n- Circular dependency: NodeA → NodeB → NodeA is made only of initializer dependencies, so none of them can be built. Hint: Inject one edge after creation (.injecting or .preparing), or through Lazy or Provider.",
            seal: false,
            afterwards: .staysOpenWithSameError,
            setUp: { registry in
                try registry.register(.nodeA) { _ in AImpl(b: nil) }.dependencies(.initializer(.nodeB))
                try registry.register(.nodeB) { _ in BImpl() }.dependencies(.initializer(.nodeA))
            }, misuse: { try $0.seal() }),
        RelMisuse(
            name: "10,000-deep chain", code: .resolutionTooDeep,
            message:
                "Resolving RoutableService<Wheel>[\"link1000\"] went deeper than 1000 nested lookups (resolving Wheel[\"link0\"] → Wheel[\"link1\"] → Wheel[\"link2\"] → … → Wheel[\"link998\"] → Wheel[\"link999\"] → Wheel[\"link1000\"]). Hint: Raise maxDepth when making the RouteRegistry if the chain is intended.",
            setUp: { registry in
                let keys = (0..<10_000).map { RoutableService.wheel.named("link\($0)") }
                for index in 0..<10_000 {
                    if index == 9_999 {
                        try registry.register(keys[index]) { _ in WheelImpl(position: index) }
                    } else {
                        let next = keys[index + 1]
                        try registry.register(keys[index]) { r in try r.resolve(next) }
                    }
                }
            }, misuse: { _ = try $0.makeDestination(to: RoutableService.wheel.named("link0")) }),
        RelMisuse(
            name: "registration after sealing", code: .registrationAfterSeal,
            message:
                "Cannot register RoutableService<Radio>: the registry is already sealed. Hint: Register every router in a RouteModule before seal(), or use a child registry.",
            misuse: { try $0.register(.radio) { _ in RadioImpl() } }),
        RelMisuse(
            name: "loading a module after sealing", code: .registrationAfterSeal,
            message:
                "Cannot load RelPaymentsModule: the registry is already sealed. Hint: Load every module before seal(), or use a child registry.",
            misuse: { try $0.load(RelPaymentsModule()) }),
        RelMisuse(
            name: "lookup before sealing", code: .notSealed,
            message:
                "The registry is not sealed yet, so it cannot make destinations. Hint: Call seal() after loading every module, or make the registry with RouteRegistry(modules:).",
            seal: false,
            misuse: { _ = try $0.makeDestination(to: goodKey) }),
        RelMisuse(
            name: "sealing a child of an unsealed parent", code: .notSealed,
            message:
                "The parent registry is not sealed. Hint: Seal the parent before making or sealing a child registry.",
            misuse: { _ in try RouteRegistry(parent: RouteRegistry()).seal() }),
        RelMisuse(
            name: "duplicate identifiers", code: .validationFailed,
            message:
                "Sealing found 1 problem:\n- The identifier \"parts\" is registered 2 times: RoutableService<Radio> from RouterTests/ReliabilityMisuseCatalogTests.swift:1 and RoutableService<Wheel> from RouterTests/ReliabilityMisuseCatalogTests.swift:2. Hint: Give each router its own identifier.",
            seal: false, afterwards: .staysOpenWithSameError,
            setUp: { registry in
                try registry.register(.radio, line: 1) { _ in RadioImpl() }.identifier("parts")
                try registry.register(.wheel, line: 2) { _ in WheelImpl(position: 0) }.identifier("parts")
            }, misuse: { try $0.seal() }),
        RelMisuse(
            name: "ambiguous registration", code: .ambiguousRegistration,
            message:
                "RoutableService<Radio> has 2 registrations (registration #2 from RouterTests/ReliabilityMisuseCatalogTests.swift:1, registration #3 from RouterTests/ReliabilityMisuseCatalogTests.swift:2) and none is marked as the default. Hint: "
                + "Mark exactly one with .asDefault(), tag the others, or look them all up with resolveAll. Registering a key again adds a registration, it does not replace one: to replace one for a test or a variant of the app, use withOverrides or a child registry (RouteRegistry(parent:)).",
            setUp: { registry in
                try registry.register(.radio, line: 1) { _ in RadioImpl() }.oneOfMany()
                try registry.register(.radio, line: 2) { _ in RadioImpl() }.oneOfMany()
            }, misuse: { _ = try $0.makeDestination(to: .radio) }),
        RelMisuse(
            name: "a key registered twice by mistake", code: .validationFailed,
            message:
                "Sealing found 1 problem:\n- RoutableService<Radio> is registered 2 times, by RouterTests/ReliabilityMisuseCatalogTests.swift:1 and RouterTests/ReliabilityMisuseCatalogTests.swift:2: a lookup of it is ambiguous. Hint: Remove the one made by mistake, or mark the one a lookup gets with .asDefault(); a key meant to have many (makeDestinations(to:)) marks each with .oneOfMany(). Registering a key again adds a registration, it does not replace one: to replace one for a test or a variant of the app, use withOverrides or a child registry (RouteRegistry(parent:)).",
            seal: false, afterwards: .staysOpenWithSameError,
            setUp: { registry in
                try registry.register(.radio, line: 1) { _ in RadioImpl() }
                try registry.register(.radio, line: 2) { _ in RadioImpl() }
            }, misuse: { try $0.seal() }),
        RelMisuse(
            name: "two defaults", code: .validationFailed,
            message:
                "Sealing found 1 problem:\n- RoutableService<Radio> has 2 registrations marked as the default: Radio from RouterTests/ReliabilityMisuseCatalogTests.swift:1, Radio from RouterTests/ReliabilityMisuseCatalogTests.swift:2. Hint: Mark exactly one with .asDefault().",
            seal: false, afterwards: .staysOpenWithSameError,
            setUp: { registry in
                try registry.register(.radio, line: 1) { _ in RadioImpl() }.asDefault()
                try registry.register(.radio, line: 2) { _ in RadioImpl() }.asDefault()
            }, misuse: { try $0.seal() }),
        RelMisuse(
            name: "declared dependency without a router", code: .validationFailed,
            message:
                "Sealing found 1 problem:\n- RoutableService<Car> from RouterTests/ReliabilityMisuseCatalogTests.swift:1 depends on RoutableService<Radio>, which has no router (resolving Car → Radio). Hint: Register RoutableService<Radio>, or load the module that does.",
            seal: false,
            afterwards: .staysOpenWithSameError,
            setUp: { try $0.register(.car, line: 1) { _ in CarImpl(engine: V8()) }.dependencies(.property(.radio)) },
            misuse: { try $0.seal() }),
        RelMisuse(
            name: "adapter without target", code: .validationFailed,
            message:
                "Sealing found 1 problem:\n- The adapter from RoutableService<RelLeaf> to RoutableService<RelStore> has no target: RoutableService<RelStore> has no router (resolving RelLeaf → RelStore). Hint: Load the module that provides RoutableService<RelStore>, or remove the adapter.",
            seal: false, afterwards: .staysOpenWithSameError,
            setUp: { try $0.adapt(.relLeaf, to: .relStore) { store in RelLeafImpl(serial: store.serial) } },
            misuse: { try $0.seal() }),
        RelMisuse(
            name: "async-only key looked up synchronously", code: .asyncOnly,
            message:
                "RoutableService<RelStore> has only an async factory, so it cannot be made synchronously. Hint: Look it up with try await makeDestinationAsync(to:), or resolveAsync(_:) in an async factory.",
            setUp: { try $0.registerAsync(.relStore) { _ in RelStoreImpl(serial: 1) } },
            misuse: { _ = try $0.makeDestination(to: .relStore) }),
        RelMisuse(
            name: "async factory with an unsupported scope", code: .validationFailed,
            message:
                "Sealing found 1 problem:\n- RoutableService<RelStore> has an async factory and the scope weakSingleton, which async factories do not support. Hint: Use transient, graph, singleton, eagerSingleton or request for async factories.",
            seal: false,
            afterwards: .staysOpenWithSameError,
            setUp: { try $0.registerAsync(.relStore) { _ in RelStoreImpl(serial: 1) }.scope(.weakSingleton) },
            misuse: { try $0.seal() }),
        RelMisuse(
            name: "closed custom scope", code: .scopeClosed,
            message:
                "RoutableService<Radio> lives in CustomScope(\"rel-closed\"), which was closed. Hint: Create a new CustomScope for a new session; reset() empties a scope without closing it.",
            setUp: { registry in
                let scope = CustomScope("rel-closed")
                try registry.register(.radio) { _ in RadioImpl() }.scope(.custom(scope))
                scope.close()
            }, misuse: { _ = try $0.makeDestination(to: .radio) }),
        RelMisuse(
            name: "re-entrant seal from an eager singleton", code: .sealInProgress,
            message:
                "Sealing built the eager singleton RoutableService<Radio>, and it failed: seal() was called while the registry was already sealing. Hint: Do not seal from an eager singleton's factory; the registry seals once.",
            seal: false,
            afterwards: .staysOpenWithSameError,
            setUp: { registry in
                try registry.register(.radio) { [weak registry] _ in
                    try registry?.seal()
                    return RadioImpl()
                }.scope(.eagerSingleton)
            }, misuse: { try $0.seal() }),
        RelMisuse(
            name: "eager singleton failing at sealing", code: .factoryFailed,
            message:
                "Sealing built the eager singleton RoutableService<Radio>, and it failed: The factory of RoutableService<Radio> threw: boom. Hint: The registry stays open; fix the factory and seal again.",
            seal: false,
            afterwards: .staysOpenWithSameError,
            setUp: { try $0.register(.radio) { _ in throw Boom() }.scope(.eagerSingleton) },
            misuse: { try $0.seal() }),
        RelMisuse(
            name: "captive dependency", code: .validationFailed,
            message:
                "Sealing found 1 problem:\n- RoutableService<Car> is a singleton but depends on RoutableService<Wheel>, which is graph-scoped: it would keep one Wheel for longer than that scope lasts (resolving Car → Wheel). Hint: Give Car a scope that lasts no longer than Wheel's, or depend on a Provider of Wheel.",
            seal: false, afterwards: .staysOpenWithSameError,
            setUp: { registry in
                try registry.register(.wheel) { _ in WheelImpl(position: 0) }.scope(.graph)
                try registry.register(.car) { _ in
                    CarImpl(engine: V8())
                }.scope(.singleton).dependencies(.initializer(.wheel))
            }, misuse: { try $0.seal() }),
        RelMisuse(
            name: "missing required module", code: .validationFailed,
            message:
                "Sealing found 1 problem:\n- RelCheckoutModule requires the module RelPaymentsModule, which was not loaded. Hint: Load RelPaymentsModule before sealing.",
            seal: false, afterwards: .staysOpenWithSameError,
            setUp: { try $0.load(RelCheckoutModule()) }, misuse: { try $0.seal() }),
        RelMisuse(
            name: "configuration class not adopting the protocol", code: .validationFailed,
            message:
                "Sealing found 1 problem:\n- The configuration ForgetfulConfiguration registered for RoutableServiceModule<GreeterModuleConfig, Greeter> does not conform to GreeterModuleConfig. Hint: Make ForgetfulConfiguration adopt the configuration protocol.",
            seal: false,
            afterwards: .staysOpenWithSameError,
            setUp: { registry in
                try registry.register(.greeter, configuration: ForgetfulConfiguration.init) { _, _ in
                    GreeterImpl(greeting: "hi")
                }
            }, misuse: { try $0.seal() }),
        RelMisuse(
            name: "invalid override", code: .validationFailed,
            message:
                "The overrides have 1 problem:\n- The adapter from RoutableService<RelLeaf> to RoutableService<RelStore> has no target: RoutableService<RelStore> has no router (resolving RelLeaf → RelStore). Hint: Load the module that provides RoutableService<RelStore>, or remove the adapter.",
            misuse: { registry in
                try registry.withOverrides { overrides in
                    try overrides.adapt(.relLeaf, to: .relStore) { store in RelLeafImpl(serial: store.serial) }
                } operation: { () -> Void in
                    Issue.record("the operation of an invalid override ran")
                }
            }),
    ]
}

struct ReliabilityMisuseCatalogTests {
    @Test func theCatalogueHasAtLeastThirtyDistinctCases() {
        #expect(RelMisuse.catalogue.count >= 30)
        #expect(Set(RelMisuse.catalogue.map(\.name)).count == RelMisuse.catalogue.count)
    }

    @Test(arguments: RelMisuse.catalogue)
    func misuseIsATypedErrorWithAnExactMessageAndTheRegistryStillWorks(_ misuse: RelMisuse) throws {
        let registry = RouteRegistry(maxDepth: misuse.maxDepth)
        try registry.register(goodKey) { _ in V8(horsepower: 7) }.scope(.singleton)
        try misuse.setUp(registry)
        if misuse.seal { try registry.seal() }
        let error = #expect(throws: RouteError.self) { try misuse.misuse(registry) }
        #expect(error?.code == misuse.code)
        #expect(error?.description == misuse.message)

        switch misuse.afterwards {
        case .works:
            if !registry.isSealed { try registry.seal() }
            #expect(try registry.makeDestination(to: goodKey).horsepower == 7)
            #expect(try registry.makeDestination(to: goodKey) === registry.makeDestination(to: goodKey))
        case .staysOpenWithSameError:
            #expect(!registry.isSealed)
            let again = #expect(throws: RouteError.self) { try registry.seal() }
            #expect(again?.description == error?.description)
            #expect(throws: RouteError.self) { try registry.makeDestination(to: goodKey) }
        }
    }
}
