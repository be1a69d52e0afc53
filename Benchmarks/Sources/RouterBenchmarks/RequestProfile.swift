import Router

// s16: one whole request through a request scope (issue 36), against the same objects made by hand and
// (s16c) against a child registry per request, the way to scope a request before request scopes existed.

/// The request's context, supplied to each request scope.
protocol RequestContext: Sendable {
    var id: Int { get }
}
struct RequestContextValue: RequestContext {
    let id: Int
}
/// A transient that reads the request's context.
protocol RequestLogger: AnyObject {}
final class RequestLoggerImpl: RequestLogger {
    let context: any RequestContext
    init(context: any RequestContext) { self.context = context }
}
/// A transient without dependencies.
protocol OrderStore: AnyObject {}
final class OrderStoreImpl: OrderStore {}
/// The request's service: request-scoped, made from the supplied context, a singleton and two transients.
protocol OrderHandler: AnyObject {}
final class OrderHandlerImpl: OrderHandler {
    let context: any RequestContext
    let clock: any Clock
    let logger: any RequestLogger
    let store: any OrderStore
    init(context: any RequestContext, clock: any Clock, logger: any RequestLogger, store: any OrderStore) {
        self.context = context
        self.clock = clock
        self.logger = logger
        self.store = store
    }
}
extension RoutableService where Destination == any RequestContext {
    static var requestContext: Self { Self(declaring: (any RequestContext).self) }
}
extension RoutableService where Destination == any RequestLogger {
    static var requestLogger: Self { Self(declaring: (any RequestLogger).self) }
}
extension RoutableService where Destination == any OrderStore {
    static var orderStore: Self { Self(declaring: (any OrderStore).self) }
}
extension RoutableService where Destination == any OrderHandler {
    static var orderHandler: Self { Self(declaring: (any OrderHandler).self) }
}

/// s16's registrations: the context supplied per scope, the clock a singleton, the handler request-scoped.
func registerRequestServices(in registry: RouteRegistry) throws {
    try registry.registerSupplied(.requestContext)
    try registry.register(.clock) { _ in ClockImpl() }.scope(.singleton)
    try registry.register(.requestLogger) { r in RequestLoggerImpl(context: try r.resolve(.requestContext)) }
        .dependencies(.initializer(.requestContext))
    try registry.register(.orderStore) { _ in OrderStoreImpl() }
    try registry.register(.orderHandler) { r in
        OrderHandlerImpl(
            context: try r.resolve(.requestContext), clock: try r.resolve(.clock),
            logger: try r.resolve(.requestLogger), store: try r.resolve(.orderStore))
    }.scope(.request).dependencies(
        .initializer(.requestContext), .initializer(.clock), .initializer(.requestLogger), .initializer(.orderStore))
}

/// Hand-wired: the singleton kept in a stored property, the request's objects made with its context.
@inline(never)
func handleRequestByHand(_ clock: any Clock, _ id: Int) -> any OrderHandler {
    let context = RequestContextValue(id: id)
    return OrderHandlerImpl(
        context: context, clock: clock, logger: RequestLoggerImpl(context: context), store: OrderStoreImpl())
}

/// One request through a request scope: open it, supply the context, make the handler, end it.
@inline(never)
func handleRequest(_ registry: RouteRegistry, _ id: Int) throws -> any OrderHandler {
    let scope = registry.openRequestScope()
    defer { scope.end() }
    try scope.supply(RequestContextValue(id: id), for: .requestContext)
    return try scope.makeDestination(to: .orderHandler)
}

/// One request through a child registry: register the context in it, seal it, make the handler (registered
/// as a transient in the parent, with a placeholder context there so that the parent seals).
@inline(never)
func handleRequestByChild(_ parent: RouteRegistry, _ id: Int) throws -> any OrderHandler {
    let child = RouteRegistry(parent: parent)
    let context = RequestContextValue(id: id)
    try child.register(.requestContext) { _ in context }
    try child.seal()
    return try child.makeDestination(to: .orderHandler)
}

/// s16c's parent registry: s16's services, the handler transient, and a placeholder for the context.
func registerChildRequestServices(in registry: RouteRegistry) throws {
    try registry.register(.requestContext) { _ in RequestContextValue(id: -1) }
    try registry.register(.clock) { _ in ClockImpl() }.scope(.singleton)
    try registry.register(.requestLogger) { r in RequestLoggerImpl(context: try r.resolve(.requestContext)) }
    try registry.register(.orderStore) { _ in OrderStoreImpl() }
    try registry.register(.orderHandler) { r in
        OrderHandlerImpl(
            context: try r.resolve(.requestContext), clock: try r.resolve(.clock),
            logger: try r.resolve(.requestLogger), store: try r.resolve(.orderStore))
    }
}

/// `--profile <s16|s16c> <handwired|router> <count>`: `count` whole requests. s16 through a request scope,
/// s16c through a child registry per request (Router only; its hand-wired twin is s16's).
func runRequestProfile(_ arguments: [String]) throws -> UInt {
    guard arguments.count >= 3, let variant = Variant.Name(rawValue: arguments[1]), let count = Int(arguments[2])
    else { throw BenchmarkError.unexpected("usage: --profile <s16|s16c> <handwired|router> <count>") }
    let registry = RouteRegistry()
    let byChild = arguments[0] == "s16c"
    if byChild {
        try registerChildRequestServices(in: registry)
    } else {
        try registerRequestServices(in: registry)
    }
    try registry.seal()
    let clock: any Clock = try registry.makeDestination(to: .clock)
    var sum: UInt = 0
    for index in 0..<count {
        switch variant {
        case .handwired: sum = mix(sum, handleRequestByHand(clock, index))
        case .router where byChild: sum = mix(sum, try handleRequestByChild(registry, index))
        case .router: sum = mix(sum, try handleRequest(registry, index))
        case .swinject: throw BenchmarkError.unexpected("s16 has no Swinject variant")
        }
    }
    return sum
}
