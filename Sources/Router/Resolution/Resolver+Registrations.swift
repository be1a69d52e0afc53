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
        guard MainThread.isCurrent else {
            throw RouteError(
                .mainActorRequired, key: key.full, path: pathHere(key.short),
                reason:
                    "\(key.full) is made on the main actor, but was looked up on another thread.",
                hint:
                    "Look it up from main-actor code (from elsewhere: await MainActor.run { … }), or register a nonisolated factory."
            )
        }
        // Invariant: the calling thread is the main thread (checked just above), and code running
        // synchronously on the main thread is isolated to the main actor, whose executor is that thread; so
        // calling the main-actor function here is what `MainActor.assumeIsolated` does after the same check
        // (it cannot be used directly: it needs a `Sendable` result). Removing the isolation from the
        // function type changes no calling convention: isolation is not part of a function's ABI.
        typealias Nonisolated = (inout Resolver) throws -> Destination
        return try withoutActuallyEscaping(factory) { factory in
            try unsafeBitCast(factory, to: Nonisolated.self)(&self)
        }
    }

    /// `entry`, or its copy in the override layer this lookup runs in (see ``SealedTable/redirect``).
    func redirected<Destination>(_ entry: Entry<Destination>) -> Entry<Destination> {
        tableRef._withUnsafeGuaranteedRef { table in
            guard !table.redirect.isEmpty, let copy = table.redirect[ObjectIdentifier(entry)] as? Entry<Destination>
            else { return entry }
            return copy
        }
    }
}

/// Whether the calling thread is the process's main thread.
enum MainThread {
    static var isCurrent: Bool {
        #if canImport(Darwin)
            pthread_main_np() != 0
        #else
            // The main thread's kernel thread id is the process id.
            guard let threadID = kernelThreadID else { return false }
            return threadID() == getpid()
        #endif
    }

    #if !canImport(Darwin)
        /// The C library's `gettid` (glibc 2.30, musl 1.2.2 and later), which the `Glibc` module does not
        /// import; nil where the library lacks it, and then no thread counts as the main one.
        private static let kernelThreadID: (@convention(c) () -> pid_t)? = {
            guard let symbol = dlsym(nil, "gettid") else { return nil }
            // Sound: the symbol is the C library's `pid_t gettid(void)`, whose C signature is exactly this
            // function type.
            return unsafeBitCast(symbol, to: (@convention(c) () -> pid_t).self)
        }()
    #endif
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
