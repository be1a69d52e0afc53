import Router
import Testing

// Screens that need something before they exist, as an app target with default main-actor isolation
// writes them: a book screen made for an id (a runtime argument), and a note editor whose document is a
// required `construct…` call of its module configuration (ZIKRouter's style). The screens are main-actor
// classes; the configuration is nonisolated, since the caller's thread makes and configures it.

protocol BookScreen: AnyObject {
    var bookID: Int { get }
}
extension RoutableService<any BookScreen> {
    nonisolated static var bookScreen: Self { .init(declaring: Destination.self) }
}
final class BookPage: BookScreen {
    let bookID: Int
    init(bookID: Int) { self.bookID = bookID }
}

protocol NoteEditor: AnyObject {
    var document: String { get }
}
nonisolated protocol NoteEditorModuleConfig: ModuleConfiguration<any NoteEditor> {
    func constructNoteEditor(document: String)
}
extension RoutableServiceModule<any NoteEditorModuleConfig, any NoteEditor> {
    nonisolated static var noteEditor: Self { .init(declaring: Configuration.self, making: Destination.self) }
}
final class NoteEditorConfiguration: ModuleConfiguration<any NoteEditor>, NoteEditorModuleConfig {
    var document: String?
    func constructNoteEditor(document: String) { self.document = document }
}
final class NoteEditorPage: NoteEditor {
    let document: String
    init(document: String) { self.document = document }
}

struct ParameterisedScreensModule: RouteModule {
    func register(in registry: RouteRegistry) throws {
        try registry.registerOnMainActor(.bookScreen, arguments: Int.self) { _, id in BookPage(bookID: id) }
        try registry.registerOnMainActor(.noteEditor, configuration: NoteEditorConfiguration.init) { config, _ in
            NoteEditorPage(document: try config.require(config.document, setBy: "constructNoteEditor(document:)"))
        }
    }
}

struct ScreensWithParametersTests {
    @Test func screensWithAnArgumentOrAConfigurationAreMadeSynchronouslyFromMainActorCode() throws {
        let registry = try RouteRegistry(modules: [ParameterisedScreensModule()])
        #expect(try registry.makeDestination(to: .bookScreen, arguments: 3).bookID == 3)
        let books = try registry.provider(.bookScreen, arguments: Int.self)
        #expect(try books(4).bookID == 4)
        let editor = try registry.makeDestination(to: .noteEditor) { $0.constructNoteEditor(document: "todo") }
        #expect(editor.document == "todo")
    }

    @Test func theSameScreensLookedUpFromADetachedTaskAreTypedErrors() async throws {
        let registry = try RouteRegistry(modules: [ParameterisedScreensModule()])
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
                code { try registry.makeDestination(to: .bookScreen, arguments: 3) },
                code { try registry.makeDestination(to: .noteEditor) { $0.constructNoteEditor(document: "todo") } },
            ]
        }.value
        #expect(codes == [.mainActorRequired, .mainActorRequired])
    }
}
