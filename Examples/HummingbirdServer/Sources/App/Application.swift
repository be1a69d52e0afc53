import Hummingbird
import Logging
import Router

/// The request context: Hummingbird's core storage and the request's scope, which the scope middleware
/// opens before the routes run and ends after.
public struct AppRequestContext: RequestContext {
    /// Hummingbird's part.
    public var coreContext: CoreRequestContextStorage
    /// The request's scope: nil only before the middleware ran.
    public var scope: RequestScope?

    /// A context for one request.
    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
    }

    /// The request's scope, or a 500 if the middleware is missing (a wiring mistake, not a crash).
    public func requestScope() throws -> RequestScope {
        guard let scope else { throw HTTPError(.internalServerError, message: "No request scope is open.") }
        return scope
    }
}

/// Opens a request scope per request, supplies the request's facts to it, and ends it when the response
/// is made: what the scope made for this request is released then, and no other request ever sees it.
public struct RequestScopeMiddleware: RouterMiddleware {
    /// The service's context.
    public typealias Context = AppRequestContext
    let registry: RouteRegistry

    /// Opens scopes in `registry`.
    public init(registry: RouteRegistry) { self.registry = registry }

    /// Runs the rest of the chain in a new request scope, and ends it.
    public func handle(
        _ request: Request, context: AppRequestContext,
        next: (Request, AppRequestContext) async throws -> Response
    ) async throws -> Response {
        let scope = registry.openRequestScope()
        defer { scope.end() }
        let number = try registry.makeDestination(to: .counter).next()
        try scope.supply(
            RequestInfo(number: number, user: request.headers.first { $0.name.canonicalName == "x-user" }?.value),
            for: .requestInfo)
        var context = context
        context.scope = scope
        return try await next(request, context)
    }
}

/// Maps Router's errors to responses: a factory that threw an HTTP error (a 401 for a missing user) gives
/// that error's response, found through `RouteError.underlyingError`; any other `RouteError` is a wiring
/// fault, logged in full and answered with a bare 500.
public struct RouteErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The middleware.
    public init() {}

    /// Runs the rest of the chain, mapping the `RouteError` it throws.
    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as RouteError {
            var cause: any Error = error
            while let routeError = cause as? RouteError, let underlying = routeError.underlyingError {
                cause = underlying
            }
            if let httpError = cause as? any HTTPResponseError { throw httpError }
            context.logger.error("\(error)")
            throw HTTPError(.internalServerError)
        }
    }
}

/// The body of a POST /books.
struct NewBook: Decodable {
    let title: String
}

/// What GET /debug/scope answers: which request-scoped objects this request got.
public struct ScopeReport: Codable, Sendable, ResponseEncodable {
    /// The request's number.
    public let request: Int
    /// The serial of the trail the book service holds.
    public let serviceTrail: Int
    /// The serial of the trail the route looked up itself, in the same request.
    public let routeTrail: Int
}

/// The routes, each looking its service up in the request's scope.
public func buildRouter(registry: RouteRegistry) -> Router<AppRequestContext> {
    let router = Router(context: AppRequestContext.self)
    // In this order: the first middleware added sees the request first and its outcome last. The error
    // middleware, outermost, maps what the scope middleware and the routes throw; the scope middleware,
    // next, opens the request's scope around every route and ends it once the route has made its response.
    router.add(middleware: RouteErrorMiddleware())
    router.add(middleware: RequestScopeMiddleware(registry: registry))

    router.get("health") { _, _ in "ok" }
    router.get("books") { _, context in
        try await context.requestScope().makeDestinationAsync(to: .bookService).list()
    }
    router.get("books/:id") { _, context in
        let id = try context.parameters.require("id", as: Int.self)
        return try await context.requestScope().makeDestinationAsync(to: .bookService).book(id)
    }
    router.post("books") { request, context in
        let new = try await request.decode(as: NewBook.self, context: context)
        let book = try await context.requestScope().makeDestinationAsync(to: .bookService).add(title: new.title)
        return EditedResponse(status: .created, response: book)
    }
    router.get("debug/scope") { _, context in
        let scope = try context.requestScope()
        let service = try await scope.makeDestinationAsync(to: .bookService)
        let trail = try scope.makeDestination(to: .auditTrail)
        return ScopeReport(
            request: try scope.makeDestination(to: .requestInfo).number, serviceTrail: service.trail.serial,
            routeTrail: trail.serial)
    }
    return router
}
