/// The accessor a ``RouteModuleRecord`` holds: a C function, written as a closure that captures nothing,
/// that makes the module and returns what ``ModuleDiscovery/export(_:)`` returns for it.
public typealias RouteModuleAccessor = @convention(c) () -> UInt

#if compiler(>=6.3)
    /// What a module places in the discovery section to be found: the record layout's version (write
    /// ``ModuleDiscovery/recordVersion``'s value, `1`, as a literal), the module's place in the load order
    /// (lower loads first; `0` when the order does not matter) and the accessor that makes the module.
    ///
    /// One declaration, next to the module, with Swift 6.3's `@used` and `@section` (the section's name is the
    /// object format's, hence the two spellings):
    ///
    /// ```swift
    /// #if compiler(>=6.3)
    ///     #if objectFormat(MachO)
    ///         @used @section("__DATA_CONST,__router_modules")
    ///     #else
    ///         @used @section("router_modules")
    ///     #endif
    ///     let catalogModuleRecord: RouteModuleRecord = (1, 0, { ModuleDiscovery.export(CatalogModule()) })
    /// #endif
    /// ```
    public typealias RouteModuleRecord = (version: UInt32, order: Int32, accessor: RouteModuleAccessor)
#else
    /// What a module places in the discovery section to be found: the record layout's version (write
    /// ``ModuleDiscovery/recordVersion``'s value, `1`, as a literal), the module's place in the load order
    /// (lower loads first; `0` when the order does not matter) and the accessor that makes the module.
    ///
    /// One declaration, next to the module, with Swift 6.3's `@used` and `@section` (the section's name is the
    /// object format's, hence the two spellings):
    ///
    /// ```swift
    /// #if compiler(>=6.3)
    ///     #if objectFormat(MachO)
    ///         @used @section("__DATA_CONST,__router_modules")
    ///     #else
    ///         @used @section("router_modules")
    ///     #endif
    ///     let catalogModuleRecord: RouteModuleRecord = (1, 0, { ModuleDiscovery.export(CatalogModule()) })
    /// #endif
    /// ```
    @available(
        *, unavailable,
        message:
            "Module records need Swift 6.3 (@section and @used); load modules explicitly with RouteRegistry(modules:)"
    )
    public typealias RouteModuleRecord = (version: UInt32, order: Int32, accessor: RouteModuleAccessor)
#endif

/// A module found by ``ModuleDiscovery``, with the image (executable or library) its record is in.
public struct DiscoveredModule: Sendable {
    /// The module its record's accessor made.
    public let module: any RouteModule
    /// The path of the image the record is in.
    public let image: String
    /// Whether that image is the executable (rather than a shared library or a plugin).
    public let isExecutable: Bool
    /// The place in the load order its record gave (lower loads first).
    public let order: Int32

    /// The name the module's registrations and messages carry: its type, followed by its image's file name
    /// when that is not the executable, e.g. `GiftCardsModule (libGiftCardsPlugin.so)`.
    public var name: String {
        let type = String(describing: Swift.type(of: module))
        guard !isExecutable else { return type }
        return "\(type) (\(image.split(separator: "/").last.map(String.init) ?? image))"
    }
}

/// Finds the modules that declared themselves with a ``RouteModuleRecord``, in the images loaded now and in
/// plugin libraries loaded from a directory the app names.
///
/// ```swift
/// var discovery = ModuleDiscovery.loadedImages()
/// discovery.loadPlugins(from: "/opt/shop/plugins")
/// for problem in discovery.problems { print(problem) }
/// let registry = try RouteRegistry(discovering: discovery, modules: [WiringModule()])
/// ```
///
/// The order is deterministic: by the records' ``RouteModuleRecord`` order numbers, then by image in the
/// order the dynamic loader loaded them (the executable first, plugins in the order their file names sort),
/// then by fully qualified type name. The linker's order of records is never used: it is no contract.
/// Nothing found is fatal: every record or file that could not be used is one ``problems`` entry
/// naming its image, and the modules that could be made are kept.
public struct ModuleDiscovery: Sendable {
    /// The version of ``RouteModuleRecord``'s layout and of the hand-over through ``export(_:)`` this Router
    /// reads. A record with another version is refused (``RouteError/Code/invalidModuleRecord``), never read.
    public static let recordVersion: UInt32 = 1

    #if canImport(Darwin)
        /// The name of the section records are placed in, as this platform's object format spells it.
        public static let sectionName = "__DATA_CONST,__router_modules"
    #else
        /// The name of the section records are placed in, as this platform's object format spells it.
        public static let sectionName = "router_modules"
    #endif

    /// Whether this build can find records: compiled by Swift 6.3 or later (which has `@section`), on
    /// Linux (64-bit ELF) or an Apple platform.
    public static var isAvailable: Bool {
        #if compiler(>=6.3)
            return ImageSections.isSupported
        #else
            return false
        #endif
    }

    /// The modules found, in load order.
    public var modules: [DiscoveredModule] {
        found.enumerated().sorted { left, right in
            (left.element.order, left.offset) < (right.element.order, right.offset)
        }.map(\.element)
    }
    /// The modules found, by image in load order, then by type name within an image.
    private var found: [DiscoveredModule] = []
    /// Every record, library or directory that could not be used, each naming its image or file.
    public private(set) var problems: [RouteError] = []
    /// The images whose records have been read, so that an image is never read twice.
    private var searched: Set<String> = []

    /// Nothing discovered yet: add plugins with ``loadPlugins(from:)``.
    public init() {}

    /// Hands a module over to the Router that reads the record: the whole body of a record's accessor.
    ///
    /// The module is kept until discovery takes it back by the returned number, which names it only in this
    /// process's copy of Router: a library that carries a copy of Router of its own hands its modules to that
    /// copy, and the host's discovery reports its records (``RouteError/Code/invalidModuleRecord``) instead
    /// of reading memory another copy made.
    /// - Parameter module: The module to make discoverable.
    /// - Returns: A number that only the reading side interprets.
    public static func export(_ module: some RouteModule) -> UInt {
        let box = ExportedModule(module)
        let token = UInt(bitPattern: ObjectIdentifier(box))
        exported.withLock { $0[token] = box }
        return token
    }

    /// The modules handed over and not yet taken back. A pthread-based ``Locked`` rather than
    /// `Synchronization.Mutex`, whose futex ThreadSanitizer cannot see: two discoveries on two threads
    /// (`concurrentDiscoveriesEachFindEveryModule`) would be reported as a race on this dictionary.
    private static let exported = Locked<[UInt: ExportedModule]>([:])

    private static func take(_ token: UInt) -> (any RouteModule)? {
        exported.withLock { $0.removeValue(forKey: token)?.module }
    }

    /// Every module declared in the images loaded now: the executable and the shared libraries it linked,
    /// plus any library loaded since.
    /// - Returns: The modules found and the problems met, in the order described on ``ModuleDiscovery``.
    public static func loadedImages() -> ModuleDiscovery {
        var discovery = ModuleDiscovery()
        discovery.readLoadedImages { _ in true }
        return discovery
    }

    /// Loads every library (`.so`, or `.dylib` on Apple platforms) in `directory` with `dlopen`, in the
    /// order their names sort, and adds the modules their records declare. A library with no records, one
    /// that fails to load, a file that is not a library, or a directory that cannot be read is a
    /// ``problems`` entry (code ``RouteError/Code/pluginLoadFailed``); the others still load.
    ///
    /// Only regular files, or symbolic links to them, are opened: a named pipe, a directory or a socket with
    /// a library's name is a ``problems`` entry saying what it is, never opened (opening a pipe would wait
    /// for a writer for ever; pinned by `aNamedPipeNamedLikeALibraryIsAProblemNotALoadThatWaitsForAWriter`).
    ///
    /// A library this discovery has read already (by an earlier call, or ``loadedImages()`` after it was
    /// loaded) is not read again: its modules are listed once, and it is a problem only when it declares no
    /// module, reported once (pinned by `loadingADirectoryTwiceKeepsItsModulesAndProblemsOnce` and
    /// `aPluginDirectoryLoadedTwiceGivesItsFeatureOnceAndNoProblem`).
    ///
    /// Nothing is loaded implicitly: `directory` must be an absolute path.
    /// - Parameter directory: The absolute path of the directory to load plugins from.
    public mutating func loadPlugins(from directory: String) {
        guard Self.isAvailable else { return noteUnavailable() }
        guard directory.hasPrefix("/") else {
            return problems.append(RouteError.pluginDirectoryNotAbsolute(directory))
        }
        guard let names = ImageSections.entries(of: directory) else {
            return problems.append(RouteError.pluginDirectoryUnreadable(directory))
        }
        let base = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        for name in names.sorted() where name.hasSuffix(Self.librarySuffix) {
            let path = "\(base)/\(name)"
            if searched.contains(path) {
                // Read already: its modules and problems are listed. One that declared nothing is reported
                // once, whoever read it first (`loadedImages()` reads such an image without a word).
                if !found.contains(where: { $0.image == path }) && !problems.contains(where: { $0.key == path }) {
                    problems.append(RouteError.pluginDeclaresNoModule(path))
                }
                continue
            }
            if let kind = ImageSections.nonRegularKind(at: path) {
                problems.append(RouteError.pluginNotARegularFile(path, kind: kind))
                continue
            }
            if let failure = ImageSections.openLibrary(at: path) {
                problems.append(RouteError.pluginNotLoaded(path, failure: failure))
                continue
            }
            let before = found.count
            let problemsBefore = problems.count
            readLoadedImages { $0 == path }
            if found.count == before && problems.count == problemsBefore {
                problems.append(RouteError.pluginDeclaresNoModule(path))
            }
        }
    }

    #if canImport(Darwin)
        private static let librarySuffix = ".dylib"
    #else
        private static let librarySuffix = ".so"
    #endif

    private mutating func noteUnavailable() {
        guard !problems.contains(where: { $0.code == .discoveryUnavailable }) else { return }
        problems.append(RouteError.discoveryUnavailable())
    }

    /// Reads the records of every loaded image `include` accepts and has not been read yet.
    private mutating func readLoadedImages(_ include: (String) -> Bool) {
        guard Self.isAvailable else { return noteUnavailable() }
        let images = ImageSections.loadedImages(section: Self.sectionName) { path in
            !searched.contains(path) && include(path)
        }
        for image in images {
            searched.insert(image.path)
            if let problem = image.problem {
                problems.append(RouteError.recordsNotRead(image.path, problem: problem))
                continue
            }
            var made: [(name: String, order: Int32, module: any RouteModule)] = []
            let stride = MemoryLayout<RouteModuleRecord>.stride
            let accessorOffset = stride - MemoryLayout<UInt>.size
            if image.section.count % stride != 0 {
                problems.append(
                    RouteError.recordSectionNotWhole(image.path, length: image.section.count, stride: stride))
            }
            for index in 0..<(image.section.count / stride) {
                let start = index * stride
                let version = image.section.value(at: start, size: 4)
                let order = Int32(truncatingIfNeeded: image.section.value(at: start + 4, size: 4))
                let address = image.section.value(at: start + accessorOffset, size: MemoryLayout<UInt>.size)
                let record = "record \(index + 1) of \(image.path)"
                guard version == UInt64(Self.recordVersion) else {
                    problems.append(RouteError.recordOfAnotherVersion(image.path, record: record, version: version))
                    continue
                }
                // The version matched, so this is a RouteModuleRecord: see `ImageSections.accessor(at:)`.
                guard let accessor = ImageSections.accessor(at: UInt(address)) else {
                    problems.append(RouteError.recordWithoutAccessor(image.path, record: record))
                    continue
                }
                guard let module = Self.take(accessor()) else {
                    problems.append(RouteError.recordFromAnotherRouter(image.path, record: record))
                    continue
                }
                made.append((String(reflecting: type(of: module)), order, module))
            }
            // Sorted by type name within the image: the linker's order of a section's records is not a
            // contract.
            for (_, order, module) in made.sorted(by: { $0.name < $1.name }) {
                found.append(
                    DiscoveredModule(
                        module: module, image: image.path, isExecutable: image.isExecutable, order: order))
            }
        }
    }
}

/// A module handed over by ``ModuleDiscovery/export(_:)``, kept until discovery takes it.
private final class ExportedModule: Sendable {
    let module: any RouteModule

    init(_ module: some RouteModule) {
        self.module = module
    }
}

extension [UInt8] {
    /// A little-endian unsigned integer of `size` bytes at `offset`, or 0 past the end.
    fileprivate func value(at offset: Int, size: Int) -> UInt64 {
        guard offset >= 0, offset + size <= count else { return 0 }
        var value: UInt64 = 0
        for index in (0..<size).reversed() { value = value << 8 | UInt64(self[offset + index]) }
        return value
    }
}
