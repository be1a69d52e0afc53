import Hummingbird
import Logging
import NIOCore
import Router
import ServiceLifecycle

// The service's start-up and shutdown, in the two ways the documentation shows: with Hummingbird's own
// service group (RouterOnTheServer.md) and with a service group of the app's own (Scopes.md). The articles
// quote this file (```swift quote …), and scripts/check-doc-snippets.sh fails when a quote is no longer a
// part of it; Tests/AppTests/ShutdownUnderLoadTests.swift runs both ways under load.

/// Tears the registry's singletons down when the service group shuts down gracefully. It must come before
/// the HTTP server in the group: a group shuts its services down last one first, so the server stops
/// taking requests, and finishes those it took, before the singletons they use are torn down.
public struct RegistryService: Service {
    let registry: RouteRegistry

    /// Shuts `registry` down on graceful shutdown.
    public init(registry: RouteRegistry) { self.registry = registry }

    /// Waits for graceful shutdown, then shuts the registry down.
    public func run() async throws {
        // Wait for the group's graceful shutdown (SIGTERM, SIGINT, or another service ending).
        try? await gracefulShutdown()
        try await registry.shutdownAsync()
    }
}

/// The service with Hummingbird's service group: Hummingbird runs the `services` it is given before its
/// server (so the registry's service shuts down after the server), and runs `beforeServerStarts` before
/// the server takes its first request (so the async eager singletons are built by then).
public func buildApplication(
    registry: RouteRegistry, configuration: ApplicationConfiguration = .init(), logger: Logger? = nil,
    onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
) -> some ApplicationProtocol {
    var app = Application(
        router: buildRouter(registry: registry), configuration: configuration,
        services: [RegistryService(registry: registry)], onServerRunning: onServerRunning, logger: logger)
    app.beforeServerStarts { try await registry.warmUp() }
    return app
}

/// The service in a service group of its own, until SIGTERM or SIGINT, then a graceful shutdown: the
/// server stops first, then the registry is shut down.
public func runServiceGroup(
    registry: RouteRegistry, configuration: ApplicationConfiguration, logger: Logger,
    onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
) async throws {
    // Start-up before any service runs: the async eager singletons exist before the server takes a request,
    // and a start-up failure ends the program before it serves.
    try await registry.warmUp()
    let server = Application(
        router: buildRouter(registry: registry), configuration: configuration, onServerRunning: onServerRunning,
        logger: logger)
    let group = ServiceGroup(
        // The registry's service first, the server last: the group shuts the server down first.
        services: [RegistryService(registry: registry), server],
        gracefulShutdownSignals: [.sigterm, .sigint],
        logger: logger)
    try await group.run()
}
