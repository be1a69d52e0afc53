import App
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Router
import ServiceLifecycle
import ServiceLifecycleTestKit
import Synchronization
import Testing

/// The lifecycle recipes of the documentation (Sources/App/Lifecycle.swift, quoted by Scopes.md and
/// RouterOnTheServer.md), run as a process manager runs them: a graceful shutdown arrives while clients are
/// sending requests. The server must answer every request it takes: a registry shut down before the server
/// stops would answer those with 500 (a lookup after shutdown is a `RouteError`, which the error middleware
/// maps to 500). A request the server refuses because it stopped taking requests (its connection closed or
/// refused) is no answer, and is fine; only answers are counted.
@Suite(.serialized) struct ShutdownUnderLoadTests {
    /// Connections sending at once.
    static let workers = 16
    /// The graceful shutdown is triggered once this many answers arrived.
    static let answersBeforeShutdown = 400
    /// Each connection sends at most this many requests (the bound on the run if the server never stops).
    static let requestsPerWorker = 2_000

    @Test func theServiceGroupRecipeAnswersNothingWith5xxWhenItShutsDownUnderLoad() async throws {
        let registry = try RouteRegistry(modules: serviceModules())
        let tally = try await runUnderLoad { onServerRunning in
            try await runServiceGroup(
                registry: registry, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                logger: Self.quietLogger, onServerRunning: onServerRunning)
        }
        #expect(tally.answers >= Self.answersBeforeShutdown)
        #expect(tally.notSuccessful == [:], "answers by status: \(tally.byStatus)")
        #expect(registry.isShutDown)
    }

    @Test func theHummingbirdRecipeAnswersNothingWith5xxWhenItShutsDownUnderLoad() async throws {
        let registry = try RouteRegistry(modules: serviceModules())
        let tally = try await runUnderLoad { onServerRunning in
            try await buildApplication(
                registry: registry, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                logger: Self.quietLogger, onServerRunning: onServerRunning
            ).run()
        }
        #expect(tally.answers >= Self.answersBeforeShutdown)
        #expect(tally.notSuccessful == [:], "answers by status: \(tally.byStatus)")
        #expect(registry.isShutDown)
    }

    static var quietLogger: Logger {
        var logger = Logger(label: "shutdown-under-load")
        logger.logLevel = .critical
        return logger
    }

    /// Runs `service` (given what to call once its server listens), loads it from `workers` connections, and
    /// triggers a graceful shutdown once `answersBeforeShutdown` answers arrived; returns what was answered
    /// once the service and every connection ended. A service that never ends fails the test after a
    /// generous bound instead of hanging it.
    func runUnderLoad(
        _ service: @escaping @Sendable (@escaping @Sendable (any Channel) async -> Void) async throws -> Void
    ) async throws -> Tally.Counts {
        let tally = Tally()
        let (ports, portSink) = AsyncStream.makeStream(of: Int.self)
        try await testGracefulShutdown { trigger in
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    // Finished however the service ends, so that a server that never listened ends the wait.
                    defer { portSink.finish() }
                    try await service { channel in
                        portSink.yield(channel.localAddress?.port ?? 0)
                        portSink.finish()
                    }
                }
                group.addTask {
                    // A hang detector, not a speed test: the whole run takes a few seconds.
                    try await Task.sleep(for: .seconds(300))
                    Issue.record("The service did not end within 300 s of a graceful shutdown under load.")
                    throw CancellationError()
                }
                var iterator = ports.makeAsyncIterator()
                let port = try #require(await iterator.next())
                await withTaskGroup(of: Void.self) { load in
                    for _ in 0..<Self.workers {
                        load.addTask {
                            await Self.send(to: port, tally: tally) {
                                if $0 == Self.answersBeforeShutdown { trigger.triggerGracefulShutdown() }
                            }
                        }
                    }
                }
                // Had the load ended first (it cannot, unless the server failed), shut down all the same.
                trigger.triggerGracefulShutdown()
                try await group.next()
                group.cancelAll()
            }
        }
        return tally.counts
    }

    /// One connection's requests, one after another: GET /debug/scope (a request scope, request-scoped
    /// services made by an async factory, app-wide singletons). A new connection replaces one the server
    /// closed; the worker stops when one fails after the shutdown began, or after `requestsPerWorker`.
    static func send(to port: Int, tally: Tally, answered: @Sendable (Int) -> Void) async {
        // Without the header every request would be a 401, which the test reports.
        let headers: HTTPFields = HTTPField.Name("X-User").map { [$0: "ann"] } ?? [:]
        var sent = 0
        while sent < requestsPerWorker {
            let client = TestClient(host: "127.0.0.1", port: port)
            client.connect()
            do {
                while sent < requestsPerWorker {
                    sent += 1
                    let response = try await client.execute(.init("/debug/scope", method: .get, headers: headers))
                    answered(tally.record(response.status.code))
                }
            } catch {
                tally.recordUnanswered()
            }
            try? await client.shutdown()
            if tally.answered >= answersBeforeShutdown { break }
        }
    }
}

/// What the clients got: answers by status, and requests that got none.
final class Tally: Sendable {
    struct Counts: Sendable {
        var byStatus: [Int: Int] = [:]
        var unanswered = 0
        var answers: Int { byStatus.values.reduce(0, +) }
        /// The answers whose status is not 2xx, by status.
        var notSuccessful: [Int: Int] { byStatus.filter { !(200..<300).contains($0.key) } }
    }

    private let state = Mutex(Counts())

    /// Counts an answer; returns how many there were, this one included.
    func record(_ status: Int) -> Int {
        state.withLock {
            $0.byStatus[status, default: 0] += 1
            return $0.answers
        }
    }

    func recordUnanswered() { state.withLock { $0.unanswered += 1 } }
    var answered: Int { state.withLock { $0.answers } }
    var counts: Counts { state.withLock { $0 } }
}
