import Router
import Testing

protocol Database: AnyObject, Sendable { var name: String { get } }
extension RoutableService where Destination == any Database {
    static var database: Self { Self(declaring: (any Database).self) }
}
final class DatabaseImpl: Database {
    let name: String
    init(name: String) { self.name = name }
    static func open(_ name: String) async throws -> DatabaseImpl {
        await Task.yield()
        return DatabaseImpl(name: name)
    }
}

struct AsyncTests {
    @Test func anAsyncFactoryIsAwaitedAndCanResolveOtherKeys() async throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8(horsepower: 5) }
            try registry.registerAsync(.database) { r async throws in
                let engine = try r.resolve(.engine)
                return try await DatabaseImpl.open("db\(engine.horsepower)")
            }
        }
        #expect(try await registry.makeDestinationAsync(to: .database).name == "db5")
    }

    @Test func aSynchronousLookupOfAnAsyncOnlyKeyIsATypedError() throws {
        let registry = try sealedRegistry { registry in
            try registry.registerAsync(.database) { _ async throws in try await DatabaseImpl.open("x") }
        }
        let error = #expect(throws: RouteError.self) { try registry.makeDestination(to: .database) as any Database }
        #expect(error?.code == .asyncOnly)
        #expect(
            error?.description
                == "RoutableService<Database> has only an async factory, so it cannot be made synchronously. Hint: Look it up with try await makeDestinationAsync(to:), or resolveAsync(_:) in an async factory."
        )
    }

    @Test func anAsyncSingletonIsBuiltOnceWhenAHundredTasksRace() async throws {
        let made = Counter()
        let registry = try sealedRegistry { registry in
            try registry.registerAsync(.database) { _ async throws in
                made.increment()
                return try await DatabaseImpl.open("shared")
            }.scope(.singleton)
        }
        let identities = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<100 {
                group.addTask { ObjectIdentifier(try await registry.makeDestinationAsync(to: .database)) }
            }
            var seen = Set<ObjectIdentifier>()
            for try await identity in group { seen.insert(identity) }
            return seen
        }
        #expect(identities.count == 1)
        #expect(made.value == 1)
    }

    @Test func anAsyncFactoryWithAnUnsupportedScopeIsReportedAtSealing() throws {
        let registry = RouteRegistry()
        try registry.registerAsync(.database) { _ async throws in try await DatabaseImpl.open("")
        }.scope(.weakSingleton)
        let report = try registry.validate()
        #expect(report.problems.map(\.code) == [.asyncOnly])
    }

    @MainActor
    @Test func lookupsWorkFromTheMainActor() throws {
        let registry = try sealedRegistry { try $0.register(.engine) { _ in V8(horsepower: 1) } }
        #expect(try registry.makeDestination(to: .engine).horsepower == 1)
    }
}
