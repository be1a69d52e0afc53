import Router
import Synchronization
import Testing

// The worked examples of the DocC article "Migrating from ZIKRouter", so that they cannot rot.
// The article's declarations sit here inside `enum ZIKPort`, and the keys are `fileprivate`, so that they
// do not clash with the other tests' names; the code is otherwise the same.

enum ZIKPort {
    // MARK: A service router

    protocol NoteStore: AnyObject {
        var notes: [String] { get }
        func add(_ note: String)
    }

    protocol SpellChecker: AnyObject { func check(_ text: String) -> Bool }

    final class MemoryNoteStore: NoteStore {
        private(set) var notes: [String] = []
        var spellChecker: (any SpellChecker)?
        func add(_ note: String) { notes.append(note) }
    }

    final class EnglishSpellChecker: SpellChecker {
        func check(_ text: String) -> Bool { !text.contains("teh") }
    }

    /// ZIKRouter: `class NoteStoreRouter: ZIKServiceRouter<NoteStore, ZIKPerformRouteConfiguration>`.
    final class NoteStoreRouter: ServiceRouter<any NoteStore, ModuleConfiguration<any NoteStore>> {
        override class var scope: Scope { .singleton }

        override func makeDestination(
            configuration: ModuleConfiguration<any NoteStore>, resolver: inout Resolver
        ) throws -> any NoteStore {
            MemoryNoteStore()
        }

        override func prepareDestination(
            _ destination: any NoteStore, configuration: ModuleConfiguration<any NoteStore>,
            resolver: inout Resolver
        ) throws {
            guard let store = destination as? MemoryNoteStore, store.spellChecker == nil else { return }
            store.spellChecker = try resolver.resolve(.spellChecker)
        }
    }

    /// ZIKRouter: `+registerRoutableDestination` of each router; here, one module per feature.
    struct NotesModule: RouteModule {
        func register(in registry: RouteRegistry) throws {
            try registry.register(.spellChecker) { _ in EnglishSpellChecker() }
            try registry.register(router: NoteStoreRouter.self, for: .noteStore).identifier("notes/store")
        }
    }

    // MARK: A module with a configuration protocol

    protocol NoteEditor: AnyObject {
        var title: String { get }
        var isReadOnly: Bool { get }
    }

    /// ZIKRouter: `protocol NoteEditorModuleInput: class { var constructDestination: (String) -> Void { get } … }`.
    protocol NoteEditorModuleConfig: ModuleConfiguration<any NoteEditor> {
        func constructNoteEditor(title: String)
        var isReadOnly: Bool { get set }
    }

    final class NoteEditorConfiguration: ModuleConfiguration<any NoteEditor>, NoteEditorModuleConfig {
        var title: String?
        var isReadOnly = false
        func constructNoteEditor(title: String) { self.title = title }
    }

    final class PlainNoteEditor: NoteEditor {
        let title: String
        let isReadOnly: Bool
        init(title: String, isReadOnly: Bool) {
            self.title = title
            self.isReadOnly = isReadOnly
        }
    }

    final class NoteEditorRouter: ServiceRouter<any NoteEditor, NoteEditorConfiguration> {
        override func makeDestination(
            configuration: NoteEditorConfiguration, resolver: inout Resolver
        ) throws -> any NoteEditor {
            let title = try configuration.require(configuration.title, setBy: "constructNoteEditor(title:)")
            return PlainNoteEditor(title: title, isReadOnly: configuration.isReadOnly)
        }
    }

    // MARK: An adapter

    /// What the Sharing module requires.
    protocol NoteSharing: Sendable { func share(_ note: String) -> String }
    /// What the Mail module provides.
    protocol Mailer: Sendable { func send(_ body: String, to address: String) -> String }

    struct SMTPMailer: Mailer {
        func send(_ body: String, to address: String) -> String { "mailed \"\(body)\" to \(address)" }
    }

    struct MailNoteSharing: NoteSharing {
        let mailer: any Mailer
        func share(_ note: String) -> String { mailer.send(note, to: "me@example.com") }
    }
}

extension RoutableService where Destination == any ZIKPort.NoteStore {
    fileprivate static var noteStore: Self { Self(declaring: (any ZIKPort.NoteStore).self) }
}
extension RoutableService where Destination == any ZIKPort.SpellChecker {
    fileprivate static var spellChecker: Self { Self(declaring: (any ZIKPort.SpellChecker).self) }
}
extension RoutableServiceModule
where Configuration == any ZIKPort.NoteEditorModuleConfig, Destination == any ZIKPort.NoteEditor {
    fileprivate static var noteEditor: Self {
        Self(declaring: (any ZIKPort.NoteEditorModuleConfig).self, making: (any ZIKPort.NoteEditor).self)
    }
}
extension RoutableService where Destination == any ZIKPort.NoteSharing {
    fileprivate static var noteSharing: Self { Self(declaring: (any ZIKPort.NoteSharing).self) }
}
extension RoutableService where Destination == any ZIKPort.Mailer {
    fileprivate static var mailer: Self { Self(declaring: (any ZIKPort.Mailer).self) }
}

struct MigrationZIKRouterTests {
    @Test func aServiceRouterSubclassPortsHookForHook() throws {
        let registry = try RouteRegistry(modules: [ZIKPort.NotesModule()])

        let store = try registry.makeDestination(to: .noteStore)
        store.add("buy milk")
        #expect(try registry.makeDestination(to: .noteStore) === store)  // the router's scope is .singleton
        #expect((store as? ZIKPort.MemoryNoteStore)?.spellChecker != nil)  // set by prepareDestination

        // ZIKRouter's `Router.to(identifier)`: a string identifier, checked against the type you ask for.
        let byName = try registry.makeDestination(identifier: "notes/store", as: (any ZIKPort.NoteStore).self)
        #expect(byName.notes == ["buy milk"])
    }

    @Test func thePreparationRunsBeforeTheRoutersPrepareHook() throws {
        let registry = try RouteRegistry(modules: [ZIKPort.NotesModule()])
        let checker = ZIKPort.EnglishSpellChecker()
        let store = try registry.makeDestination(to: .noteStore) { store in
            (store as? ZIKPort.MemoryNoteStore)?.spellChecker = checker
        }
        // The router saw the caller's spell checker and kept it.
        #expect((store as? ZIKPort.MemoryNoteStore)?.spellChecker === checker)
    }

    @Test func aModuleConfigurationProtocolPortsToConstructMethods() throws {
        let registry = RouteRegistry()
        try registry.register(router: ZIKPort.NoteEditorRouter.self, for: .noteEditor)
        try registry.seal()

        let made = TestLocked<String?>(nil)
        let editor = try registry.makeDestination(to: .noteEditor) { config in
            config.constructNoteEditor(title: "Groceries")
            config.isReadOnly = true
            config.successHandler = { editor in made.withLock { $0 = editor.title } }
        }
        #expect(editor.title == "Groceries")
        #expect(editor.isReadOnly)
        #expect(made.withLock { $0 } == "Groceries")
    }

    @Test func aForgottenConstructCallIsATypedErrorAndTheHandlersSeeIt() throws {
        let registry = RouteRegistry()
        try registry.register(router: ZIKPort.NoteEditorRouter.self, for: .noteEditor)
        try registry.seal()
        let seenByRegistry = TestLocked<[String]>([])
        registry.errorHandler = { error in seenByRegistry.withLock { $0.append(error.code.description) } }

        let seenByCaller = TestLocked<RouteError?>(nil)
        let error = #expect(throws: RouteError.self) {
            try registry.makeDestination(to: .noteEditor) { config in
                config.errorHandler = { error in seenByCaller.withLock { $0 = error } }
            }
        }
        #expect(error?.code == .invalidConfiguration)
        #expect(
            error?.description
                == "The configuration of RoutableServiceModule<NoteEditorModuleConfig, NoteEditor> is missing the call constructNoteEditor(title:); no destination was made. Hint: Call constructNoteEditor(title:) in the configuring closure of makeDestination(to:configuring:)."
        )
        #expect(seenByCaller.withLock { $0?.code } == .invalidConfiguration)
        #expect(seenByRegistry.withLock { $0 } == ["invalidConfiguration"])
    }

    @Test func anAdapterJoinsARequiredProtocolToAProvidedOne() throws {
        let registry = RouteRegistry()
        try registry.register(.mailer) { _ in ZIKPort.SMTPMailer() }
        try registry.adapt(.noteSharing, to: .mailer) { mailer in ZIKPort.MailNoteSharing(mailer: mailer) }
        try registry.seal()

        let sharing = try registry.makeDestination(to: .noteSharing)
        #expect(sharing.share("hello") == "mailed \"hello\" to me@example.com")
    }

    @Test func anUnregisteredProtocolIsAnErrorNotANil() throws {
        let registry = try RouteRegistry(modules: [])
        let error = #expect(throws: RouteError.self) { try registry.makeDestination(to: .noteStore) }
        #expect(error?.code == .unregisteredKey)
    }
}
