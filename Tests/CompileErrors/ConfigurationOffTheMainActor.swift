// expected-error: call to main actor-isolated instance method 'constructNote(text:)' in a synchronous nonisolated context [#ActorIsolatedCall]
// expected-errors: 1
// swiftc-flags: -default-isolation MainActor
//
// In a target whose default isolation is the main actor, a configuration protocol declared without
// `nonisolated` has main-actor `construct…` methods, which code off the main actor cannot call. (The
// configuration class needs nothing: `ModuleConfiguration` is nonisolated, and so are its subclasses.)

import Router

nonisolated protocol Note: AnyObject, Sendable { var text: String { get } }
protocol NoteModuleConfig: ModuleConfiguration<any Note> {
    func constructNote(text: String)
}
extension RoutableServiceModule<any NoteModuleConfig, any Note> {
    nonisolated static var note: Self { .init(declaring: Configuration.self, making: Destination.self) }
}
final class NoteConfiguration: ModuleConfiguration<any Note>, NoteModuleConfig {
    var text: String?
    func constructNote(text: String) { self.text = text }
}
final class TextNote: Note {
    let text: String
    init(text: String) { self.text = text }
}

func noteOffTheMainActor(_ registry: RouteRegistry) async throws -> String {
    try await Task.detached {
        try registry.makeDestination(to: .note) { $0.constructNote(text: "from a background task") }.text
    }.value
}
