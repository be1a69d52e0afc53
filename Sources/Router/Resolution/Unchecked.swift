/// A reference to an object that writes no reference count when it is copied or read: the engine's one
/// step outside ARC. Threads looking up at once would otherwise fight over the counts of the shared
/// table, its entries and the singletons' cells, and a lookup would pay a retain and a release for each.
///
/// **The invariant, for every `Borrowed` in the engine: while it is read, something else keeps its object
/// alive.** Each stored `Borrowed` names that owner beside its declaration; there are three kinds:
/// - **A longer-lived object that holds it strongly.** A sealed table holds its entries and tracer; an
///   entry holds its singleton's cell; the registry holds its sealed table (a lookup runs inside a
///   registry call, `Lazy` or `Provider`, which holds the registry); a thread's context holds its
///   lookup states; a frame's entry is held by the table of the lookup that pushed the frame.
/// - **A count taken for it** with ``retained(_:)`` and dropped exactly once with ``release()`` by the
///   owner its declaration names (a lookup state's graph, a context's primary state, a thread's context).
/// - **The caller's stack**: an object a caller keeps in a local for the whole call it passes it to.
///
/// Everything that makes or reads an unmanaged reference goes through this type; nothing else in the
/// library calls `Unmanaged`.
@frozen @usableFromInline @unsafe
struct Borrowed<Object: AnyObject> {
    @usableFromInline let unmanaged: Unmanaged<Object>

    /// Borrows `object`: no count is taken. The caller names what keeps it alive (see the type's invariant).
    @inlinable @inline(__always)
    init(_ object: Object) { unsafe unmanaged = unsafe .passUnretained(object) }

    /// The reference stored behind `opaque`, a pointer made by ``opaque``.
    @inlinable @inline(__always)
    init(opaque: UnsafeRawPointer) { unsafe unmanaged = unsafe .fromOpaque(opaque) }

    /// Takes a count on `object` for an owner that drops it with ``release()``.
    @inlinable @inline(__always)
    static func retained(_ object: Object) -> Self { unsafe Self(unmanaged: .passRetained(object)) }

    @inlinable @inline(__always)
    init(unmanaged: Unmanaged<Object>) { unsafe self.unmanaged = unsafe unmanaged }

    /// Drops the count ``retained(_:)`` took; the owner calls it exactly once and then forgets the reference.
    @inlinable @inline(__always)
    func release() { unsafe unmanaged.release() }

    /// Calls `body` with the object, at +0: the invariant guarantees it lives through the call.
    @inlinable @inline(__always)
    func with<Result>(_ body: (Object) throws -> Result) rethrows -> Result {
        unsafe try unmanaged._withUnsafeGuaranteedRef(body)
    }

    /// The object, as a strong reference the caller now holds.
    @inlinable @inline(__always)
    var object: Object { unsafe unmanaged.takeUnretainedValue() }

    /// The object's address: for identity tests and for storing in C (a thread-local slot).
    @inlinable @inline(__always)
    var opaque: UnsafeMutableRawPointer { unsafe unmanaged.toOpaque() }

    /// Whether both refer to the same object.
    @inlinable @inline(__always)
    func refers(to other: Self) -> Bool { unsafe opaque == other.opaque }
}

extension Entry {
    /// Calls `body` with `entry` as the `Entry<Destination>` it is: the engine's only downcast of an entry.
    ///
    /// The invariant: an entry found under a key of `Destination` is an `Entry<Destination>`. It holds
    /// because a key's identity is its static `Destination` type (``RoutableService`` ignores the metatype
    /// value it is declared with), and the only code that files entries under a service key makes them as
    /// `Entry<Destination>` from a `RoutableService<Destination>`: `register`, `registerAsync`,
    /// `register(…arguments:)`, `adapt`, router classes, and override copies (`overrideCopy()` keeps the type).
    /// A debug build checks the cast and fails with a typed error instead; release builds trust it.
    /// `aKeyDeclaredWithASubclassMetatypeCannotReachAnotherTypesRegistration` tries to break it through
    /// public API, in debug and release.
    @inlinable @inline(__always)
    static func borrow<Result>(
        _ entry: Borrowed<AnyEntry>, _ body: (Entry<Destination>) throws -> Result
    ) throws -> Result {
        unsafe try entry.with { erased in
            #if DEBUG
                guard let typed = erased as? Entry<Destination> else {
                    throw RouteError.entryTypeBroken(erased, expected: Destination.self)
                }
                return try body(typed)
            #else
                return try body(unsafe unsafeDowncast(erased, to: Entry<Destination>.self))
            #endif
        }
    }
}
