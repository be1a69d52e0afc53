/// Every sentence sealing says: the problems the validator finds in a set of registrations, and the
/// failures of `seal()`, `warmUp()` and a `withOverrides` layer that does not validate. The tests in
/// `ValidationTests`, `ValidatorTests` and `ErrorMessageTests` pin the exact texts.
extension RouteError {
    /// Sealing found problems; `report` lists every one.
    static func sealingFailed(_ report: ValidationReport) -> RouteError {
        RouteError(
            .validationFailed, key: "RouteRegistry",
            reason: "Sealing found \(report.description)")
    }

    /// The registrations of a `withOverrides` block have problems; `report` lists every one.
    static func overridesInvalid(_ report: ValidationReport) -> RouteError {
        RouteError(
            .validationFailed, key: "RouteRegistry", reason: "The overrides have \(report.description)")
    }

    /// `seal()` called from a factory that runs while the same registry is sealing (an eager singleton's).
    static func sealInProgress() -> RouteError {
        RouteError(
            .sealInProgress, key: "RouteRegistry",
            reason: "seal() was called while the registry was already sealing.",
            hint: "Do not seal from an eager singleton's factory; the registry seals once.")
    }

    /// A child registry sealed or validated while its parent is not sealed.
    static func parentNotSealed() -> RouteError {
        RouteError(
            .notSealed, key: "RouteRegistry", reason: "The parent registry is not sealed.",
            hint: "Seal the parent before making or sealing a child registry.")
    }

    /// Sealing built the eager singleton `entry`, and its build failed with `error`.
    static func eagerSingletonFailed(_ entry: AnyEntry, _ error: RouteError) -> RouteError {
        RouteError(
            error.code, key: error.key, path: error.path,
            reason: "Sealing built the eager singleton \(entry.key.full), and it failed: \(error.reason)",
            hint: error.hint ?? "The registry stays open; fix the factory and seal again.",
            underlyingError: error.underlyingError)
    }

    /// `warmUp()` could not build some async eager singletons; `failures` lists each build's error.
    static func warmUpFailed(_ failures: [RouteError]) -> RouteError {
        let listed = failures.map { "- \($0.description)" }.joined(separator: "\n")
        return RouteError(
            .validationFailed, key: "RouteRegistry",
            reason:
                "warmUp() could not build \(failures.count) eager singleton\(failures.count == 1 ? "" : "s"):\n\(listed)",
            hint: "Fix the factories and call warmUp() again; the singletons that were built are kept.")
    }
}

// MARK: Identifiers, configurations and repeated keys

extension RouteError {
    /// One identifier claimed by several registrations, `entries`.
    static func duplicateIdentifier(_ identifier: String, registeredBy entries: [AnyEntry]) -> RouteError {
        let names = entries.map { "\($0.key.full) from \($0.owner)" }.joined(separator: " and ")
        return RouteError(
            .duplicateIdentifier, key: "\"\(identifier)\"",
            reason:
                "The identifier \"\(RouteError.displayable(identifier))\" is registered \(entries.count) times: \(names).",
            hint: "Give each router its own identifier.")
    }

    /// A module registration whose configuration class does not adopt its key's configuration protocol.
    static func registeredConfigurationDoesNotConform(_ entry: AnyEntry) -> RouteError {
        let made = entry.makeConfigurationObject().map { TypeName.of(type(of: $0)) } ?? "?"
        return RouteError(
            .destinationTypeMismatch, key: entry.key.full,
            reason:
                "The configuration \(made) registered for \(entry.key.full) does not conform to \(entry.configurationType() ?? "its protocol").",
            hint: "Make \(made) adopt the configuration protocol.")
    }

    /// Several registrations of one key, `defaults`, marked as the default. `first` is the key's first
    /// registration; `filedUnderItsKey` is false when the table filed it under another key (a hash collision).
    static func severalDefaults(_ defaults: [AnyEntry], of first: AnyEntry, filedUnderItsKey: Bool) -> RouteError {
        let names = defaults.map { "\($0.destinationType) from \($0.owner)" }.joined(separator: ", ")
        return RouteError(
            .ambiguousRegistration, key: filedUnderItsKey ? first.key.full : "?",
            reason: "\(first.key.full) has \(defaults.count) registrations marked as the default: \(names).",
            hint: "Mark exactly one with .asDefault().")
    }

    /// Registered names `texts` of one protocol whose 64-bit hashes are equal; `first` is one registration.
    static func namesWithTheSameHash(_ texts: [String], of first: AnyEntry) -> RouteError {
        let quoted = texts.map { "\"\(RouteError.displayable($0))\"" }.joined(separator: " and ")
        return RouteError(
            .ambiguousRegistration, key: first.key.full,
            reason:
                "The names \(quoted) of \(TypeName.of(first.key.type)) have the same 64-bit hash, so the table cannot keep their registrations apart.",
            hint: "Rename one of them.")
    }

    /// A key registered several times by mistake: `sameKey`, registrations of `first`'s key with the same
    /// argument types, none the default.
    static func registeredByMistake(_ sameKey: [AnyEntry], key first: AnyEntry) -> RouteError {
        let sites = sameKey.map(\.owner).joined(separator: " and ")
        let takes = sameKey[0].argumentTypes.map { " taking \(TypeName.arguments($0))" } ?? ""
        return RouteError(
            .ambiguousRegistration, key: first.key.full,
            reason:
                "\(first.key.full) is registered \(sameKey.count) times\(takes), by \(sites): a lookup of it is ambiguous.",
            hint:
                "Remove the one made by mistake, or mark the one a lookup gets with .asDefault(); a key meant to have many (makeDestinations(to:)) marks each with .oneOfMany(). Registering a key again adds a registration, it does not replace one: to replace one for a test or a variant of the app, use withOverrides or a child registry (RouteRegistry(parent:))."
        )
    }

    /// A registration claimed exclusively, `exclusive`, whose key `others` serve too.
    static func notExclusive(_ exclusive: AnyEntry, alsoServedBy others: [AnyEntry]) -> RouteError {
        let names = others.map { "\($0.key.full) from \($0.owner)" }.joined(separator: ", ")
        return RouteError(
            .exclusiveRegistration, key: exclusive.key.full,
            reason:
                "\(exclusive.key.full) is registered exclusively by \(exclusive.owner), but is also served by \(names).",
            hint: "Remove the other registrations, or drop .exclusive().")
    }

    /// A module that requires `required`, a module that was not loaded before sealing.
    static func requiredModuleNotLoaded(_ module: String, requires required: Any.Type) -> RouteError {
        let name = TypeName.of(required)
        return RouteError(
            .unregisteredKey, key: name,
            reason: "\(module) requires the module \(name), which was not loaded.",
            hint: "Load \(name) before sealing.")
    }
}

// MARK: Declared dependencies

extension RouteError {
    /// An adapter registered for `entry` whose target, `target`, has no router.
    static func adapterWithoutTarget(_ entry: AnyEntry, target: KeyDescription) -> RouteError {
        RouteError(
            .unregisteredKey, key: target.full, path: [entry.key.short, target.short],
            reason:
                "The adapter from \(entry.key.full) to \(target.full) has no target: \(target.full) has no router.",
            hint: "Load the module that provides \(target.full), or remove the adapter.")
    }

    /// A declared dependency of `entry` on a key with no router.
    static func missingDependency(_ entry: AnyEntry, _ dependency: RouteDependency) -> RouteError {
        RouteError(
            .unregisteredKey, key: dependency.key.full, path: [entry.key.short, dependency.key.short],
            reason: "\(entry.key.full) from \(entry.owner) depends on \(dependency.key.full), which has no router.",
            hint: missingDependencyHint(dependency))
    }

    /// What to do about a dependency with no router: register it; but an auto-wired initializer parameter of
    /// a value type (a `String`, a number, a struct) is not a service anyone registers, and takes a runtime
    /// argument or a `wiring:` key instead.
    private static func missingDependencyHint(_ dependency: RouteDependency) -> String {
        let key = dependency.key
        guard dependency.kind == .initializer, dependency.isLookedUpWithoutArguments, key.qualifier == .none,
            TypeShape.isValue(key.type)
        else { return "Register \(key.full), or load the module that does." }
        let type = TypeName.of(key.type)
        return
            "\(type) is a value, not a service: an auto-wired initializer looks each parameter up by its type's key. Pass it at each lookup as a runtime argument (register(_:arguments:) with a closure factory, makeDestination(to:arguments:)), or register the initializer with wiring: and give that parameter a named or tagged key (wiring: .key(.someKey.named(\"…\")), …) registered to make it."
    }

    /// A dependency the library looks up without arguments, on a key whose every registration, `candidates`,
    /// takes some.
    static func dependencyTakesArguments(
        _ entry: AnyEntry, _ dependency: RouteDependency, _ candidates: [AnyEntry]
    ) -> RouteError {
        var lists: [String] = []
        for candidate in candidates {
            guard let types = candidate.argumentTypes else { continue }
            let list = TypeName.arguments(types)
            if !lists.contains(list) { lists.append(list) }
        }
        let sites = candidates.map(\.owner).joined(separator: " and ")
        return RouteError(
            .argumentMismatch, key: dependency.key.full, path: [entry.key.short, dependency.key.short],
            reason:
                "\(entry.key.full) from \(entry.owner) looks up \(dependency.key.full) without arguments, but it takes the arguments \(lists.joined(separator: " or ")) (registered at \(sites)).",
            hint:
                "Register \(dependency.key.full) without arguments as well, or write the factory as a closure that passes them: r.resolve(.key, arguments: …)."
        )
    }

    /// A declared dependency on a key with several registrations, `candidates`, and no default.
    static func ambiguousDependency(
        _ entry: AnyEntry, _ dependency: RouteDependency, _ candidates: [AnyEntry]
    ) -> RouteError {
        let names = candidates.map { "from \($0.owner)" }.joined(separator: " and ")
        return RouteError(
            .ambiguousRegistration, key: dependency.key.full,
            path: [entry.key.short, dependency.key.short],
            reason:
                "\(entry.key.full) depends on \(dependency.key.full), which has \(candidates.count) registrations (\(names)) and no default.",
            hint: RouteError.severalRegistrationsHint)
    }

    /// A cycle of declared initializer (and many) dependencies: `names` from its first registration to the
    /// same again, closed by `next`.
    static func initializerCycle(_ names: [String], closedBy next: AnyEntry) -> RouteError {
        RouteError(
            .circularDependency, key: next.key.full, path: names,
            reason:
                "Circular dependency: \(names.joined(separator: " → ")) is made only of initializer dependencies, so none of them can be built.",
            hint:
                "Inject one edge after creation (.injecting or .preparing), or through Lazy or Provider."
        )
    }
}

// MARK: Lifetimes

extension RouteError {
    /// A shared instance, `entry`, depending on a shorter-lived one, `target` (graph-, request- or
    /// custom-scoped, or supplied per request scope).
    static func captiveDependency(_ entry: AnyEntry, on target: AnyEntry) -> RouteError {
        RouteError(
            .captiveDependency, key: entry.key.full, path: [entry.key.short, target.key.short],
            reason:
                "\(entry.key.full) is \(entry.scope.phrase) but depends on \(target.key.full), which is \(target.scope.phrase): it would keep one \(target.key.short) for longer than that scope lasts.",
            hint:
                "Give \(entry.key.short) a scope that lasts no longer than \(target.key.short)'s, or depend on a Provider of \(target.key.short)."
        )
    }

    /// A singleton that is not resettable, `entry`, depending on a resettable one, `target`.
    static func resettableCaptive(_ entry: AnyEntry, on target: AnyEntry) -> RouteError {
        RouteError(
            .captiveDependency, key: entry.key.full, path: [entry.key.short, target.key.short],
            reason:
                "\(entry.key.full) is \(entry.scope.phrase) but depends on \(target.key.full), which is a resettable singleton: it would keep the old \(target.key.short) after resetSingletons().",
            hint:
                "Make \(entry.key.short) .resettable() too (a reset of \(target.key.short) then resets it), or depend on a Provider of \(target.key.short)."
        )
    }

    /// A teardown declared on `entry`, a registration that is not a singleton or an eager singleton.
    static func teardownWithoutSingleton(_ entry: AnyEntry) -> RouteError {
        RouteError(
            .teardownWithoutSingleton, key: entry.key.full, path: [entry.key.short],
            reason:
                "\(entry.key.full) from \(entry.owner) declares a teardown but is \(entry.scope.phrase): shutdown() tears down only singletons, so it would never run.",
            hint:
                "Make \(entry.key.short) .scope(.singleton) or .scope(.eagerSingleton), or remove .teardown and release the instance where it is used."
        )
    }
}

// MARK: Async factories and the main actor

extension RouteError {
    /// An async factory registered with a scope that async factories do not support.
    static func unsupportedAsyncScope(_ entry: AnyEntry) -> RouteError {
        RouteError(
            .asyncOnly, key: entry.key.full,
            reason:
                "\(entry.key.full) has an async factory and the scope \(entry.scope), which async factories do not support.",
            hint: "Use transient, graph, singleton, eagerSingleton or request for async factories.")
    }

    /// A synchronous factory or preparation of `entry` that declares `dependency`, an edge to `target`, a key
    /// with only an async factory.
    static func synchronousEdgeToAsyncOnly(
        _ entry: AnyEntry, _ dependency: RouteDependency, to target: AnyEntry
    ) -> RouteError {
        let edge = dependency.kind == .initializer ? "synchronous factory" : "preparation (synchronous)"
        return RouteError(
            .asyncOnly, key: target.key.full, path: [entry.key.short, target.key.short],
            reason:
                "\(entry.key.full) from \(entry.owner) needs \(target.key.full) in its \(edge), but \(target.key.full) has only an async factory: every lookup of \(entry.key.short) would fail with asyncOnly.",
            hint:
                "Register \(entry.key.short) with registerAsync and resolve it with resolveAsync(_:); or make \(target.key.short) .scope(.eagerSingleton) and call try await registry.warmUp() after seal(), which builds it at start-up."
        )
    }

    /// A synchronous eager singleton, `dependent`, that needs `target`, an async eager singleton of the same
    /// registry; `path` leads from `dependent` to the registration that needs `target`.
    static func synchronousEagerNeedsAsyncEager(
        _ dependent: AnyEntry, needs target: AnyEntry, path: [AnyEntry]
    ) -> RouteError {
        RouteError(
            .asyncOnly, key: dependent.key.full, path: (path + [target]).map(\.key.short),
            reason:
                "\(dependent.key.full) from \(dependent.owner) is a synchronous eager singleton, which seal() builds, but it needs \(target.key.full), an async eager singleton, which only warmUp() builds, after seal(): sealing would fail.",
            hint:
                "Make \(dependent.key.short) .scope(.singleton), built by its first lookup after warmUp(); or register it with registerAsync as an eager singleton, which warmUp() builds with \(target.key.short)."
        )
    }

    /// `entry`, made on the main actor, registered as an eager singleton, which sealing builds.
    static func eagerOnTheMainActor(_ entry: AnyEntry) -> RouteError {
        RouteError(
            .mainActorRequired, key: entry.key.full, path: [entry.key.short],
            reason:
                "\(entry.key.full) is made on the main actor, but is an eager singleton, which sealing builds off the main actor.",
            hint:
                "Use .scope(.singleton): it is built once, by the first lookup, which main-actor code makes synchronously."
        )
    }

    /// `dependent`, an eager singleton, needs `target`, made on the main actor, built with it; `path` leads
    /// from `dependent` to the registration that needs `target`, and the message shows it.
    static func builtOffTheMainActor(
        _ dependent: AnyEntry, needs target: AnyEntry, path: [AnyEntry]
    ) -> RouteError {
        RouteError(
            .mainActorRequired, key: dependent.key.full, path: path.map(\.key.short) + [target.key.short],
            reason:
                "\(dependent.key.full) is built off the main actor (an eager singleton, built while sealing), but needs \(target.key.full), which is made on the main actor, so it can never be built.",
            hint:
                "Register \(dependent.key.short) with registerOnMainActor and a scope other than eagerSingleton, or give it a Lazy or Provider of \(target.key.short) (declared as .lazy) and read that on the main actor."
        )
    }
}

// MARK: Path patterns

extension RouteError {
    /// A mistake in the text of `pattern`, one of its ``PathPattern/problems``.
    static func pathPatternProblem(_ pattern: PathPattern, _ problem: PathPattern.Problem) -> RouteError {
        RouteError(.invalidPath, key: "\"\(pattern.text)\"", reason: problem.reason, hint: problem.hint)
    }

    /// One path pattern registered twice: for `first`, then for `route`.
    static func pathPatternRegisteredTwice(_ first: PathRoute, _ route: PathRoute) -> RouteError {
        RouteError(
            .duplicateIdentifier, key: "\"\(route.pattern.text)\"",
            reason:
                "The path pattern \"\(route.pattern.text)\" is registered twice: for \(first.target.full) from \(first.owner) and for \(route.target.full) from \(route.owner).",
            hint: "Give each route its own pattern.")
    }

    /// Two path patterns, `first`'s and `route`'s, written differently but matching the same paths.
    static func pathPatternsMatchTheSamePaths(_ first: PathRoute, _ route: PathRoute) -> RouteError {
        RouteError(
            .duplicateIdentifier, key: "\"\(route.pattern.text)\"",
            reason:
                "The path patterns \"\(first.pattern.text)\" (for \(first.target.full) from \(first.owner)) and \"\(route.pattern.text)\" (for \(route.target.full) from \(route.owner)) match the same paths.",
            hint: "Make the literal segments or the parameter types differ, or remove one of them.")
    }

    /// A path pattern that routes to a key with no router.
    static func pathTargetUnregistered(_ route: PathRoute) -> RouteError {
        RouteError(
            .unregisteredKey, key: route.target.full,
            reason:
                "The path pattern \"\(route.pattern.text)\" routes to \(route.target.full), which has no router.",
            hint: "Register \(route.target.full), or load the module that does.")
    }
}
