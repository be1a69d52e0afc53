// expected-error: main actor-isolated property 'prefix' can not be referenced from a Sendable closure
// expected-errors: 1
// swiftc-flags: -default-isolation MainActor
//
// In a target whose default isolation is the main actor, a configuration protocol declared without
// `nonisolated` that declares a property puts on the main actor the configuration class's property that
// satisfies it, although the class itself is nonisolated: a plain factory, which is nonisolated, cannot
// read it (issue 45). Main-actor code may still configure it.

import Router

nonisolated protocol Note: AnyObject, Sendable { var text: String { get } }
protocol LabelModuleConfig: ModuleConfiguration<any Note> {
    var prefix: String { get set }
}
extension RoutableServiceModule<any LabelModuleConfig, any Note> {
    nonisolated static var label: Self { .init(declaring: Configuration.self, making: Destination.self) }
}
final class LabelConfiguration: ModuleConfiguration<any Note>, LabelModuleConfig {
    var prefix = "Note: "
}
final class TextNote: Note {
    let text: String
    init(text: String) { self.text = text }
}

func registerLabel(in registry: RouteRegistry) throws {
    try registry.register(.label, configuration: LabelConfiguration.init) { config, _ in
        TextNote(text: config.prefix + "hello")
    }
}
