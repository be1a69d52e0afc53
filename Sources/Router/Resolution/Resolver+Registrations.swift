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
    /// Runs a main-actor factory, or fails with ``RouteError/Code/mainActorRequired`` when this lookup is
    /// not on the main thread.
    mutating func onMainActor<Destination>(
        _ key: KeyDescription, _ factory: @MainActor @Sendable (inout Resolver) throws -> Destination
    ) throws -> Destination {
        guard MainActorCheck.isIsolated(state) else {
            throw RouteError.mainActorRequired(key, path: pathHere(key.short))
        }
        // Invariant: this code is isolated to the main actor (checked just above: a lookup called from
        // main-actor code is running on this thread, and synchronous code cannot leave its caller's
        // isolation); so calling the main-actor function here is what `MainActor.assumeIsolated` does
        // after its check (which cannot be used: it traps instead of failing, and needs a `Sendable`
        // result). Removing the isolation from the function type changes no calling convention: isolation
        // is not part of a function's ABI.
        typealias Nonisolated = (inout Resolver) throws -> Destination
        return try withoutActuallyEscaping(factory) { factory in
            try unsafeBitCast(factory, to: Nonisolated.self)(&self)
        }
    }

    /// Runs a main-actor factory that takes a value made in this lookup (its runtime arguments, its
    /// module configuration), or fails with ``RouteError/Code/mainActorRequired`` as
    /// ``onMainActor(_:_:)`` does. The value is passed, not captured, so that it need not be `Sendable`:
    /// it was made on this thread, in this lookup, and the factory runs here too.
    mutating func onMainActor<Input, Destination>(
        _ key: KeyDescription, passing input: Input,
        _ factory: @MainActor @Sendable (Input, inout Resolver) throws -> Destination
    ) throws -> Destination {
        guard MainActorCheck.isIsolated(state) else {
            throw RouteError.mainActorRequired(key, path: pathHere(key.short))
        }
        // Invariant: isolated to the main actor, checked just above; see `onMainActor(_:_:)`.
        typealias Nonisolated = (Input, inout Resolver) throws -> Destination
        return try withoutActuallyEscaping(factory) { factory in
            try unsafeBitCast(factory, to: Nonisolated.self)(input, &self)
        }
    }

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
        return isolation === MainActor.shared
    }

    /// Whether a main-actor factory may run in the lookup `state`: it was started or joined from
    /// main-actor code (the compiler proved it: see ``RouteRegistry/makeDestination(to:isolation:)``), or,
    /// on Apple platforms, it runs on the main thread, which is the main actor's executor there. (On Linux
    /// the main actor's executor may be another thread, so the thread alone proves nothing.)
    static func isIsolated(_ state: LookupState) -> Bool {
        if state.onMainActor { return true }
        #if canImport(Darwin)
            return pthread_main_np() != 0
        #else
            return false
        #endif
    }
}

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
