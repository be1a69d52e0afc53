import Router

// The registry the article's later blocks look up in: the notes module and the editor's router, as the
// article registers them.
func setUp(_ registry: RouteRegistry) throws {
    try registry.load(NotesModule())
    try registry.register(router: NoteEditorRouter.self, for: .noteEditor)
}
