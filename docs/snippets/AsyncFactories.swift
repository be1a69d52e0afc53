import Router

protocol Engine: AnyObject { var horsepower: Int { get } }
extension RoutableService<any Engine> {
    nonisolated static var engine: Self { .init(declaring: Destination.self) }
}
final class V8: Engine {
    let horsepower = 400
}

/// A database that must be opened before it exists.
final class DatabaseImpl: Database {
    let name: String
    init(name: String) { self.name = name }
    static func open(_ name: String) async throws -> DatabaseImpl {
        await Task.yield()
        return DatabaseImpl(name: name)
    }
}

// The article's factory resolves an engine.
func setUp(_ registry: RouteRegistry) throws {
    try registry.register(.engine) { _ in V8() }
}
