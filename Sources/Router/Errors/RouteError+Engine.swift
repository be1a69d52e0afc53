/// Every sentence the lookup engine says, in one place so that its wording is reviewed together. The
/// tests in `ErrorMessageTests` and `ReliabilityMisuseCatalogTests` pin the exact texts.
extension RouteError {
    /// A warning: a child registry registers `registered`'s key, on which `shared`, a parent's registration
    /// whose instance the parent holds, depends; the parent's instance never sees the child's registration.
    static func overrideNotSeenByParent(_ registered: AnyEntry, by shared: AnyEntry) -> RouteError {
        RouteError(
            .overrideNotSeenByParent, key: registered.key.full,
            reason:
                "\(registered.key.full) is registered in this child registry, but the parent's \(shared.key.full), which is \(shared.scope.phrase), depends on it: its shared instance is built with the parent's \(registered.key.full), never this registry's.",
            hint:
                "Register \(shared.key.full) in this child registry too if the child needs one built with its own \(registered.key.full)."
        )
    }

    /// An initializer-only cycle: `cycle` from the object first needed to the same object again.
    static func circular(_ cycle: [String], entry: AnyEntry) -> RouteError {
        RouteError(
            .circularDependency, key: entry.key.full, path: cycle,
            reason:
                "Circular dependency: \(cycle.joined(separator: " → ")) cannot be built, because \(cycle.last ?? "") is needed before its initializer has returned.",
            hint:
                "Inject one edge of the cycle after creation (.injecting or .preparing), or through Lazy or Provider."
        )
    }

    /// Two lookups on different threads that each need, before an initializer returns, what the other is
    /// building.
    static func circularAcrossThreads(_ entry: AnyEntry, here: [String], there: [String]) -> RouteError {
        RouteError(
            .circularDependency, key: entry.key.full, path: here,
            reason:
                "Circular dependency across threads: this lookup (\(here.joined(separator: " → "))) needs \(entry.key.short), whose initializer is running in a lookup on another thread (\(there.joined(separator: " → "))) that waits for this one.",
            hint:
                "Inject one edge of the cycle after creation (.injecting or .preparing), or through Lazy or Provider."
        )
    }

    /// A lookup whose transaction had merged with one on another thread (their waits formed a cycle),
    /// when the other one failed: nothing the group built is kept.
    static func groupFailed(_ error: any Error) -> RouteError {
        let reason = (error as? RouteError)?.reason ?? "\(error)"
        // The code stays the cause's: a cycle found by one member is a cycle for every member.
        return RouteError(
            (error as? RouteError)?.code ?? .factoryFailed, key: (error as? RouteError)?.key ?? "RouteRegistry",
            path: (error as? RouteError)?.path ?? [],
            reason:
                "A lookup on another thread that shared a cycle of shared instances with this one failed, so neither keeps them: \(reason)",
            hint: "Fix that failure; the next lookup builds the instances again.", underlyingError: error)
    }

    /// The depth guard stopped a build: by the `maxDepth` count, or because the stack is nearly full.
    static func tooDeep(_ entry: AnyEntry, path: [String], maxDepth: Int, stackSize: Int?) -> RouteError {
        let shown = path.count > 8 ? Array(path.prefix(3)) + ["…"] + Array(path.suffix(3)) : path
        guard let stackSize else {
            return RouteError(
                .resolutionTooDeep, key: entry.key.full, path: shown,
                reason: "Resolving \(entry.key.full) went deeper than \(maxDepth) nested lookups.",
                hint: "Raise maxDepth when making the RouteRegistry if the chain is intended.")
        }
        return RouteError(
            .resolutionTooDeep, key: entry.key.full, path: shown,
            reason:
                "Resolving \(entry.key.full) at \(path.count) nested lookups would overflow this thread's stack of \(stackSize / 1_024) KiB.",
            hint:
                "Make such deep lookups on a thread with a larger stack, or cut the chain with Lazy or Provider.")
    }

    /// What a factory, preparation or hook threw, with the key and path it was thrown at.
    static func wrapping(_ error: any Error, _ entry: AnyEntry, stage: String, path: [String]) -> RouteError {
        if let missing = error as? MissingConstructCall {
            return RouteError(
                .invalidConfiguration, key: entry.key.full, path: path,
                reason:
                    "The configuration of \(entry.key.full) is missing the call \(missing.call); no destination was made.",
                hint: "Call \(missing.call) in the configuring closure of makeDestination(to:configuring:).")
        }
        return RouteError(
            .factoryFailed, key: entry.key.full, path: path,
            reason: "The \(stage) of \(entry.key.full) threw: \(error).", underlyingError: error)
    }

    /// A lookup with arguments that several registrations of the key take.
    static func sameArgumentTypes(_ key: KeyDescription, given: ArgumentList, count: Int, path: [String]) -> RouteError
    {
        RouteError(
            .ambiguousRegistration, key: key.full, path: path,
            reason:
                "\(key.full) has \(count) registrations that take the arguments \(given.types), and none is the default.",
            hint:
                "Registrations of one key are told apart by their argument types; for the same types, mark one with .asDefault(), or tag or name the others."
        )
    }

    /// A lookup with arguments that no registration of the key takes.
    static func noRegistrationTakes(
        _ key: KeyDescription, given: ArgumentList, registered: [Any.Type], path: [String]
    ) -> RouteError {
        let lists = registered.map(TypeName.arguments).joined(separator: " or ")
        return RouteError(
            .argumentMismatch, key: key.full, path: path,
            reason: "No registration of \(key.full) takes the arguments \(given.types); they take \(lists).",
            hint: "Pass arguments of exactly one registration's types, in order.")
    }

    /// A custom-scoped registration looked up after its scope was closed.
    static func scopeClosed(_ entry: AnyEntry, path: [String]) -> RouteError {
        RouteError(
            .scopeClosed, key: entry.key.full, path: path,
            reason:
                "\(entry.key.full) lives in \(entry.scope.customScope?.description ?? "a custom scope"), which was closed.",
            hint: "Create a new CustomScope for a new session; reset() empties a scope without closing it.")
    }

    /// How many builds in a row of a resettable singleton a lookup makes while resets release their
    /// generation, before it gives up with ``releasedDuringEveryBuild(_:path:)``.
    @usableFromInline
    static let generationAttempts = 16

    /// A lookup of a resettable singleton each of whose builds a reset released before it was published
    /// (a factory or preparation that resets its own registration with a teardown, every time).
    @usableFromInline
    static func releasedDuringEveryBuild(_ entry: AnyEntry, path: [String]) -> RouteError {
        RouteError(
            .scopeClosed, key: entry.key.full, path: path,
            reason:
                "resetSingletons() released \(entry.key.full)'s generation during each of \(generationAttempts) builds in a row, so each instance built was torn down and none is served.",
            hint:
                "Do not reset \(entry.key.short) from its own factory or preparation; reset it after the lookup returns."
        )
    }

    /// A shared instance whose build finished after the `withOverrides` block it was built in had ended: it
    /// was torn down at once, and its lookup fails with this.
    static func overrideEndedWhileMaking(_ key: String) -> RouteError {
        RouteError(
            .scopeClosed, key: key,
            reason:
                "The withOverrides block that \(key) was being made in ended first, so it was torn down and is not served.",
            hint:
                "Make the lookups that need the overrides inside the block, and await the tasks it starts before it returns."
        )
    }

    /// An instance built in a synchronous `withOverrides` block whose teardown is async, which the block's
    /// end cannot await.
    static func overrideEndCannotAwait(_ entry: AnyEntry) -> RouteError {
        RouteError(
            .teardownFailed, key: entry.key.full,
            reason:
                "A withOverrides block ended, and \(entry.key.full), built in it, has an async teardown, which the synchronous block cannot await: it did not run.",
            hint: "Use the async form, try await registry.withOverrides { … } operation: { … }, which awaits it.")
    }

    /// The teardown of an instance whose build finished after its generation was released (by a reset or a
    /// shutdown), run by its lookup, threw.
    static func lateTeardownFailure(_ key: String, _ error: any Error) -> RouteError {
        RouteError(
            .teardownFailed, key: key,
            reason:
                "The teardown of \(key) threw \(error); the instance was built while its generation was released (by resetSingletons() or shutdown()), so its lookup tore it down at once.",
            hint: "The instance was never served; the other teardowns ran.", underlyingError: error)
    }

    /// A module key whose registration makes another destination type than the key names.
    static func moduleMakesOtherType(
        _ key: KeyDescription, makes found: AnyEntry, asked: Any.Type, path: [String]
    ) -> RouteError {
        RouteError(
            .destinationTypeMismatch, key: key.full, path: path,
            reason: "The module \(key.full) makes \(found.destinationType), not \(TypeName.of(asked)).",
            hint:
                "A configuration protocol belongs to one module, and the one registered for \(TypeName.short(key.type)) makes \(found.destinationType): declare the key making that, or give the module that makes \(TypeName.of(asked)) a configuration protocol of its own."
        )
    }

    /// A module lookup of a registration that takes no configuration.
    static func takesNoConfiguration(_ entry: AnyEntry) -> RouteError {
        RouteError(.invalidConfiguration, key: entry.key.full, reason: "\(entry.key.full) takes no configuration.")
    }

    /// A module whose configuration class does not adopt the configuration protocol the caller asked for.
    static func configurationDoesNotConform(_ entry: AnyEntry, _ made: AnyObject, _ asked: Any.Type) -> RouteError {
        RouteError(
            .destinationTypeMismatch, key: entry.key.full,
            reason:
                "The configuration \(TypeName.of(type(of: made))) of \(entry.key.full) does not conform to \(TypeName.of(asked)).",
            hint: "Make the module's configuration class adopt the configuration protocol.")
    }

    /// A graph or cell held an instance of another type than its registration makes; never expected.
    @usableFromInline
    static func castFailure(_ entry: AnyEntry, expected: Any.Type) -> RouteError {
        RouteError(
            .destinationTypeMismatch, key: entry.key.full,
            reason: "Internal error: the shared instance of \(entry.key.full) is not a \(TypeName.of(expected)).")
    }

    /// A debug build found an entry filed under a key of another destination type: the invariant of
    /// `Entry.borrow` is broken. Never expected.
    @usableFromInline
    static func entryTypeBroken(_ entry: AnyEntry, expected: Any.Type) -> RouteError {
        RouteError(
            .destinationTypeMismatch, key: entry.key.full,
            reason:
                "Internal error: the registration of \(entry.key.full) makes \(entry.destinationType), which is filed under a key of \(TypeName.of(expected)).",
            hint: "Please report this: a key's identity must come from its static destination type.")
    }
}

extension RouteError {
    /// The advice for a key that has several registrations where one was expected.
    static let severalRegistrationsHint =
        "Mark exactly one with .asDefault(), tag the others, or look them all up with resolveAll. Registering a key again adds a registration, it does not replace one: to replace one for a test or a variant of the app, use withOverrides or a child registry (RouteRegistry(parent:))."
}

extension RouteError {
    /// A main-actor registration looked up from code that is not on the main actor.
    static func mainActorRequired(_ key: KeyDescription, path: [String]) -> RouteError {
        RouteError(
            .mainActorRequired, key: key.full, path: path,
            reason: "\(key.full) is made on the main actor, but was looked up outside it.",
            hint:
                "Look it up with makeDestination(to:) from main-actor code (from elsewhere: await MainActor.run { … }), or register a nonisolated factory."
        )
    }

    /// A registration with only an async factory, looked up synchronously.
    /// `eager`: it is an eager singleton, which `warmUp()` builds at start-up.
    @usableFromInline
    static func asyncOnly(_ key: KeyDescription, path: [String], eager: Bool = false) -> RouteError {
        RouteError(
            .asyncOnly, key: key.full, path: path,
            reason: "\(key.full) has only an async factory, so it cannot be made synchronously.",
            hint: eager
                ? "It is an eager singleton: call try await registry.warmUp() after seal(), which builds it at start-up; or look it up with try await makeDestinationAsync(to:)."
                : "Look it up with try await makeDestinationAsync(to:), or resolveAsync(_:) in an async factory.")
    }

    /// A shared instance held back by an async lookup that may be suspended, met by a synchronous lookup.
    /// `holder`: what that lookup claimed, outermost first.
    static func heldByAsyncLookup(_ key: KeyDescription, path: [String], holder: [String]) -> RouteError {
        let held = holder.isEmpty ? "" : " (it claimed \(holder.joined(separator: ", ")))"
        return RouteError(
            .heldByAsyncLookup, key: key.full, path: path,
            reason:
                "\(key.full) was made by an async lookup\(held) that holds it back until that lookup ends, and the async lookup may be suspended: waiting for it here would block a thread it may need to resume.",
            hint:
                "Look it up with try await makeDestinationAsync(to:), which waits suspended; or build it before any async lookup needs it (.scope(.eagerSingleton), or one lookup at start-up)."
        )
    }
}

extension SealedTable {
    /// The error for a single lookup of `id` that found no unique registration.
    func missingError(_ id: KeyID, key: KeyDescription, path: [String]) -> RouteError {
        if let closed = shutDownError(key.full, path: path) { return closed }
        let candidates = allEntries(for: id)
        let argumentLists = candidates.compactMap(\.argumentTypes)
        if candidates.count > 1 && argumentLists.count == candidates.count {
            let lists = argumentLists.map(TypeName.arguments).joined(separator: " or ")
            return RouteError(
                .argumentMismatch, key: key.full, path: path,
                reason: "\(key.full) has \(candidates.count) registrations, and each takes arguments: \(lists).",
                hint:
                    "Look it up with makeDestination(to:arguments:) or resolve(_:arguments:); the argument types pick the registration."
            )
        }
        if candidates.count > 1 {
            let defaults = candidates.filter { $0.isDefault }.count
            let names = candidates.map { "registration #\($0.order + 1) from \($0.owner)" }.joined(separator: ", ")
            return RouteError(
                .ambiguousRegistration, key: key.full, path: path,
                reason:
                    "\(key.full) has \(candidates.count) registrations (\(names)) and \(defaults == 0 ? "none is" : "\(defaults) are") marked as the default.",
                hint: RouteError.severalRegistrationsHint)
        }
        // The hint lists the keys of the same protocol, a pass over every key: written when read, so that the
        // miss itself costs about what a hit does. The error keeps this table (immutable) until then.
        return RouteError(
            .unregisteredKey, key: key.full, path: path, reason: "No router is registered for \(key.full).",
            deferredHint: { [self] in missingKeyHint(id, key: key) })
    }

    /// The hint of a missing key: the keys of its protocol closest to it, or how to register it.
    private func missingKeyHint(_ id: KeyID, key: KeyDescription) -> String {
        let related = relatedKeys(of: id, near: key)
        if related.closest.isEmpty {
            return
                "Register it in a RouteModule, e.g. registry.register(\(key.kind == .module ? "key, configuration:" : "key")) { … }."
        }
        let more = related.count - related.closest.count
        let names = related.closest.map(\.full).joined(separator: ", ")
        return "Registered for the same protocol: \(names)\(more > 0 ? ", and \(RouteError.grouped(more)) more" : "")."
    }

    /// The error of a lookup that missed because the registry is shut down (its table is then the closed,
    /// empty one), or nil when it is not: every miss path asks it first, the single lookups' (by key, by
    /// identifier, by path) and those that would otherwise give nil or an empty list (`…IfRegistered`,
    /// optional `@Injected`, `makeDestinations`), a request scope's supplied key, a `Lazy` or a `Provider`.
    /// `key`: what the lookup asked for (a key's description, or an identifier or a path in quotes);
    /// `what`: how the reason names it, when not by `key` alone.
    func shutDownError(_ key: String, making what: String? = nil, path: [String]) -> RouteError? {
        guard let registry = reporter.registry, registry.isShutDown else { return nil }
        return RouteError(
            .shutDown, key: key, path: path,
            reason: "The registry was shut down, so it cannot make \(what ?? key).",
            hint: "Make lookups before shutdown(), or in a new registry.")
    }

    /// A lookup by an identifier nobody registered; its hint, written when read, names the first few known.
    func unknownIdentifierError(_ identifier: String) -> RouteError {
        let shown = "the destination of the identifier \"\(RouteError.displayable(identifier))\""
        if let closed = shutDownError("\"\(identifier)\"", making: shown, path: []) {
            return closed
        }
        return RouteError(
            .unknownIdentifier, key: "\"\(identifier)\"",
            reason: "No router is registered for the identifier \"\(RouteError.displayable(identifier))\".",
            deferredHint: { [self] in
                let known = allIdentifiers
                return known.isEmpty
                    ? "No identifiers are registered; pass identifier: to register(…)."
                    : "Known identifiers: \(known.prefix(8).map { "\"\($0)\"" }.joined(separator: ", "))."
            })
    }

    /// A path no registered pattern matches; its hint, written when read, names the first few patterns.
    func unknownPathError(_ path: String) -> RouteError {
        let shown = "the destination of the path \"\(RouteError.displayable(path))\""
        if let closed = shutDownError("\"\(path)\"", making: shown, path: []) {
            return closed
        }
        return RouteError(
            .unknownPath, key: "\"\(path)\"",
            reason: "No route is registered for the path \"\(RouteError.displayable(path))\".",
            deferredHint: { [self] in
                let known = allPaths.prefix(8).map { "\"\($0.pattern.text)\"" }
                return known.isEmpty
                    ? "Register one with register(path:to:)."
                    : "Registered patterns: \(known.joined(separator: ", "))."
            })
    }

    /// How many keys a missing key's hint names at most; the others are counted.
    static let relatedKeysShown = 5

    /// The keys of the same protocol and kind as `id` (here and in the parents), counted, and the few of
    /// them closest to `key`: for a named key, the names sharing the longest beginning and end with the
    /// name asked for (a typo's neighbours), otherwise the first registered. One pass over the keys that
    /// allocates nothing per key (a set remembers keys only when a parent may repeat them), and a key's
    /// description is built only when shown, so that a miss among many keys costs one pass over them.
    private func relatedKeys(of id: KeyID, near key: KeyDescription) -> (closest: [KeyDescription], count: Int) {
        let asked = key.name.map { AskedName($0) }
        var seen: Set<KeyID> = []
        var closest: [(key: KeyDescription, score: Int)] = []
        var count = 0
        var table: SealedTable? = self
        while let current = table {
            // A table's keys are distinct; only a key a child and its parent both register is met twice.
            let remember = current.parent != nil
            let repeatable = current !== self
            for (index, other) in current.keys.enumerated()
            where other.type == id.type && other.kind == id.kind && other != id {
                if repeatable && seen.contains(other) { continue }
                if remember { seen.insert(other) }
                guard let found = current.members(ofBucket: index).first?.key else { continue }
                count += 1
                let score = asked.map { Self.nameCloseness($0, found.name) } ?? 0
                // Keep the best few, best first; a later key with the same score ranks after.
                guard closest.count < Self.relatedKeysShown || score > (closest.last?.score ?? .min) else { continue }
                let place = closest.firstIndex { $0.score < score } ?? closest.count
                closest.insert((found, score), at: place)
                if closest.count > Self.relatedKeysShown { closest.removeLast() }
            }
            table = current.parent
        }
        return (closest.map(\.key), count)
    }

    /// The name a missing key asked for, as far as ``nameCloseness(_:_:)`` reads it.
    private struct AskedName {
        /// How many bytes of each name's beginning and end are compared, so that a long name costs no
        /// more than a short one.
        static let comparedBytes = 64
        let head: [UInt8]
        let tail: [UInt8]
        let count: Int

        init(_ name: String) {
            head = Array(name.utf8.prefix(Self.comparedBytes))
            tail = Array(name.utf8.suffix(Self.comparedBytes))
            count = name.utf8.count
        }
    }

    /// How close a registered name is to the name asked for: the bytes of their common beginning and
    /// common end (one typo leaves all but one byte in these), less a little for a different length.
    private static func nameCloseness(_ asked: AskedName, _ name: String?) -> Int {
        guard let name else { return Int.min / 2 }
        let other = name.utf8
        var prefix = 0
        for (mine, theirs) in zip(asked.head, other) {
            guard mine == theirs else { break }
            prefix += 1
        }
        let otherCount = other.count
        let room = min(asked.count, otherCount) - prefix
        var suffix = 0
        for (mine, theirs) in zip(asked.tail.reversed(), other.reversed()) {
            guard suffix < room, mine == theirs else { break }
            suffix += 1
        }
        return (prefix + suffix) * 4 - min(abs(asked.count - otherCount), 1_000)
    }
}

extension RouteError {
    /// A count as a message writes it, with thousands separated: `99,980`.
    static func grouped(_ count: Int) -> String {
        let digits = String(count.magnitude)
        var text = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0 && (digits.count - offset) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return count < 0 ? "-" + text : text
    }
}

// MARK: Request scopes

extension RouteError {
    /// A request-scoped or supplied key looked up by a lookup that runs in no request scope.
    static func outsideRequestScope(_ entry: AnyEntry, path: [String]) -> RouteError {
        RouteError(
            .outsideRequestScope, key: entry.key.full, path: path,
            reason: "\(entry.key.full) is \(entry.scope.phrase), but this lookup runs outside any request scope.",
            hint:
                "Look it up through the request's scope (let scope = registry.openRequestScope(), then scope.makeDestination(to:) or scope.makeDestinationAsync(to:)): every factory that lookup runs sees the scope."
        )
    }

    /// ``outsideRequestScope(_:path:)`` for a key with no registration at hand.
    static func outsideRequestScope(_ key: KeyDescription, path: [String]) -> RouteError {
        RouteError(
            .outsideRequestScope, key: key.full, path: path,
            reason: "\(key.full) is supplied by each request scope, but this lookup runs outside any request scope.",
            hint: "Look it up through the request's scope (registry.openRequestScope()).")
    }

    /// A supplied key looked up in a request scope that was not given its value.
    static func notSupplied(_ entry: AnyEntry, path: [String]) -> RouteError {
        RouteError(
            .notSupplied, key: entry.key.full, path: path,
            reason: "\(entry.key.full) is supplied by each request scope, but this scope was not given one.",
            hint: "Call scope.supply(value, for: \(entry.key.short)) after opening the scope, before its lookups.")
    }

    /// A supplied key looked up in a request scope of ``RouteRegistry/makeEachRegistration(supplying:)``
    /// (and so of `verifyByMaking()`), whose ``RegistrationInputs`` gave it no value.
    static func notSuppliedByInputs(_ entry: AnyEntry, path: [String]) -> RouteError {
        RouteError(
            .notSupplied, key: entry.key.full, path: path,
            reason:
                "\(entry.key.full) is supplied by each request scope, and the RegistrationInputs gave no value for it.",
            hint: "Supply one: inputs.supply(value, for: \(entry.key.short)).")
    }

    /// ``RequestScope/supply(_:for:)`` given a key that is not declared as supplied by request scopes.
    static func notDeclaredSupplied(_ key: KeyDescription) -> RouteError {
        RouteError(
            .notSupplied, key: key.full,
            reason:
                "\(key.full) is not declared as supplied by request scopes, so a scope cannot supply it.",
            hint: "Declare it with registry.registerSupplied(\(key.short)) before sealing.")
    }

    /// ``RequestScope/supply(_:for:)`` given a key the scope was supplied already.
    static func alreadySupplied(_ key: KeyDescription) -> RouteError {
        RouteError(
            .notSupplied, key: key.full,
            reason: "\(key.full) was already supplied to this request scope.",
            hint: "Supply each key once per scope; open a new scope for a new request.")
    }

    /// A lookup through a request scope that was ended, or of a request-scoped key in one.
    @usableFromInline
    static func requestScopeEnded(_ key: KeyDescription, path: [String]) -> RouteError {
        RouteError(
            .scopeClosed, key: key.full, path: path,
            reason: "\(key.full) was looked up in a request scope that was ended.",
            hint:
                "Open a scope for each request (registry.openRequestScope()) and end it once the request's work is done; keep no lookup, Lazy or Provider of it past that."
        )
    }

    /// A longer-lived shared instance's build reached a request-scoped or supplied key, without a declared
    /// edge that sealing would have refused.
    static func requestCaptive(_ holder: AnyEntry, _ target: AnyEntry, path: [String]) -> RouteError {
        RouteError(
            .captiveDependency, key: holder.key.full, path: path,
            reason:
                "\(holder.key.full) is \(holder.scope.phrase) but asked for \(target.key.full), which is \(target.scope.phrase): it would keep one request's \(target.key.short) for every later request.",
            hint:
                "Make \(holder.key.short) request-scoped or transient, or pass what it needs from the request to the method that uses it."
        )
    }
}

// MARK: Making every registration

extension RouteError {
    /// ``RouteRegistry/makeEachRegistration(supplying:)`` called on a registry that was shut down, or whose
    /// parent `shutDown` was: its lookups can no longer make anything, so there is nothing to verify.
    static func madeAfterShutdown(_ shutDown: RouteRegistry, of registry: RouteRegistry) -> RouteError {
        let which = shutDown === registry ? "The registry was shut down" : "The registry's parent was shut down"
        return RouteError(
            .shutDown, key: "RouteRegistry",
            reason: "\(which), so its registrations cannot be made and verified.",
            hint: "Verify a registry before shutdown(), or a new registry made the same way.")
    }

    /// A registration that takes runtime arguments, which the ``RegistrationInputs`` did not give.
    static func argumentsNotSupplied(_ entry: AnyEntry, types: Any.Type) -> RouteError {
        RouteError(
            .argumentMismatch, key: entry.key.full, path: [entry.key.short],
            reason:
                "\(entry.key.full) from \(entry.owner) takes the arguments \(TypeName.arguments(types)), and none were supplied, so it was not made.",
            hint: "Supply them: inputs.arguments(for: <key>, …).")
    }

    /// A trial interrupted by an error that is not a ``RouteError`` (a cancellation).
    static func trialInterrupted(_ entry: AnyEntry, by error: any Error) -> RouteError {
        RouteError(
            .factoryFailed, key: entry.key.full, path: [entry.key.short],
            reason: "Making \(entry.key.full) was interrupted.", underlyingError: error)
    }
}

// MARK: Lookups by identifier

extension RouteError {
    /// A lookup by `identifier` that asked for `asked`, while its registration `entry` makes `shown` (the type
    /// registered, checked before the build, or the type of the destination made).
    static func identifierMakesOtherType(
        _ identifier: String, makes shown: Any.Type, asked: Any.Type, entry: AnyEntry
    ) -> RouteError {
        RouteError(
            .destinationTypeMismatch, key: "\"\(identifier)\"",
            reason:
                "The destination for \"\(RouteError.displayable(identifier))\" is \(TypeName.of(shown)), which is not \(TypeName.of(asked)).",
            hint: askForWhatItMakes(entry))
    }

    /// The hint of an identifier lookup that asked for the wrong type: the key it is registered under, and
    /// the type to ask for, which is what the registration makes (for a module key, not its configuration
    /// protocol).
    private static func askForWhatItMakes(_ entry: AnyEntry) -> String {
        "It is registered as \(entry.key.full); ask for the type it makes, \(TypeName.of(entry.key.destination))."
    }
}

// MARK: Factories the library writes

extension RouteError {
    /// A registration with no factory was built; never expected.
    static func entryWithoutFactory(_ entry: AnyEntry) -> RouteError {
        RouteError(.factoryFailed, key: entry.key.full, reason: "Internal error: an entry without a factory.")
    }

    /// A module registration's factory given a configuration that is not a `configuration`.
    static func configurationNotOfType(_ key: KeyDescription, _ configuration: Any.Type) -> RouteError {
        RouteError(
            .destinationTypeMismatch, key: key.full,
            reason: "The configuration given to \(key.full) is not a \(TypeName.of(configuration)).")
    }

    /// A registration of `primary` that also serves `other` (`Registration.also`) made `made`, which is not
    /// an `otherType`.
    static func alsoServedKeyMismatch(
        _ primary: KeyDescription, serving other: KeyDescription, made: Any.Type, otherType: Any.Type,
        path: [String]
    ) -> RouteError {
        RouteError(
            .destinationTypeMismatch, key: other.full, path: path,
            reason:
                "\(primary.full) is registered for \(other.full) as well, but its destination, a \(TypeName.of(made)), is not a \(TypeName.of(otherType)).",
            hint: "Make the destination adopt \(TypeName.of(otherType)), or register \(other.full) on its own.")
    }

    /// An adapter from `required` to `provided` that gave nil for `made`, which is not a `requiredType`.
    static func adapterGaveNil(
        _ required: KeyDescription, from provided: KeyDescription, made: Any.Type, requiredType: Any.Type,
        path: [String]
    ) -> RouteError {
        RouteError(
            .destinationTypeMismatch, key: required.full, path: path,
            reason:
                "The adapter from \(required.full) to \(provided.full) gave nil: the \(TypeName.of(made)) it was given is not a \(TypeName.of(requiredType)).",
            hint:
                "Make the provided destination adopt \(TypeName.of(requiredType)), or convert it in the adapter instead of casting."
        )
    }

    /// A ``ServiceRouter`` subclass, `router`, that does not override `makeDestination(configuration:resolver:)`.
    static func routerDoesNotMakeDestination(_ router: String, key: KeyDescription, path: [String]) -> RouteError {
        RouteError(
            .factoryFailed, key: key.full, path: path,
            reason:
                "\(router) does not override makeDestination(configuration:resolver:), so it cannot make \(key.full).",
            hint:
                "Override makeDestination(configuration:resolver:) in \(router) and return the destination."
        )
    }
}

// MARK: Runtime arguments

extension RouteError {
    /// A factory that takes the arguments `expected`, whose lookup handed it none.
    static func argumentsNotGiven(_ key: KeyDescription, expected: ArgumentList, path: [String]) -> RouteError {
        RouteError(
            .argumentMismatch, key: key.full, path: path,
            reason: "\(key.full) takes the arguments \(expected.types), but none were given.",
            hint:
                "Pass them with makeDestination(to:arguments:) or resolve(_:arguments:)."
        )
    }

    /// A factory that takes the arguments `expected`, whose lookup handed it `given`.
    static func argumentsDoNotFit(
        _ key: KeyDescription, expected: ArgumentList, given: ArgumentList, path: [String]
    ) -> RouteError {
        RouteError(
            .argumentMismatch, key: key.full, path: path,
            reason:
                "\(key.full) takes the arguments \(expected.types), but was given \(given.types).",
            hint: "Pass arguments of exactly these types, in this order.")
    }

    /// A lookup with arguments, `given`, of a registration that takes none.
    static func takesNoArguments(_ entry: AnyEntry, given: ArgumentList, path: [String]) -> RouteError {
        RouteError(
            .argumentMismatch, key: entry.key.full, path: path,
            reason: "\(entry.key.full) takes no arguments, but was given \(given.types).",
            hint: "Look it up with makeDestination(to:) or resolve(_:), or register it with arguments:.")
    }
}

// MARK: Injected, Lazy and undeclared edges

extension RouteError {
    /// The lookup of `key` for an ``Injected`` property, interrupted by `error`, which is not a ``RouteError``
    /// (a cancellation).
    static func injectionInterrupted(_ key: String, path: [String], by error: any Error) -> RouteError {
        RouteError(
            .factoryFailed, key: key, path: path,
            reason: "The lookup of \(key) for an @Injected property was interrupted.",
            underlyingError: error)
    }

    /// An ``Injected`` property of an object made outside any lookup, with no registry bound for injection.
    static func injectedOutsideLookup<Destination>(_ key: RoutableService<Destination>) -> RouteError {
        RouteError(
            .injectedOutsideLookup, key: key.description, path: [key.keyDescription.short],
            reason:
                "@Injected(\(key.description)) was initialized outside any lookup, and no registry is bound for injection, so there is no registry to resolve it from.",
            hint:
                "Make the object in a factory the registry runs (registry.register(…) { _ in Object() }); where it is made by hand, bind a registry to resolve from (registry.withInjectionBinding { … } in a test or preview, registry.bindForInjection() for the process), or pass the dependency as an initializer parameter."
        )
    }

    /// `error`, a ``Code/mainActorRequired`` failure of ``Lazy/value``, with the hint that a `Lazy` read
    /// through its property needs.
    static func lazyValueOffTheMainActor(_ error: RouteError) -> RouteError {
        RouteError(
            error.code, key: error.key, path: error.path, reason: error.reason,
            hint:
                "Read it with try lazy.value() from main-actor code: the value property cannot see its caller's isolation.",
            underlyingError: error.underlyingError)
    }

    /// A lookup took an edge its registration did not declare (reported, or listed by a recording).
    static func undeclaredEdge(from dependent: AnyEntry, to target: AnyEntry, inPreparation: Bool) -> RouteError {
        let stage = inPreparation ? "a preparation" : "its factory"
        let kind = inPreparation ? "property" : "initializer"
        let declared =
            dependent.dependencies.isEmpty
            ? "declares no dependencies"
            : "declares only \(dependent.dependencies.map(\.key.short).joined(separator: ", "))"
        return RouteError(
            .undeclaredDependency, key: dependent.key.full, path: [dependent.key.short, target.key.short],
            reason:
                "\(dependent.key.full) from \(dependent.owner) looked up \(target.key.full) in \(stage), but \(declared).",
            hint:
                "Declare it, .dependencies(.\(kind)(…)) (or .lazy, .many), so that sealing checks it and the graph shows it."
        )
    }
}

// MARK: What a factory or a configuration gave

extension RouteError {
    /// A factory made an object of another type than the one its registration's injections and
    /// preparations are typed on (`detail` says which), for the registration `key`.
    static func destinationTypeMismatch(
        _ key: KeyDescription, path: [String], detail: String, expected: String, made: String
    ) -> RouteError {
        RouteError(
            .destinationTypeMismatch, key: key.full, path: path,
            reason: "\(key.full): \(detail)",
            hint: "Return a \(expected) from the factory, or register with as: \(made).self.")
    }

    /// Reported, not thrown: the configuration of `entry`'s module received `construct…` calls (`calls`)
    /// that its router never read.
    static func unusedConstructCalls(_ entry: AnyEntry, calls: String) -> RouteError {
        RouteError(
            .unusedConstructCall, key: entry.key.full,
            reason: "The configuration of \(entry.key.full) received \(calls), which its router never read.",
            hint: "Read it in the factory with require(_:setBy:), or stop making the call.")
    }
}
