import App
import Hummingbird
import Router

// Serves on 127.0.0.1:8080 (or HOST and PORT), until SIGTERM or SIGINT; then the server drains and the
// registry's singletons are torn down.
let environment = Environment()
let host = environment.get("HOST") ?? "127.0.0.1"
let port = environment.get("PORT").flatMap(Int.init) ?? 8080

let registry = try RouteRegistry(modules: serviceModules())
let app = buildApplication(
    registry: registry, configuration: .init(address: .hostname(host, port: port), serverName: "books"))
try await app.runService()
