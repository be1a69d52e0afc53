import Router
import Testing

// The main-actor forms of the registrations that take runtime arguments and module configurations: made
// synchronously from main-actor code, and a typed error before the factory runs from anywhere else.

/// A screen's configuration: the document it edits is a required `construct…` call.
protocol EditorModuleConfig: ModuleConfiguration<any ProfileView> {
    func constructEditor(document: String)
}
extension RoutableServiceModule<any EditorModuleConfig, any ProfileView> {
    nonisolated static var editor: Self { .init(declaring: Configuration.self, making: Destination.self) }
}
final class EditorConfiguration: ModuleConfiguration<any ProfileView>, EditorModuleConfig {
    var document: String?
    func constructEditor(document: String) { self.document = document }
}

/// An argument that is not Sendable: the main-actor factory gets it all the same.
final class Draft {
    var text: String
    init(text: String) { self.text = text }
}

/// A registry with a main-actor screen taking arguments, one taking a draft, and a main-actor module,
/// counting their factories' runs.
private func screensRegistry(counting made: Counter) throws -> RouteRegistry {
    try sealedRegistry { registry in
        try registry.registerOnMainActor(.profileView, arguments: String.self, Int.self) { _, name, id in
            made.increment()
            return ProfileViewImpl(title: "\(name) #\(id)")
        }
        try registry.registerOnMainActor(.profileView.named("draft"), arguments: Draft.self) { _, draft in
            made.increment()
            return ProfileViewImpl(title: draft.text)
        }
        try registry.registerOnMainActor(.editor, configuration: EditorConfiguration.init) { config, _ in
            made.increment()
            return ProfileViewImpl(
                title: "Editing " + (try config.require(config.document, setBy: "constructEditor(document:)")))
        }
        try registry.registerOnMainActor(.profileView.named("host")) { r in
            // Inside a main-actor lookup, resolving and providing with arguments run on the main actor too.
            let resolved = try r.resolve(.profileView, arguments: "Ann", 1)
            let provided = try r.provider(.profileView, arguments: String.self, Int.self)("Bob", 2)
            return ProfileViewImpl(title: "\(resolved.title), \(provided.title)")
        }
    }
}

private let argumentsOffTheMainActor =
    "RoutableService<ProfileView> is made on the main actor, but was looked up outside it. Hint: Look it up with makeDestination(to:) from main-actor code (from elsewhere: await MainActor.run { … }), or register a nonisolated factory."
private let draftOffTheMainActor =
    "RoutableService<ProfileView>[\"draft\"] is made on the main actor, but was looked up outside it. Hint: Look it up with makeDestination(to:) from main-actor code (from elsewhere: await MainActor.run { … }), or register a nonisolated factory."
private let moduleOffTheMainActor =
    "RoutableServiceModule<EditorModuleConfig, ProfileView> is made on the main actor, but was looked up outside it. Hint: Look it up with makeDestination(to:) from main-actor code (from elsewhere: await MainActor.run { … }), or register a nonisolated factory."

/// What a lookup gave: "made", or the error's text.
private func text(_ body: () throws -> Any) -> String {
    do {
        _ = try body()
        return "made"
    } catch {
        return "\(error)"
    }
}

struct MainActorRegistrationFormsTests {
    @MainActor @Test func aMainActorFactoryWithArgumentsRunsSynchronouslyOnTheMainActor() throws {
        let made = Counter()
        let registry = try screensRegistry(counting: made)
        #expect(try registry.makeDestination(to: .profileView, arguments: "Ann", 7).title == "Ann #7")
        #expect(try registry.provider(.profileView, arguments: String.self, Int.self)("Cy", 3).title == "Cy #3")
        #expect(try registry.makeDestination(to: .profileView.named("host")).title == "Ann #1, Bob #2")
        let draft = Draft(text: "Notes")
        #expect(try registry.makeDestination(to: .profileView.named("draft"), arguments: draft).title == "Notes")
        #expect(made.value == 5)
    }

    @MainActor @Test func argumentsOfTheWrongTypesAreStillAnArgumentMismatchOnTheMainActor() throws {
        let made = Counter()
        let registry = try screensRegistry(counting: made)
        let error = #expect(throws: RouteError.self) {
            try registry.makeDestination(to: .profileView, arguments: 7, "Ann")
        }
        #expect(
            error?.description
                == "RoutableService<ProfileView> takes the arguments (String, Int), but was given (Int, String). Hint: Pass arguments of exactly these types, in this order."
        )
        #expect(made.value == 0)
    }

    @MainActor @Test func aMainActorModuleIsConfiguredAndMadeSynchronouslyOnTheMainActor() throws {
        let made = Counter()
        let registry = try screensRegistry(counting: made)
        var succeeded: String?
        let editor = try registry.makeDestination(to: .editor) { config in
            config.constructEditor(document: "notes")
            config.successHandler = { succeeded = $0.title }
        }
        #expect(editor.title == "Editing notes")
        #expect(succeeded == "Editing notes")
        let error = #expect(throws: RouteError.self) { try registry.makeDestination(to: .editor) { _ in } }
        #expect(error?.code == .invalidConfiguration)
        #expect(made.value == 2)
    }

    @Test func bothFormsOffTheMainActorAreTypedErrorsBeforeTheFactoryRuns() throws {
        let made = Counter()
        let registry = try screensRegistry(counting: made)
        let results = TestLocked<[String]>([])
        finishesOnItsOwnThread {
            let handled = TestLocked<[String]>([])
            let all = [
                text { try registry.makeDestination(to: .profileView, arguments: "Ann", 7) },
                text { try registry.provider(.profileView, arguments: String.self, Int.self)("Ann", 7) },
                text { try registry.makeDestination(to: .profileView.named("draft"), arguments: Draft(text: "Notes")) },
                text {
                    try registry.makeDestination(to: .editor) { config in
                        config.constructEditor(document: "notes")
                        config.errorHandler = { error in handled.withLock { $0.append("\(error.code)") } }
                    }
                },
            ]
            results.withLock { $0 = all + handled.withLock { $0 } }
        }
        #expect(
            results.withLock { $0 }
                == [
                    argumentsOffTheMainActor, argumentsOffTheMainActor,
                    draftOffTheMainActor,
                    moduleOffTheMainActor, "mainActorRequired",
                ])
        #expect(made.value == 0)
    }

    @Test func theSameLookupsHopToTheMainActorFromATask() async throws {
        let made = Counter()
        let registry = try screensRegistry(counting: made)
        let titles = try await MainActor.run {
            [
                try registry.makeDestination(to: .profileView, arguments: "Ann", 7).title,
                try registry.makeDestination(to: .editor) { $0.constructEditor(document: "notes") }.title,
            ]
        }
        #expect(titles == ["Ann #7", "Editing notes"])
    }
}
