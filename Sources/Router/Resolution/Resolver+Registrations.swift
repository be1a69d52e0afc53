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
    mutating func onMainActor<Input, Destination>(
        _ key: KeyDescription, passing input: Input, _ factory: MainActorFunction<Input, Destination>
    ) throws -> Destination {
        guard unsafe MainActorCheck.isIsolated(state) else {
            throw RouteError.mainActorRequired(key, path: pathHere(key.short))
        }
        return try factory.callAssumingIsolated(input, &self)
    }

    /// ``onMainActor(_:passing:_:)`` for a factory that takes only the resolver (`registerOnMainActor`):
    /// the registry calls the user's closure itself, with no wrapper closure in between.
    @inline(__always)
    mutating func onMainActor<Destination>(
        _ key: KeyDescription, _ factory: MainActorFactory<Destination>
    ) throws -> Destination {
        guard unsafe MainActorCheck.isIsolated(state) else {
            throw RouteError.mainActorRequired(key, path: pathHere(key.short))
        }
        return try factory.callAssumingIsolated(&self)
    }

    /// Runs a main-actor preparation on `root`, or fails when this lookup is not isolated to the main
    /// actor (``wrap(_:_:stage:)`` names the registration in a ``RouteError/Code/mainActorRequired``).
    mutating func onMainActor<Root>(_ preparation: MainActorFunction<Root, Void>, _ root: Root) throws {
        guard unsafe MainActorCheck.isIsolated(state) else { throw NotOnMainActor() }
        try preparation.callAssumingIsolated(root, &self)
    }

    /// Whether this lookup may run main-actor code: the check of ``onMainActor(_:_:)``, for a main-actor
    /// closure that runs inside the lookup without the resolver at hand (a path's main-actor preparation,
    /// which runs as the caller's preparation: see `RouteRegistry.registerOnMainActor(path:to:preparation:)`).
    var isOnMainActor: Bool { unsafe MainActorCheck.isIsolated(state) }

    /// `entry`, or its copy in the override layer this lookup runs in (see ``SealedTable/redirect``).
    func redirected<Destination>(_ entry: Entry<Destination>) -> Entry<Destination> {
        unsafe tableRef.with { table in
            guard !table.redirect.isEmpty, let copy = table.redirect[ObjectIdentifier(entry)] as? Entry<Destination>
            else { return entry }
            return copy
        }
    }
}

/// A main-actor factory or preparation whose isolation was removed from its type once, at registration,
/// so that a lookup calls it without a conversion per call (a `withoutActuallyEscaping` per lookup cost an
/// allocation).
///
/// Invariant: ``callAssumingIsolated(_:_:)`` is only called by the `Resolver.onMainActor` methods,
/// after they checked that the lookup is isolated to the main actor (a lookup called from main-actor code
/// runs on that code's thread, and synchronous code cannot leave its caller's isolation). Calling the
/// function then is what `MainActor.assumeIsolated` does after its check, which cannot be used here: it
/// traps instead of failing, and needs a `Sendable` result.
struct MainActorFunction<Input, Output>: Sendable {
    private let unchecked: @Sendable (Input, inout Resolver) throws -> Output

    init(_ function: @escaping @MainActor @Sendable (Input, inout Resolver) throws -> Output) {
        // Isolation is not part of a function's ABI: the two function types have the same layout and
        // calling convention; only the compiler's isolation check is dropped (see the invariant above).
        unchecked = unsafe unsafeBitCast(function, to: (@Sendable (Input, inout Resolver) throws -> Output).self)
    }

    /// Calls the function; the caller has checked the main actor's isolation.
    func callAssumingIsolated(_ input: Input, _ resolver: inout Resolver) throws -> Output {
        try unchecked(input, &resolver)
    }
}

/// ``MainActorFunction`` for a factory that takes only the resolver, so that `registerOnMainActor` stores
/// the user's closure itself rather than a closure that calls it.
///
/// Invariant: as ``MainActorFunction``'s: ``callAssumingIsolated(_:)`` is only called by
/// `Resolver.onMainActor(_:_:)`, after it checked that the lookup is isolated to the main actor.
struct MainActorFactory<Output>: Sendable {
    private let unchecked: @Sendable (inout Resolver) throws -> Output

    init(_ function: @escaping @MainActor @Sendable (inout Resolver) throws -> Output) {
        // Isolation is not part of a function's ABI (see `MainActorFunction.init`).
        unchecked = unsafe unsafeBitCast(function, to: (@Sendable (inout Resolver) throws -> Output).self)
    }

    /// Calls the function; the caller has checked the main actor's isolation.
    @inline(__always)
    func callAssumingIsolated(_ resolver: inout Resolver) throws -> Output {
        try unchecked(&resolver)
    }
}

/// ``MainActorFunction`` for a main-actor closure that runs inside a lookup without the resolver: a path's
/// main-actor preparation, which the lookup runs as the caller's preparation.
///
/// Invariant: ``callAssumingIsolated(_:_:)`` is only called inside a lookup whose
/// ``Resolver/isOnMainActor`` was true when it began (synchronous code cannot leave its caller's isolation).
struct MainActorPreparation<First, Second>: Sendable {
    private let unchecked: @Sendable (First, Second) throws -> Void

    init(_ function: @escaping @MainActor @Sendable (First, Second) throws -> Void) {
        // Isolation is not part of a function's ABI (see `MainActorFunction.init`).
        unchecked = unsafe unsafeBitCast(function, to: (@Sendable (First, Second) throws -> Void).self)
    }

    /// Calls the function; the caller has checked the main actor's isolation.
    func callAssumingIsolated(_ first: First, _ second: Second) throws {
        try unchecked(first, second)
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
    /// main-actor code (the compiler proved it: see ``RouteRegistry/makeDestination(to:isolation:)``), or,
    /// on Apple platforms, it runs on the main thread, which is the main actor's executor there. (On Linux
    /// the main actor's executor may be another thread, so the thread alone proves nothing.)
    static func isIsolated(_ state: LookupState) -> Bool {
        if unsafe state.context.onMainActor { return true }
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
        RouteError(
            .destinationTypeMismatch, key: key.full, path: path,
            reason: "\(key.full): \(description)",
            hint: "Return a \(expected) from the factory, or register with as: \(made).self.")
    }
}
