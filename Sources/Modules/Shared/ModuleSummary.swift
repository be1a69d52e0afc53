import Router

/// What a module provides and what it looks up, for the demo's `graph` command.
///
/// Router cannot export its graph yet, so each module describes itself by hand.
public struct ModuleSummary: Sendable, Equatable {
    /// One key a module registers, with the scope it is registered in.
    public struct Provided: Sendable, Equatable {
        /// The key as Router prints it, e.g. `RoutableService<any Catalog>`.
        public let key: String
        /// The scope's name, e.g. `singleton`.
        public let scope: String

        /// Makes an entry.
        /// - Parameters:
        ///   - key: The key's description.
        ///   - scope: The scope's description.
        public init(key: String, scope: String) {
            self.key = key
            self.scope = scope
        }
    }

    /// The module's name, e.g. `CatalogModule`.
    public let name: String
    /// The keys the module registers.
    public let provides: [Provided]
    /// The keys the module's factories look up.
    public let uses: [String]

    /// Makes a summary.
    /// - Parameters:
    ///   - name: The module's name.
    ///   - provides: The keys it registers.
    ///   - uses: The keys it looks up.
    public init(name: String, provides: [Provided], uses: [String]) {
        self.name = name
        self.provides = provides
        self.uses = uses
    }
}

/// A route module that can describe itself for the graph.
public protocol DescribedModule: RouteModule {
    /// What the module provides and uses.
    var summary: ModuleSummary { get }
}
