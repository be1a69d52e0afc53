/// Every sentence module discovery says: about plugin directories and libraries, the records a library
/// declares its modules with, and a discovered module that fails to register. Each is a
/// ``ModuleDiscovery/problems`` entry or a load problem sealing reports; the tests in `DiscoveryTests` and
/// `PluginTests` pin the exact texts.
extension RouteError {
    /// Discovery asked for in a build that cannot read module records.
    static func discoveryUnavailable() -> RouteError {
        RouteError(
            .discoveryUnavailable, key: "ModuleDiscovery",
            reason:
                "Module discovery is unavailable in this build: it needs Swift 6.3's @section and @used, on Linux or an Apple platform.",
            hint: "Pass the modules explicitly: RouteRegistry(modules:).")
    }

    /// A module found in `image`, named `name`, whose `register(in:)` threw `error` (not a sealing error).
    static func discoveredModuleFailed(_ name: String, in image: String, _ error: any Error) -> RouteError {
        let reason = (error as? RouteError)?.description ?? String(describing: error)
        return RouteError(
            .factoryFailed, key: name,
            reason: "\(name), found in \(image), threw while registering: \(reason)",
            hint: "Fix its register(in:), or remove the library it is in.", underlyingError: error)
    }
}

// MARK: Plugins

extension RouteError {
    /// A plugin directory given by a relative path.
    static func pluginDirectoryNotAbsolute(_ directory: String) -> RouteError {
        RouteError(
            .pluginLoadFailed, key: directory,
            reason: "The plugin directory \"\(directory)\" is not an absolute path.",
            hint:
                "Name the directory by its absolute path; plugins are never looked up relative to the working directory."
        )
    }

    /// A plugin directory that does not exist or cannot be read.
    static func pluginDirectoryUnreadable(_ directory: String) -> RouteError {
        RouteError(
            .pluginLoadFailed, key: directory,
            reason: "The plugin directory \"\(directory)\" does not exist or cannot be read.",
            hint: "Create it, or build the plugin into it, before starting the app.")
    }

    /// A plugin library that `dlopen` could not load, saying `failure`.
    static func pluginNotLoaded(_ path: String, failure: String) -> RouteError {
        RouteError(
            .pluginLoadFailed, key: path,
            reason: "The plugin \(path) could not be loaded: \(failure)",
            hint: "Check that it is a library built for this platform against this app's Router.")
    }

    /// A plugin library that declares no module record.
    static func pluginDeclaresNoModule(_ path: String) -> RouteError {
        RouteError(
            .pluginLoadFailed, key: path,
            reason: "The plugin \(path) declares no module.",
            hint: "Declare each module with a RouteModuleRecord in the section \(ModuleDiscovery.sectionName).")
    }

    /// A file of a plugin directory, named like a library, that is not a regular file (`kind` says what it
    /// is: a named pipe, a directory): never opened, since opening a pipe waits for a writer.
    static func pluginNotARegularFile(_ path: String, kind: String) -> RouteError {
        RouteError(
            .pluginLoadFailed, key: path,
            reason: "The plugin \(path) is not a library: it is \(kind), not a regular file.",
            hint: "Only regular files, or symbolic links to them, are loaded; move it out of the plugin directory.")
    }
}

// MARK: Module records

extension RouteError {
    /// The records of `image` could not be read at all: `problem` says why.
    static func recordsNotRead(_ image: String, problem: String) -> RouteError {
        RouteError(
            .invalidModuleRecord, key: image,
            reason: "The records of \(image) were not read: \(problem).",
            hint: "Restart the app after replacing a library it has loaded.")
    }

    /// The record section of `image`, `length` bytes long, is not a whole number of `stride`-byte records.
    static func recordSectionNotWhole(_ image: String, length: Int, stride: Int) -> RouteError {
        RouteError(
            .invalidModuleRecord, key: image,
            reason:
                "Its section \(ModuleDiscovery.sectionName) is \(length) bytes long, not a whole number of \(stride)-byte records.",
            hint: "Place only RouteModuleRecord values in that section.")
    }

    /// A record of `image`, described as `record` ("record 2 of …"), written for another `version`.
    static func recordOfAnotherVersion(_ image: String, record: String, version: UInt64) -> RouteError {
        RouteError(
            .invalidModuleRecord, key: image,
            reason: "The \(record) has version \(version); this Router reads version \(ModuleDiscovery.recordVersion).",
            hint:
                "Rebuild the library against this app's Router, writing \(ModuleDiscovery.recordVersion) as the record's version."
        )
    }

    /// A record of `image`, described as `record`, whose accessor is missing.
    static func recordWithoutAccessor(_ image: String, record: String) -> RouteError {
        RouteError(
            .invalidModuleRecord, key: image,
            reason: "The \(record) has no accessor.",
            hint: "Give the record a closure that returns ModuleDiscovery.export(YourModule()).")
    }

    /// A record of `image`, described as `record`, whose module another copy of Router made.
    static func recordFromAnotherRouter(_ image: String, record: String) -> RouteError {
        RouteError(
            .invalidModuleRecord, key: image,
            reason: "The \(record) made its module with another copy of Router, which this one cannot read.",
            hint:
                "Link the library against the app's own Router (see \"Modules that find themselves\") and return ModuleDiscovery.export(YourModule()) from the accessor."
        )
    }
}
