// expected-error: main actor-isolated instance method 'makeDestination(configuration:resolver:)' has different actor isolation from nonisolated overridden declaration
// expected-errors: 2
// swiftc-flags: -default-isolation MainActor
//
// A router class made main-actor to make a main-actor screen: `ServiceRouter` is nonisolated (the registry
// calls it on the lookup's thread), so its overrides cannot be main-actor.

import Router

nonisolated protocol Editor: AnyObject {
    var title: String { get }
}
extension RoutableService<any Editor> {
    nonisolated static var editor: Self { .init(declaring: Destination.self) }
}
final class EditorScreen: Editor {
    let title: String
    init(title: String) { self.title = title }
}

@MainActor final class EditorRouter: ServiceRouter<any Editor, ModuleConfiguration<any Editor>> {
    override func makeDestination(
        configuration: ModuleConfiguration<any Editor>, resolver: inout Resolver
    ) throws -> any Editor {
        EditorScreen(title: "Untitled")
    }
}
