import Router

/// The app-wide part: the event log and counter (plain singletons), the connection pool and the
/// repository (async eager singletons, built by `warmUp()` before the server takes requests, torn down
/// by `shutdown()` in reverse order of creation: the repository is flushed before the pool closes).
public struct InfrastructureModule: RouteModule {
    let events: EventLog
    let poolSize: Int

    /// Registers into the registry with this event log (a test keeps it to read the teardowns).
    public init(events: EventLog = EventLog(), poolSize: Int = 4) {
        self.events = events
        self.poolSize = poolSize
    }

    /// Registers the singletons.
    public func register(in registry: RouteRegistry) throws {
        let events = self.events
        let poolSize = self.poolSize
        try registry.register(.eventLog) { _ in events }.scope(.singleton)
        try registry.register(.counter) { _ in Counter() }.scope(.singleton)

        try registry.registerAsync(.connectionPool) { r async throws in
            try await SimulatedConnectionPool.open(size: poolSize, events: try r.resolve(.eventLog))
        }
        .scope(.eagerSingleton)
        .dependencies(.initializer(.eventLog))
        .teardown { pool async in await pool.close() }

        try registry.registerAsync(.bookRepository) { r async throws in
            let pool = try await r.resolveAsync(.connectionPool)
            return PooledBookRepository(pool: pool, events: try r.resolve(.eventLog))
        }
        .scope(.eagerSingleton)
        .dependencies(.initializer(.connectionPool), .initializer(.eventLog))
        .teardown { repository async in await (repository as? PooledBookRepository)?.flush() }
    }
}

/// The per-request part: the request's facts are supplied by the scope each request opens; the user, the
/// trail and the book service are made once per request and shared within it.
public struct RequestModule: RouteModule {
    /// The module.
    public init() {}

    /// Registers the supplied key and the request-scoped ones.
    public func register(in registry: RouteRegistry) throws {
        try registry.registerSupplied(.requestInfo)

        try registry.register(.currentUser) { r in
            guard let name = try r.resolve(.requestInfo).user else { throw Unauthorized() }
            return CurrentUser(name: name)
        }
        .scope(.request)
        .dependencies(.initializer(.requestInfo))

        try registry.register(.auditTrail) { r in AuditTrail(serial: try r.resolve(.counter).next()) }
            .scope(.request)
            .dependencies(.initializer(.counter))

        try registry.registerAsync(.bookService) { r async throws in
            BookService(
                repository: try await r.resolveAsync(.bookRepository),
                user: try r.resolve(.currentUser),
                trail: try r.resolve(.auditTrail))
        }
        .scope(.request)
        .dependencies(.initializer(.bookRepository), .initializer(.currentUser), .initializer(.auditTrail))
    }
}

/// Every module of the service.
public func serviceModules(events: EventLog = EventLog()) -> [any RouteModule] {
    [InfrastructureModule(events: events), RequestModule()]
}
