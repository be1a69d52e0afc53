import Synchronization

/// One registration, as the sealed registry holds it. Immutable once made.
@usableFromInline
class AnyEntry: @unchecked Sendable {
    // @unchecked: every stored property is a `let` set in the initializer (the subclass's too), and the
    // shared cells it points to synchronise themselves.
    let id: KeyID
    /// The registration's serial number, given from a process-wide counter when it is made and never to
    /// another registration (a 64-bit count does not wrap). A request scope files its instances under it,
    /// not under the entry's address: an override block's registrations are freed when the block ends and
    /// their addresses reused, while the scope still holds their cells.
    @usableFromInline
    let serial: UInt64
    /// The last serial number given.
    private static let serials = Atomic<UInt64>(0)
    @usableFromInline
    let key: KeyDescription
    @usableFromInline let scope: Scope
    /// `scope.isShared`, kept here so that the lookup reads a flag of the entry it already holds.
    @usableFromInline let isShared: Bool
    let order: Int
    let dependencies: [RouteDependency]
    let isDefault: Bool
    let destinationMetatype: Any.Type
    /// The destination's type as it reads in messages; built on demand (see ``KeyDescription``).
    var destinationType: String { TypeName.of(destinationMetatype) }
    /// Where the registration was made: its module, file and line.
    let site: RegistrationSite
    /// Where the registration was made, as messages name it: `CarModule (Cars.swift:12)`.
    var owner: String { site.description }
    /// Whether the factory runs on the main actor (``RouteRegistry/registerOnMainActor(_:file:line:factory:)``).
    let isMainActor: Bool
    /// What few registrations have, kept out of line: nil when the registration has none of it, so that
    /// a plain registration stores, copies and releases none of these fields.
    @usableFromInline let options: Options?
    /// A string under which the destination can also be looked up.
    var identifier: String? { options?.identifier }
    /// For module entries: whether a fresh configuration adopts the key's configuration protocol.
    var configurationConforms: (@Sendable () -> Bool)? { options?.configurationConforms }
    /// For registrations that take runtime arguments: their types, as a tuple type.
    var argumentTypes: Any.Type? { options?.argumentTypes }
    /// For registrations that take runtime arguments: their types one by one, which a lookup's are
    /// compared with (no tuple type is made per lookup).
    var argumentList: ArgumentList? { options?.argumentList }
    /// Whether the registration takes runtime arguments of exactly `given`'s types, read in place (the
    /// argument lookup's fast path tests it inline).
    /// Final: a class method is called through the vtable from another module, whatever its inlining
    /// attributes, and the fast path reads it in the caller's (specialised) code.
    @inlinable @inline(__always)
    final func takesArguments(_ given: ArgumentList) -> Bool { options?.argumentList?.matches(given) ?? false }
    /// For adapters: the provided key the required key is joined to.
    var adapterTarget: KeyDescription? { options?.adapterTarget }
    /// Whether no other registration may serve this key's protocol.
    let isExclusive: Bool
    /// Whether the registration is meant as one of several for its key (``Registration/oneOfMany()``), so
    /// that sealing does not take the others for registrations made by mistake.
    let isOneOfMany: Bool
    /// Whether made objects need a preparation step after the factory (injections or a finish hook).
    @usableFromInline let needsPreparation: Bool
    /// Transient with nothing to prepare: the lookup can run the factory straight away.
    @usableFromInline let isPlainTransient: Bool

    init(
        id: KeyID, key: KeyDescription, scope: Scope, order: Int, dependencies: [RouteDependency],
        identifier: String?, isDefault: Bool, destinationType: Any.Type, site: RegistrationSite,
        needsPreparation: Bool, configurationConforms: (@Sendable () -> Bool)?, argumentTypes: Any.Type?,
        adapterTarget: KeyDescription?, isExclusive: Bool, isMainActor: Bool, isOneOfMany: Bool = false,
        argumentList: ArgumentList? = nil
    ) {
        self.id = id
        self.serial = AnyEntry.serials.wrappingAdd(1, ordering: .relaxed).newValue
        self.key = key
        self.scope = scope
        self.isShared = scope.isShared
        self.order = order
        self.dependencies = dependencies
        self.isDefault = isDefault
        self.destinationMetatype = destinationType
        self.site = site
        self.isMainActor = isMainActor
        self.needsPreparation = needsPreparation
        self.isPlainTransient = scope.kind == .transient && !needsPreparation
        if identifier != nil || configurationConforms != nil || argumentTypes != nil || adapterTarget != nil {
            self.options = Options(
                identifier: identifier, configurationConforms: configurationConforms, argumentTypes: argumentTypes,
                argumentList: argumentList, adapterTarget: adapterTarget)
        } else {
            self.options = nil
        }
        self.isExclusive = isExclusive
        self.isOneOfMany = isOneOfMany
    }

    /// The less common parts of a registration (see `options`).
    @usableFromInline
    final class Options: @unchecked Sendable {
        // @unchecked: every stored property is a `let`; the closure is `@Sendable`.
        let identifier: String?
        let configurationConforms: (@Sendable () -> Bool)?
        let argumentTypes: Any.Type?
        @usableFromInline let argumentList: ArgumentList?
        let adapterTarget: KeyDescription?

        init(
            identifier: String?, configurationConforms: (@Sendable () -> Bool)?, argumentTypes: Any.Type?,
            argumentList: ArgumentList?, adapterTarget: KeyDescription?
        ) {
            self.identifier = identifier
            self.configurationConforms = configurationConforms
            self.argumentTypes = argumentTypes
            self.argumentList = argumentList
            self.adapterTarget = adapterTarget
        }
    }

    deinit {
        // A registration that goes away (with its child registry or override layer) takes its instance out
        // of the custom scope it lived in.
        scope.customScope?.forget(ObjectIdentifier(self))
    }

    /// Builds a destination whose type the caller does not know statically (identifier lookups,
    /// eager singletons at sealing).
    func buildErased(_ resolver: inout Resolver) throws -> Any {
        throw RouteError.entryWithoutFactory(self)
    }

    /// ``buildErased(_:)`` in an async lookup (async eager singletons at `warmUp()`).
    nonisolated(nonsending) func buildAsyncErased(_ resolver: inout Resolver) async throws -> Any {
        throw RouteError.entryWithoutFactory(self)
    }

    /// ``buildErased(_:)`` with the input its factory takes: a module's configuration.
    func buildErased(_ resolver: inout Resolver, input: AnyObject?) throws -> Any {
        try buildErased(&resolver)
    }

    /// ``buildAsyncErased(_:)`` with the input its factory takes: a module's configuration.
    nonisolated(nonsending) func buildAsyncErased(_ resolver: inout Resolver, input: AnyObject?) async throws -> Any {
        try await buildAsyncErased(&resolver)
    }

    /// A copy of a shared registration with empty cells, whatever exists now; nil when not shared. For a
    /// layer in which every shared instance is built anew (``RouteRegistry/makeEachRegistration(supplying:)``).
    func freshCopy() -> AnyEntry? { nil }

    /// The registrations of the other keys this one serves; made at sealing (see ``filed(_:)``).
    func alsoEntries() -> [AnyEntry] { [] }

    /// `entries` as a table files them: each registration followed by the registrations of the other keys it
    /// serves (``Registration/also(_:)``), so that every key's registrations keep registration order, however
    /// each was reached. `entries` itself when none serves another key.
    static func filed(_ entries: [AnyEntry]) -> [AnyEntry] {
        var filed: [AnyEntry] = []
        var expanded = false
        for position in entries.indices {
            let entry = entries[position]
            let also = entry.alsoEntries()
            if !expanded {
                if also.isEmpty { continue }
                // The first registration serving another key: copy those before it, then go on appending.
                expanded = true
                filed.reserveCapacity(entries.count + also.count)
                filed.append(contentsOf: entries[..<position])
            }
            filed.append(entry)
            filed.append(contentsOf: also)
        }
        return expanded ? filed : entries
    }

    /// Whether the registry that holds this registration also holds its shared instance, for every registry
    /// that inherits it: a singleton (eager or not), a weak singleton, a custom-scoped registration. (A
    /// request-scoped instance lives in its request scope, a supplied value is the request's.) Such an
    /// instance is built from the registrations of the table that holds the registration, whichever child
    /// registry asks for it first (see ``Resolver/inheritedOwner(of:)``).
    var isHeldByItsTable: Bool {
        switch scope.kind {
        case .singleton, .eagerSingleton, .weakSingleton, .custom: return true
        case .transient, .graph, .request, .supplied: return false
        }
    }

    /// Whether the registration has an async factory.
    var isAsync: Bool { false }

    /// The registration as an override layer sees it: nil when the layer shares it as it is (not shared,
    /// or a singleton already built, which never changes), else a copy with cells of its own, seeded with
    /// the instance that exists now (a live weak instance, the current custom-scope instance). What the
    /// copy builds (after a release or a reset inside the override) stays in the layer.
    func overrideCopy() -> AnyEntry? { nil }

    /// Makes the configuration object for module entries; nil for plain services.
    func makeConfigurationObject() -> AnyObject? { nil }

    /// For module entries: whether a configuration object can be offered to callers as `type`.
    func configurationType() -> String? { nil }
}
