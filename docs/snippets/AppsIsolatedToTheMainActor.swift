import Router

// default-isolation: MainActor
// The article is about app targets built with `.defaultIsolation(MainActor.self)`: its blocks are built
// with that setting, and its compile-error blocks type-checked with `-default-isolation MainActor`.
// (The failing snippets themselves are pinned by Tests/CompileErrors and scripts/check-compile-errors.sh.)
