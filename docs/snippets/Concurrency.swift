import Router

protocol Engine: AnyObject, Sendable { var horsepower: Int { get } }
extension RoutableService<any Engine> {
    nonisolated static var engine: Self { .init(declaring: Destination.self) }
}
final class V8: Engine {
    let horsepower = 400
}

protocol Database: AnyObject, Sendable { var name: String { get } }
extension RoutableService<any Database> {
    nonisolated static var database: Self { .init(declaring: Destination.self) }
}
final class DatabaseImpl: Database {
    let name: String
    init(name: String) { self.name = name }
    static func open(_ name: String) async throws -> DatabaseImpl {
        await Task.yield()
        return DatabaseImpl(name: name)
    }
}

// The app's registry for the blocks that only look up: the profile module.
func setUp(_ registry: RouteRegistry) throws {
    try registry.load(ProfileModule())
}
