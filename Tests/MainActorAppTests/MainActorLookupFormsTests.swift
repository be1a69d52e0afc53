import Router
import Testing

// Every synchronous way to look a key up, called from main-actor code, may run a main-actor factory; the
// same calls from a detached task fail with `mainActorRequired` before the factory runs.

protocol Badge: AnyObject {
    var count: Int { get }
}
extension RoutableService<any Badge> {
    nonisolated static var badge: Self { .init(declaring: Destination.self) }
}
final class BadgeModel: Badge {
    let count: Int
    init(count: Int) { self.count = count }
}

protocol BadgeHost: AnyObject {
    var badge: any Badge { get }
}
extension RoutableService<any BadgeHost> {
    nonisolated static var badgeHost: Self { .init(declaring: Destination.self) }
}
final class BadgeHostModel: BadgeHost {
    let badge: any Badge
    init(badge: any Badge) { self.badge = badge }
}

nonisolated protocol BadgeSource: AnyObject, Sendable {
    var makeBadge: Provider<any Badge> { get }
}
extension RoutableService<any BadgeSource> {
    nonisolated static var badgeSource: Self { .init(declaring: Destination.self) }
}
final class BadgeSourceImpl: BadgeSource {
    let makeBadge: Provider<any Badge>
    init(makeBadge: Provider<any Badge>) { self.makeBadge = makeBadge }
}

/// A registry whose main-actor keys are made in each of the ways a lookup can reach them.
private func makeBadgeRegistry() throws -> RouteRegistry {
    let registry = RouteRegistry()
    try registry.registerOnMainActor(.badge) { _ in BadgeModel(count: 1) }.identifier("badge").oneOfMany()
    try registry.registerOnMainActor(.badge) { _ in BadgeModel(count: 2) }.oneOfMany()
    try registry.registerOnMainActor(.badgeHost) { r in
        BadgeHostModel(badge: try r.provider(.badge.named("first"))())
    }
    try registry.registerOnMainActor(.badge.named("first")) { _ in BadgeModel(count: 7) }
    // Nonisolated: the source is made anywhere; the badges its provider makes, only on the main actor.
    try registry.register(.badgeSource) { r in BadgeSourceImpl(makeBadge: try r.provider(.badge.named("first"))) }
    try registry.seal()
    return registry
}

struct MainActorLookupFormsTests {
    @Test func everySynchronousLookupFormRunsMainActorFactoriesFromMainActorCode() throws {
        let registry = try makeBadgeRegistry()
        #expect(try registry.makeDestinations(to: .badge).map(\.count) == [1, 2])
        #expect(try registry.makeDestination(identifier: "badge", as: (any Badge).self).count == 1)
        #expect(try registry.makeDestinationIfRegistered(to: .badge.named("first"))?.count == 7)
        var prepared = 0
        let made = try registry.makeDestination(to: .badge.named("first")) { badge in prepared = badge.count }
        #expect(made.count == 7 && prepared == 7)
        // A provider made inside a main-actor factory, and called there.
        #expect(try registry.makeDestination(to: .badgeHost).badge.count == 7)
        // A lazy read with the method, which takes the caller's isolation (the property cannot).
        let lazy = try registry.lazy(.badge.named("first"))
        #expect(try lazy.value().count == 7)
        #expect(try lazy.value().count == 7)
    }

    @Test func aProviderCalledFromMainActorCodeRunsAMainActorFactory() throws {
        let registry = try makeBadgeRegistry()
        let source = try registry.makeDestination(to: .badgeSource)
        #expect(try source.makeBadge().count == 7)
    }

    @Test func theSameFormsFromADetachedTaskFailBeforeTheFactoryRuns() async throws {
        let registry = try makeBadgeRegistry()
        let codes = await Task.detached { () -> [RouteError.Code?] in
            func code(_ body: () throws -> Any) -> RouteError.Code? {
                do {
                    _ = try body()
                    return nil
                } catch {
                    return (error as? RouteError)?.code
                }
            }
            return [
                code { try registry.makeDestinations(to: .badge) },
                code { try registry.makeDestination(identifier: "badge", as: (any Badge).self) },
                code { try registry.makeDestinationIfRegistered(to: .badge.named("first")) as Any },
                code { try registry.makeDestination(to: .badge.named("first")) { _ in } },
                code { try registry.makeDestination(to: .badgeHost) },
                code { try registry.makeDestination(to: .badgeSource).makeBadge() },
                code { try registry.lazy(.badge.named("first")).value() },
            ]
        }.value
        #expect(codes == Array(repeating: .mainActorRequired, count: 7))
    }
}
