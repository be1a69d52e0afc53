#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What particular kinds of registration need from a lookup: main-actor factories, implementation-typed
/// preparations, and the registrations that serve a second key.
extension Resolver {
    /// Runs a main-actor factory on `input` (nothing, its runtime arguments, or its module configuration),
    /// or fails with ``RouteError/Code/mainActorRequired`` when this lookup is not isolated to the main
    /// actor. The input is passed, not captured, so that it need not be `Sendable`: it was made on this
    /// thread, in this lookup, and the factory runs here too.
    @usableFromInline
    mutating func onMainActor<Input, Destination>(
        _ key: KeyDescription, passing input: Input, _ factory: MainActorFunction<Input, Destination>
    ) throws -> Destination {
        try factory.callIfIsolated(input, &self) { RouteError.mainActorRequired(key, path: $0.pathHere(key.short)) }
    }

    /// ``onMainActor(_:passing:_:)`` for a factory that takes only the resolver (`registerOnMainActor`):
    /// the registry calls the user's closure itself, with no wrapper closure in between.
    @inline(__always)
    mutating func onMainActor<Destination>(
        _ key: KeyDescription, _ factory: MainActorFactory<Destination>
    ) throws -> Destination {
        try factory.callIfIsolated(&self) { RouteError.mainActorRequired(key, path: $0.pathHere(key.short)) }
    }

    /// Runs a main-actor preparation on `root`, or fails when this lookup is not isolated to the main
    /// actor (``wrap(_:_:stage:)`` names the registration in a ``RouteError/Code/mainActorRequired``).
    mutating func onMainActor<Root>(_ preparation: MainActorFunction<Root, Void>, _ root: Root) throws {
        try preparation.callIfIsolated(root, &self) { _ in NotOnMainActor() }
    }

    /// Whether this lookup may run main-actor code: the check of ``onMainActor(_:_:)``, for a main-actor
    /// closure that runs inside the lookup without the resolver at hand (a path's main-actor preparation,
    /// which runs as the caller's preparation: see `RouteRegistry.registerOnMainActor(path:to:preparation:)`).
    var isOnMainActor: Bool { MainActorCheck.isIsolated(state) }

    /// `entry`, or its copy in the override layer this lookup runs in (see ``SealedTable/redirect``).
    func redirected<Destination>(_ entry: Entry<Destination>) -> Entry<Destination> {
        tableRef.with { table in
            guard !table.redirect.isEmpty, let copy = table.redirect[ObjectIdentifier(entry)] as? Entry<Destination>
            else { return entry }
            return copy
        }
    }
}

/// Whether the calling code is isolated to the main actor, as far as a synchronous lookup can know it.
@usableFromInline
enum MainActorCheck {
    /// Whether `isolation`, a caller's `#isolation`, is the main actor. Nonisolated callers pass nil,
    /// which the compiler folds away.
    @inlinable @inline(__always)
    static func isMainActor(_ isolation: (any Actor)?) -> Bool {
        guard let isolation else { return false }
        // `MainActor` is a final actor whose one instance is `MainActor.shared`, so its type identifies it:
        // reading the type is a load, where `MainActor.shared` is a call into the runtime (a lazily made
        // global) and a retain. (The caller's `#isolation` already paid for one such call.)
        return ObjectIdentifier(type(of: isolation)) == ObjectIdentifier(MainActor.self)
    }

    /// Whether a main-actor factory may run in the lookup `state`: it was started or joined from
    /// main-actor code (the compiler proved it: see ``RouteRegistry/makeDestination(to:arguments:isolation:preparation:)``), or,
    /// on Apple platforms, it runs on the main thread, which is the main actor's executor there. (On Linux
    /// the main actor's executor may be another thread, so the thread alone proves nothing.)
    static func isIsolated(_ state: LookupState) -> Bool {
        if state.context.onMainActor { return true }
        #if canImport(Darwin)
            return pthread_main_np() != 0
        #else
            return false
        #endif
    }
}

/// A main-actor preparation reached from a lookup that is not on the main actor;
/// ``Resolver/wrap(_:_:stage:)`` turns it into a ``RouteError`` naming the registration's key and path.
struct NotOnMainActor: Error {}

/// A destination that is not the implementation class its registration's preparations are typed on;
/// ``Resolver/wrap(_:_:stage:)`` turns it into a ``RouteError`` naming the registration's key and path.
@usableFromInline
struct RootMismatch: Error, CustomStringConvertible {
    let expected: String
    let made: String

    @usableFromInline
    init<Destination, Root>(_ destination: Destination, expected: Root.Type) {
        self.expected = TypeName.of(Root.self)
        self.made = TypeName.of(type(of: destination as Any))
    }

    @usableFromInline
    var description: String {
        "The registration's injections and preparations are typed on \(expected), but its factory made a \(made)."
    }

    /// The error as a lookup reports it, for the registration `key`.
    func routeError(key: KeyDescription, path: [String]) -> RouteError {
        RouteError.destinationTypeMismatch(key, path: path, detail: description, expected: expected, made: made)
    }
}
