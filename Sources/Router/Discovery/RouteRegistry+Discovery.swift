extension RouteRegistry {
    /// Makes a registry from the modules discovery found and the modules given, and seals it.
    ///
    /// The discovered modules load first, in ``ModuleDiscovery``'s order, then `modules` in the order given.
    /// Each discovered module's registrations carry its name (see ``DiscoveredModule/name``), so that
    /// sealing's report names the library a registration came from.
    ///
    /// ```swift
    /// let registry = try RouteRegistry(discovering: .loadedImages(), modules: [WiringModule()])
    /// ```
    /// - Parameters:
    ///   - discovery: The modules found; its ``ModuleDiscovery/problems`` are the caller's to report.
    ///   - modules: Modules to load after the discovered ones.
    ///   - parent: A sealed registry whose routers this one inherits and may override.
    ///   - maxDepth: The deepest chain of nested lookups allowed (default 1,000).
    /// - Throws: ``RouteError`` with code ``RouteError/Code/validationFailed`` listing every problem found,
    ///   a discovered module whose `register(in:)` threw among them.
    public convenience init(
        discovering discovery: ModuleDiscovery, modules: [any RouteModule] = [], parent: RouteRegistry? = nil,
        maxDepth: Int = 1_000
    ) throws {
        self.init(parent: parent, maxDepth: maxDepth)
        for found in discovery.modules { try load(found) }
        for module in modules { try load(module) }
        try seal()
    }

    /// Loads a discovered module, under its ``DiscoveredModule/name``.
    ///
    /// When its `register(in:)` throws, the error does not stop the loading of other modules: it becomes a
    /// line of sealing's report (code ``RouteError/Code/validationFailed``) naming the module and its image.
    /// - Parameter discovered: A module ``ModuleDiscovery`` found.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed.
    public func load(_ discovered: DiscoveredModule) throws {
        let name = discovered.name
        do {
            try load(discovered.module, named: name)
        } catch let error as RouteError where error.code == .registrationAfterSeal || error.code == .sealInProgress {
            throw error
        } catch {
            let problem = RouteError.discoveredModuleFailed(name, in: discovered.image, error)
            withAssembly { $0.loadProblems.append(problem) }
        }
    }
}
