import Foundation
import Router
import Testing

#if canImport(Glibc)
    import Glibc
#endif

// Module discovery from outside the module: records this test image declares (two good ones, and one each
// of the bad kinds), the order they load in, sealing's reports naming their image, and plugin directories
// that cannot be used. The bad records are reported by every discovery in this image and never stop one.

#if compiler(>=6.3)
    protocol Salutation: Sendable { var greeting: String { get } }
    extension RoutableService<any Salutation> {
        nonisolated static var salutation: Self { .init(declaring: Destination.self) }
    }
    protocol Valediction: Sendable { var farewell: String { get } }
    extension RoutableService<any Valediction> {
        nonisolated static var valediction: Self { .init(declaring: Destination.self) }
    }
    struct DiscoveredHello: Salutation { let greeting = "hello" }
    struct DiscoveredBye: Valediction { let farewell = "bye" }

    /// Declared second in the file, sorted first: discovery orders an image's modules by type name.
    struct DiscoveryZuluModule: RouteModule {
        func register(in registry: RouteRegistry) throws {
            try registry.register(.valediction) { _ in DiscoveredBye() }
        }
    }

    /// Throws only in a registry made with `maxDepth: 7`, so that the other tests of this image, whose
    /// discoveries also find it, are not disturbed.
    struct DiscoveryAlphaModule: RouteModule {
        struct Refused: Error {}
        func register(in registry: RouteRegistry) throws {
            if registry.maxDepth == 7 { throw Refused() }
            try registry.register(.salutation) { _ in DiscoveredHello() }
        }
    }

    #if objectFormat(MachO)
        @used @section("__DATA_CONST,__router_modules")
    #else
        @used @section("router_modules")
    #endif
    let zuluRecord: RouteModuleRecord = (1, 0, { ModuleDiscovery.export(DiscoveryZuluModule()) })

    #if objectFormat(MachO)
        @used @section("__DATA_CONST,__router_modules")
    #else
        @used @section("router_modules")
    #endif
    let alphaRecord: RouteModuleRecord = (1, 0, { ModuleDiscovery.export(DiscoveryAlphaModule()) })

    /// Sorted last by name, first by its order number.
    struct DiscoveryMikeModule: RouteModule {
        func register(in registry: RouteRegistry) throws {}
    }

    #if objectFormat(MachO)
        @used @section("__DATA_CONST,__router_modules")
    #else
        @used @section("router_modules")
    #endif
    let mikeRecord: RouteModuleRecord = (1, -5, { ModuleDiscovery.export(DiscoveryMikeModule()) })

    /// A record of a future layout: refused by its version, its accessor never called.
    #if objectFormat(MachO)
        @used @section("__DATA_CONST,__router_modules")
    #else
        @used @section("router_modules")
    #endif
    let futureRecord: (UInt32, UInt32, UInt) = (99, 0, 0)

    /// A record with the right version and no accessor.
    #if objectFormat(MachO)
        @used @section("__DATA_CONST,__router_modules")
    #else
        @used @section("router_modules")
    #endif
    let emptyRecord: (UInt32, UInt32, UInt) = (1, 0, 0)

    /// An accessor that does not hand its module over through this process's Router: what a library with a
    /// copy of Router of its own looks like to the host.
    #if objectFormat(MachO)
        @used @section("__DATA_CONST,__router_modules")
    #else
        @used @section("router_modules")
    #endif
    let foreignRecord: RouteModuleRecord = (1, 0, { 12_345 })

    @Suite struct ModuleDiscoveryTests {
        private func fixtureNames(_ discovery: ModuleDiscovery) -> [String] {
            discovery.modules.map(\.name).filter { $0.hasPrefix("Discovery") }
        }

        /// A registry with this file's discovered modules (the test image also holds the shop's features,
        /// which need the shop's wiring), then `modules`, sealed.
        private func fixtureRegistry(_ modules: [any RouteModule], maxDepth: Int = 1_000) throws -> RouteRegistry {
            let registry = RouteRegistry(maxDepth: maxDepth)
            for found in ModuleDiscovery.loadedImages().modules where found.name.hasPrefix("Discovery") {
                try registry.load(found)
            }
            for module in modules { try registry.load(module) }
            try registry.seal()
            return registry
        }

        @Test func discoveryFindsTheModulesOfTheLoadedImagesByOrderNumberThenTypeName() {
            let discovery = ModuleDiscovery.loadedImages()
            #expect(ModuleDiscovery.isAvailable)
            #expect(fixtureNames(discovery) == ["DiscoveryMikeModule", "DiscoveryAlphaModule", "DiscoveryZuluModule"])
            #expect(discovery.modules.first { $0.name == "DiscoveryMikeModule" }?.order == -5)
            let alpha = discovery.modules.first { $0.name == "DiscoveryAlphaModule" }
            #expect(alpha?.isExecutable == true)
            #expect(alpha?.image == URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path)
        }

        /// Discoveries on several threads at once hand modules over and take them back through one table:
        /// each must find every module, in order, and (under `--sanitize=thread`) the table's lock must be
        /// one ThreadSanitizer sees. With `Synchronization.Mutex` guarding it, CI's sanitizer run reported
        /// the hand-over as a race.
        @Test func concurrentDiscoveriesEachFindEveryModule() {
            let found = TestLocked<[[String]]>([])
            onThreads(8) { _ in
                for _ in 0..<4 {
                    let names = fixtureNames(ModuleDiscovery.loadedImages())
                    found.withLock { $0.append(names) }
                }
            }
            let expected = ["DiscoveryMikeModule", "DiscoveryAlphaModule", "DiscoveryZuluModule"]
            let all = found.withLock { $0 }
            #expect(all.count == 32)
            #expect(all.allSatisfy { $0 == expected })
        }

        @Test func aRegistryMadeByDiscoveryServesTheDiscoveredKeysAndTheExplicitModules() throws {
            struct Explicit: RouteModule {
                func register(in registry: RouteRegistry) throws {
                    try registry.register(.engine) { _ in V8() }
                }
            }
            let registry = try fixtureRegistry([Explicit()])
            #expect(try registry.makeDestination(to: .salutation).greeting == "hello")
            #expect(try registry.makeDestination(to: .valediction).farewell == "bye")
            #expect(try registry.makeDestination(to: .engine) is V8)
        }

        @Test func aKeyRegisteredByADiscoveredAndAnExplicitModuleIsReportedWithBoth() throws {
            struct AlsoGreets: RouteModule {
                func register(in registry: RouteRegistry) throws {
                    try registry.register(.salutation) { _ in DiscoveredHello() }
                }
            }
            let error = #expect(throws: RouteError.self) {
                try fixtureRegistry([AlsoGreets()])
            }
            #expect(error?.code == .validationFailed)
            let message = error?.description ?? ""
            #expect(message.hasPrefix("Sealing found 1 problem:"), "\(message)")
            #expect(message.contains("DiscoveryAlphaModule"), "\(message)")
            #expect(message.contains("AlsoGreets"), "\(message)")
        }

        @Test func aRecordOfAnotherVersionIsAProblemNamingItsImage() throws {
            let problems = ModuleDiscovery.loadedImages().problems.map(\.description)
            let image = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
            #expect(
                problems.contains { $0.contains("of \(image) has version 99; this Router reads version 1.") },
                "\(problems)")
        }

        @Test func aRecordWithoutAnAccessorIsAProblem() {
            let problems = ModuleDiscovery.loadedImages().problems
            #expect(problems.contains { $0.code == .invalidModuleRecord && $0.reason.hasSuffix("has no accessor.") })
        }

        @Test func aModuleHandedOverToAnotherCopyOfRouterIsAProblemNotACrash() {
            let problems = ModuleDiscovery.loadedImages().problems
            #expect(
                problems.contains {
                    $0.code == .invalidModuleRecord
                        && $0.reason.contains("made its module with another copy of Router")
                })
        }

        @Test func aDiscoveredModuleWhoseRegisterThrowsIsALineOfSealingsReport() throws {
            let error = #expect(throws: RouteError.self) {
                try fixtureRegistry([], maxDepth: 7)
            }
            #expect(error?.code == .validationFailed)
            #expect(
                error?.description.contains("DiscoveryAlphaModule, found in ") == true
                    && error?.description.contains(", threw while registering: Refused()") == true,
                "\(error?.description ?? "")")
        }

        @Test func loadingADiscoveredModuleAfterSealingIsATypedError() throws {
            let discovery = ModuleDiscovery.loadedImages()
            let zulu = try #require(discovery.modules.first { $0.name == "DiscoveryZuluModule" })
            let registry = try RouteRegistry(modules: [])
            let error = #expect(throws: RouteError.self) { try registry.load(zulu) }
            #expect(error?.code == .registrationAfterSeal)
        }

        @Test func aMissingPluginDirectoryIsAProblem() {
            var discovery = ModuleDiscovery()
            discovery.loadPlugins(from: "/nonexistent/router-plugins")
            #expect(discovery.modules.isEmpty)
            #expect(
                discovery.problems.map(\.description) == [
                    "The plugin directory \"/nonexistent/router-plugins\" does not exist or cannot be read. Hint: Create it, or build the plugin into it, before starting the app."
                ])
            #expect(discovery.problems.first?.code == .pluginLoadFailed)
        }

        @Test func aRelativePluginDirectoryIsRefused() {
            var discovery = ModuleDiscovery()
            discovery.loadPlugins(from: "plugins")
            #expect(discovery.problems.first?.code == .pluginLoadFailed)
            #expect(discovery.problems.first?.reason == "The plugin directory \"plugins\" is not an absolute path.")
        }

        @Test func aLibraryWithoutRecordsIsAProblem() throws {
            // A copy of the C math library, which this process has loaded: a real library with no records.
            // Read to the end: /proc files report a size of 0.
            let handle = try #require(FileHandle(forReadingAtPath: "/proc/self/maps"))
            let maps = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
            let libm = try #require(
                maps.split(separator: "\n").compactMap { line in line.split(separator: " ").last.map(String.init) }
                    .first { $0.hasPrefix("/") && $0.contains("/libm.so") })
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("router-plugins-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            try FileManager.default.copyItem(
                at: URL(fileURLWithPath: libm), to: directory.appendingPathComponent("libNoRecords.so"))
            var discovery = ModuleDiscovery()
            discovery.loadPlugins(from: directory.path)
            #expect(
                discovery.problems.map(\.description) == [
                    "The plugin \(directory.path)/libNoRecords.so declares no module. Hint: Declare each module with a RouteModuleRecord in the section router_modules."
                ])
        }

        /// A copy of the C math library, which this process has loaded: a real library with no records.
        private func copyOfLibm(to file: URL) throws {
            // Read to the end: /proc files report a size of 0.
            let handle = try #require(FileHandle(forReadingAtPath: "/proc/self/maps"))
            let maps = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
            let libm = try #require(
                maps.split(separator: "\n").compactMap { line in line.split(separator: " ").last.map(String.init) }
                    .first { $0.hasPrefix("/") && $0.contains("/libm.so") })
            try FileManager.default.copyItem(at: URL(fileURLWithPath: libm), to: file)
        }

        private func temporaryPluginDirectory() throws -> URL {
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("router-plugins-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            return directory
        }

        @Test func aNamedPipeNamedLikeALibraryIsAProblemNotALoadThatWaitsForAWriter() throws {
            let directory = try temporaryPluginDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let outside = try temporaryPluginDirectory()
            defer { try? FileManager.default.removeItem(at: outside) }
            #expect(mkfifo(directory.appendingPathComponent("x.so").path, 0o600) == 0)
            // A symbolic link to a regular file is a library like any other.
            try copyOfLibm(to: outside.appendingPathComponent("libReal.so"))
            try FileManager.default.createSymbolicLink(
                at: directory.appendingPathComponent("libLinked.so"),
                withDestinationURL: outside.appendingPathComponent("libReal.so"))
            let problems = TestLocked<[String]>([])
            finishesOnItsOwnThread(bound: 30) {
                var discovery = ModuleDiscovery()
                discovery.loadPlugins(from: directory.path)
                problems.withLock { $0 = discovery.problems.map(\.description) }
            }
            #expect(
                problems.withLock { $0 } == [
                    "The plugin \(directory.path)/libLinked.so declares no module. Hint: Declare each module with a RouteModuleRecord in the section router_modules.",
                    "The plugin \(directory.path)/x.so is not a library: it is a named pipe, not a regular file. Hint: Only regular files, or symbolic links to them, are loaded; move it out of the plugin directory.",
                ])
        }

        @Test func loadingADirectoryTwiceKeepsItsModulesAndProblemsOnce() throws {
            let directory = try temporaryPluginDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            try copyOfLibm(to: directory.appendingPathComponent("libTwice.so"))
            var discovery = ModuleDiscovery.loadedImages()
            let modules = discovery.modules.map(\.name)
            let problems = discovery.problems.map(\.description)
            discovery.loadPlugins(from: directory.path)
            discovery.loadPlugins(from: directory.path)
            #expect(discovery.modules.map(\.name) == modules)
            #expect(
                discovery.problems.map(\.description) == problems + [
                    "The plugin \(directory.path)/libTwice.so declares no module. Hint: Declare each module with a RouteModuleRecord in the section router_modules."
                ])
            // A discovery that found the library among the loaded images says the same of it.
            var later = ModuleDiscovery.loadedImages()
            later.loadPlugins(from: directory.path)
            #expect(later.problems.filter { $0.key.hasPrefix(directory.path) }.count == 1)
        }

        @Test func aFileThatIsNotALibraryIsAProblemAndTheOthersStillLoad() throws {
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("router-plugins-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            try Data("not a library".utf8).write(to: directory.appendingPathComponent("libBroken.so"))
            try Data("notes".utf8).write(to: directory.appendingPathComponent("README.txt"))
            var discovery = ModuleDiscovery.loadedImages()
            let before = discovery.modules.count
            discovery.loadPlugins(from: directory.path)
            #expect(discovery.modules.count == before)
            let plugin = discovery.problems.filter { $0.code == .pluginLoadFailed }
            #expect(plugin.count == 1, "\(plugin)")
            #expect(
                plugin.first?.reason.hasPrefix("The plugin \(directory.path)/libBroken.so could not be loaded: ")
                    == true)
        }
    }
#endif
