import Foundation
import Router
import Testing

// The gift card plugin, built by scripts/build-plugin.sh into `plugins` next to the Demo executable. CI
// builds it and sets ROUTER_REQUIRE_PLUGIN=1, so that a missing library fails these tests there; a local
// run without it skips them with a note.

@Suite struct PluginTests {
    /// The built plugin, or nil (after recording an issue when CI requires it).
    private func plugin() throws -> URL? {
        let library = try DemoRunner.executable().deletingLastPathComponent()
            .appendingPathComponent("plugins/libGiftCards.so")
        if FileManager.default.fileExists(atPath: library.path) { return library }
        if ProcessInfo.processInfo.environment["ROUTER_REQUIRE_PLUGIN"] == "1" {
            Issue.record("\(library.path) is missing: build it with bash scripts/build-plugin.sh")
        } else {
            print("note: \(library.path) is not built (bash scripts/build-plugin.sh); plugin tests skipped")
        }
        return nil
    }

    @Test func thePluginsFeatureAppearsWhenLoadedAndIsAbsentOtherwise() async throws {
        guard let library = try plugin() else { return }
        let session = ["login ann", "badge", "open giftcards", "back", "quit"]
        let with = try await DemoRunner.run(session, plugins: library.deletingLastPathComponent().path)
        #expect(with.status == 0)
        #expect(with.errors == "")
        #expect(with.output.contains("Badge: 1 (cart 0, orders 0, news 0, chat 1, gift cards 0)"), "\(with.output)")
        #expect(with.output.contains("== Gift cards == ann | badge 1"), "\(with.output)")
        let without = try await DemoRunner.run(session)
        #expect(without.output.contains("Badge: 1 (cart 0, orders 0, news 0, chat 1)\n"), "\(without.output)")
        #expect(without.output.contains("No route is registered for the path \"giftcards\"."), "\(without.output)")
    }

    @Test func aPluginDirectoryLoadedTwiceGivesItsFeatureOnceAndNoProblem() async throws {
        // SHOP_PLUGINS names the directory twice: the demo calls loadPlugins(from:) for it twice, and the
        // second call finds the plugin already read.
        guard let library = try plugin() else { return }
        let directory = library.deletingLastPathComponent().path
        let session = ["login ann", "badge", "open giftcards", "back", "quit"]
        let twice = try await DemoRunner.run(session, plugins: "\(directory):\(directory)")
        #expect(twice.status == 0)
        #expect(twice.errors == "")
        #expect(twice.output.contains("Badge: 1 (cart 0, orders 0, news 0, chat 1, gift cards 0)"), "\(twice.output)")
        #expect(twice.output.contains("== Gift cards == ann | badge 1"), "\(twice.output)")
    }

    @Test func twoLibrariesRegisteringOnePathAreReportedWithBothLibrariesNamed() async throws {
        guard let library = try plugin() else { return }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("plugins-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for name in ["libGiftCards.so", "libGiftCardsAgain.so"] {
            try FileManager.default.copyItem(at: library, to: directory.appendingPathComponent(name))
        }
        let run = try await DemoRunner.run(["quit"], plugins: directory.path)
        #expect(run.status == 1)
        #expect(
            run.errors.contains(
                "The path pattern \"giftcards\" is registered twice: for RoutableService<GiftCardScreen> from GiftCardsModule (libGiftCards.so) and for RoutableService<GiftCardScreen> from GiftCardsModule (libGiftCardsAgain.so)."
            ), "\(run.errors)")
    }

    @Test func aPluginWhoseSymbolsTheHostDoesNotExportFailsToLoadWithTheLoadersMessage() throws {
        // This test process does not export ShopInterfaces' symbols (the demo does): the plugin's
        // references to them cannot be bound.
        guard let library = try plugin() else { return }
        var discovery = ModuleDiscovery()
        discovery.loadPlugins(from: library.deletingLastPathComponent().path)
        #expect(discovery.modules.isEmpty)
        let problem = try #require(discovery.problems.first)
        #expect(problem.code == .pluginLoadFailed)
        #expect(problem.reason.hasPrefix("The plugin \(library.path) could not be loaded: "), "\(problem)")
        #expect(problem.reason.contains("undefined symbol"), "\(problem)")
    }
}
