/// A group of registrations that belong together: one feature's routers (Swinject calls it an Assembly).
///
/// ```swift
/// struct CatalogModule: RouteModule {
///     func register(in registry: RouteRegistry) throws {
///         try registry.register(.catalog) { _ in Catalog() }.scope(.singleton)
///     }
/// }
/// let registry = try RouteRegistry(modules: [CatalogModule(), CartModule()])
/// ```
public protocol RouteModule: Sendable {
    /// Modules that must be loaded into the same registry (or a parent) for this one to work.
    /// Sealing reports every missing one.
    var requiredModules: [any RouteModule.Type] { get }

    /// Registers the module's routers.
    /// - Parameter registry: The registry being assembled.
    /// - Throws: ``RouteError`` when the registry is already sealed.
    func register(in registry: RouteRegistry) throws
}

extension RouteModule {
    /// No required modules.
    public var requiredModules: [any RouteModule.Type] { [] }
}
