import App
import Hummingbird
import Router

// Serves on 127.0.0.1:8080 (or HOST and PORT), until SIGTERM or SIGINT; then the server drains and the
// registry's singletons are torn down.
let environment = Environment()
let host = environment.get("HOST") ?? "127.0.0.1"
let port = environment.get("PORT").flatMap(Int.init) ?? 8080

let events = EventLog()
let registry = try RouteRegistry(modules: serviceModules(events: events))
let app = buildApplication(
    registry: registry, configuration: .init(address: .hostname(host, port: port), serverName: "books"))
try await app.runService()
// What start-up and shutdown did: the pool opened, then (on SIGTERM) the repository flushed and the pool closed.
for line in events.events { print(line) }
