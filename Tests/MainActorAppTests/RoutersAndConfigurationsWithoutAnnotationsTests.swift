import Router
import Testing

// A router subclass and a module configuration, written in an app target isolated to the main actor with
// no `nonisolated` on either: `ServiceRouter` and `ModuleConfiguration` are nonisolated classes, and their
// subclasses are nonisolated with them, so the overrides match and the registry may call them off the main
// actor. (Before, each subclass needed `nonisolated`, or failed with "main actor-isolated initializer
// 'init()' has different actor isolation from nonisolated overridden declaration".) Only the service's
// protocol and the key members are declared `nonisolated`.

nonisolated protocol Memo: AnyObject, Sendable {
    var text: String { get }
    var author: String { get }
}

/// A class adopting a nonisolated protocol that inherits `Sendable` is nonisolated without saying so.
final class TextMemo: Memo {
    let text: String
    let author: String
    init(text: String, author: String) { (self.text, self.author) = (text, author) }
}

protocol MemoModuleConfig: ModuleConfiguration<any Memo> {
    func constructMemo(text: String)
}

extension RoutableServiceModule<any MemoModuleConfig, any Memo> {
    nonisolated static var memo: Self { .init(declaring: Configuration.self, making: Destination.self) }
}

final class MemoConfiguration: ModuleConfiguration<any Memo>, MemoModuleConfig {
    var text: String?
    func constructMemo(text: String) { self.text = text }
}

final class MemoRouter: ServiceRouter<any Memo, MemoConfiguration> {
    override class var scope: Scope { .transient }

    override func makeDestination(configuration: MemoConfiguration, resolver: inout Resolver) throws -> any Memo {
        TextMemo(text: try configuration.require(configuration.text, setBy: "constructMemo(text:)"), author: "ann")
    }
}

extension RoutableService<any Memo> {
    nonisolated static var draftMemo: Self { .init(declaring: Destination.self) }
}

final class DraftRouter: ServiceRouter<any Memo, ModuleConfiguration<any Memo>> {
    override func makeDestination(
        configuration: ModuleConfiguration<any Memo>, resolver: inout Resolver
    ) throws -> any Memo {
        TextMemo(text: "draft", author: "ann")
    }
}

struct RoutersAndConfigurationsWithoutAnnotationsTests {
    private func registry() throws -> RouteRegistry {
        let registry = RouteRegistry()
        try registry.register(router: MemoRouter.self, for: .memo)
        try registry.register(router: DraftRouter.self, for: .draftMemo)
        try registry.seal()
        return registry
    }

    @Test func aRouterAndAConfigurationWithoutNonisolatedWorkFromMainActorCode() throws {
        let registry = try registry()
        let memo = try registry.makeDestination(to: .memo) { $0.constructMemo(text: "buy milk") }
        #expect(memo.text == "buy milk")
        #expect(try registry.makeDestination(to: .draftMemo).text == "draft")
    }

    @Test func theSameRoutersRunOffTheMainActor() async throws {
        let registry = try registry()
        let text = try await Task.detached { try registry.makeDestination(to: .draftMemo).text }.value
        #expect(text == "draft")
    }

    @Test func aConfigurationRegisteredWithAClosureNeedsNoAnnotationEither() throws {
        let registry = RouteRegistry()
        try registry.register(.memo, configuration: MemoConfiguration.init) { config, _ in
            TextMemo(text: try config.require(config.text, setBy: "constructMemo(text:)"), author: "bob")
        }
        try registry.seal()
        let memo = try registry.makeDestination(to: .memo) { $0.constructMemo(text: "call back") }
        #expect(memo.author == "bob")
        #expect {
            _ = try registry.makeDestination(to: .memo) { _ in }
        } throws: { ($0 as? RouteError)?.code == .invalidConfiguration }
    }
}
