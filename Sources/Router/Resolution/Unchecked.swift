import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// The engine's fence: the constructs the compiler cannot check that are not tied to one owner's storage.
// Each type here is `@safe` because its invariant, stated on it, holds for every way the rest of the engine
// can reach it; what would break an invariant (taking or dropping a count by hand, a raw address) stays
// `@unsafe` and is used only in the files ARCHITECTURE.md lists under "Where the unsafe constructs are".

/// A reference to an object that writes no reference count when it is copied or read: the engine's one
/// step outside ARC. Threads looking up at once would otherwise fight over the counts of the shared
/// table, its entries and the singletons' cells, and a lookup would pay a retain and a release for each.
///
/// **The invariant, for every `Borrowed` in the engine: while it is read, something else keeps its object
/// alive.** Each stored `Borrowed` names that owner beside its declaration; there are three kinds:
/// - **A longer-lived object that holds it strongly.** A sealed table holds its entries and tracer; an
///   entry holds its singleton's cell; the registry holds its sealed table (a lookup runs inside a
///   registry call, `Lazy` or `Provider`, which holds the registry); a thread's context holds its
///   lookup states; a frame's entry is held by the table of the lookup that pushed the frame; a lookup's
///   state is held by the door that runs the lookup for as long as a ``Resolver`` of it exists.
/// - **A count taken for it** with ``retained(_:)`` and dropped exactly once with ``release()`` by the
///   owner its declaration names (a lookup state's graph, a context's primary state, a thread's context).
/// - **The caller's stack**: an object a caller keeps in a local for the whole call it passes it to.
///
/// `@safe`: borrowing (``init(_:)``) and reading are safe under that invariant, which every site that
/// makes one keeps (ARCHITECTURE.md lists them); counting by hand (``retained(_:)``, ``release()``) and raw
/// addresses (``init(opaque:)``, ``opaque``) are `@unsafe`, used only by the owners that the second kind
/// names. Everything that makes or reads an unmanaged reference goes through this type; nothing else in
/// the library calls `Unmanaged`.
@frozen @usableFromInline @safe
struct Borrowed<Object: AnyObject> {
    @usableFromInline let unmanaged: Unmanaged<Object>

    /// Borrows `object`: no count is taken. The caller names what keeps it alive (see the type's invariant).
    @inlinable @inline(__always)
    init(_ object: Object) { unsafe unmanaged = unsafe .passUnretained(object) }

    /// The reference stored behind `opaque`, a pointer made by ``opaque``.
    @inlinable @inline(__always) @unsafe
    init(opaque: UnsafeRawPointer) { unsafe unmanaged = unsafe .fromOpaque(opaque) }

    /// Takes a count on `object` for an owner that drops it with ``release()``.
    @inlinable @inline(__always) @unsafe
    static func retained(_ object: Object) -> Self { unsafe Self(unmanaged: .passRetained(object)) }

    @inlinable @inline(__always) @unsafe
    init(unmanaged: Unmanaged<Object>) { unsafe self.unmanaged = unsafe unmanaged }

    /// Drops the count ``retained(_:)`` took; the owner calls it exactly once and then forgets the reference.
    @inlinable @inline(__always) @unsafe
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
    @inlinable @inline(__always) @unsafe
    var opaque: UnsafeMutableRawPointer { unsafe unmanaged.toOpaque() }

    /// Whether both refer to the same object.
    @inlinable @inline(__always)
    func refers(to other: Self) -> Bool { unsafe opaque == other.opaque }

    /// Whether it refers to `object`.
    @inlinable @inline(__always)
    func refers(to object: Object) -> Bool { unsafe opaque == Unmanaged.passUnretained(object).toOpaque() }

    /// The object's identity, compared and never followed.
    @inlinable @inline(__always)
    var id: ObjectIdentifier { with { ObjectIdentifier($0) } }
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
        try entry.with { erased in
            #if DEBUG
                guard let typed = erased as? Entry<Destination> else {
                    throw RouteError.entryTypeBroken(erased, expected: Destination.self)
                }
                return try body(typed)
            #else
                return unsafe try body(unsafeDowncast(erased, to: Entry<Destination>.self))
            #endif
        }
    }
}

// MARK: The owner of an uncontended claim

/// A ``CreationTransaction`` as the word a ``SharedCell``'s state holds while the transaction claims the cell
/// without contention (``CreationTransaction/uncontendedWord``), and back.
enum UncontendedOwner {
    /// The transaction's address, as a word; only compared and stored, never followed by this call.
    static func word(of transaction: CreationTransaction) -> UInt {
        UInt(bitPattern: unsafe Borrowed(transaction).opaque)
    }

    /// The transaction whose address `address` is, retained for the caller.
    ///
    /// The invariant, for its two callers (``SharedCell/takeUncontendedOwner()`` and ``SharedCell/enterMachine()``):
    /// each holds the coordinator's lock, and its exchange of the cell's state word has just found `address` there and replaced it. So the
    /// owner had not ended its claim, and cannot end it, nor the lookup that holds the transaction, without
    /// taking that lock: its own exchange from the address now fails, which sends it through the machine
    /// under the lock. The transaction is alive at this call, and the reference returned keeps it so. (An
    /// address reused by a newer transaction after an older one ended is that newer owner's: the word held
    /// it, so it is the cell's owner now.)
    static func transaction(at address: UInt) -> CreationTransaction? {
        guard let pointer = unsafe UnsafeRawPointer(bitPattern: address) else { return nil }
        return unsafe Borrowed<CreationTransaction>(opaque: pointer).object
    }
}

// MARK: Casts the compiler cannot check

/// A main-actor factory or preparation whose isolation was removed from its type once, at registration,
/// so that a lookup calls it without a conversion per call (a `withoutActuallyEscaping` per lookup cost an
/// allocation).
///
/// `@safe`: the function is called only by ``callIfIsolated(_:_:)``, after it checked that the lookup is
/// isolated to the main actor (a lookup called from main-actor code runs on that code's thread, and
/// synchronous code cannot leave its caller's isolation), so no caller can run it elsewhere. Calling it
/// then is what `MainActor.assumeIsolated` does after its check, which cannot be used here: it traps
/// instead of failing, and needs a `Sendable` result.
@usableFromInline @safe
struct MainActorFunction<Input, Output>: Sendable {
    private let unchecked: @Sendable (Input, inout Resolver) throws -> Output

    @usableFromInline
    init(_ function: @escaping @MainActor @Sendable (Input, inout Resolver) throws -> Output) {
        // Isolation is not part of a function's ABI: the two function types have the same layout and
        // calling convention; only the compiler's isolation check is dropped (see the invariant above).
        unchecked = unsafe unsafeBitCast(function, to: (@Sendable (Input, inout Resolver) throws -> Output).self)
    }

    /// Calls the function when the lookup `resolver` belongs to is isolated to the main actor; otherwise
    /// runs nothing and throws what `failure` makes. (No optional result: unspecialised code would request
    /// `Optional<Output>`'s metadata on every call.)
    func callIfIsolated(
        _ input: Input, _ resolver: inout Resolver, else failure: (inout Resolver) -> any Error
    ) throws -> Output {
        guard MainActorCheck.isIsolated(resolver.state) else { throw failure(&resolver) }
        return try unchecked(input, &resolver)
    }
}

/// ``MainActorFunction`` for a factory that takes only the resolver, so that `registerOnMainActor` stores
/// the user's closure itself rather than a closure that calls it.
///
/// `@safe`: as ``MainActorFunction``: the function is called only by ``callIfIsolated(_:)``, after its check.
@safe struct MainActorFactory<Output>: Sendable {
    private let unchecked: @Sendable (inout Resolver) throws -> Output

    init(_ function: @escaping @MainActor @Sendable (inout Resolver) throws -> Output) {
        // Isolation is not part of a function's ABI (see `MainActorFunction.init`).
        unchecked = unsafe unsafeBitCast(function, to: (@Sendable (inout Resolver) throws -> Output).self)
    }

    /// Calls the function when the lookup is isolated to the main actor; otherwise runs nothing and throws
    /// what `failure` makes.
    @inline(__always)
    func callIfIsolated(_ resolver: inout Resolver, else failure: (inout Resolver) -> any Error) throws -> Output {
        guard MainActorCheck.isIsolated(resolver.state) else { throw failure(&resolver) }
        return try unchecked(&resolver)
    }
}

/// ``MainActorFunction`` for a main-actor closure that runs inside a lookup without the resolver at hand:
/// a path's main-actor preparation, which the lookup runs as the caller's preparation.
///
/// `@safe`: its one caller, the lookup `RouteRegistry.registerOnMainActor(path:to:preparation:)` starts,
/// checks ``Resolver/isOnMainActor`` before it builds anything and calls ``callAssumingIsolated(_:_:)``
/// later in that same synchronous lookup (synchronous code cannot leave its caller's isolation); the type
/// is internal, and no other code makes one.
@safe struct MainActorPreparation<First, Second>: Sendable {
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

extension Registration {
    /// The destination as `Root`: the same value when `Root` is `Destination` (no cast is paid), otherwise
    /// a checked cast that fails with a typed error naming both types. Safe for every caller: it
    /// reinterprets only after comparing the types (specialised code folds the check and the cast away).
    @inlinable @inline(__always)
    static func root(of destination: Destination) throws -> Root {
        if Destination.self == Root.self { return unsafe unsafeBitCast(destination, to: Root.self) }
        return try castRoot(destination)
    }
}

// MARK: Runtime arguments

/// A lookup's runtime arguments on their way to the factory that takes them, with no box and no dynamic
/// cast per lookup: the lookup copies its values into a buffer it owns (on its stack when synchronous),
/// and the factory that starts reads them back as the types it takes.
///
/// **The layout:** the values are laid out as the tuple `(Value...)` is: each in order at its own
/// alignment (a list of one value is that value). Code that knows the types (specialised in the caller)
/// writes and reads that tuple whole, with no runtime request; code that does not walks it with
/// ``ArgumentCursor``, which follows the same rule (``ArgumentLayout``). Either writer fits either reader.
///
/// **The invariant: the buffer is read only (a) by ``Resolver/callTakingArguments(_:takes:for:)`` and its
/// async form, after ``fits(_:making:)`` checked that the lookup's key makes exactly the factory's
/// destination type and that the lookup's argument types are exactly, one by one, the factory's (type
/// identities are compared), so the factory lays the values out as the lookup did and reads each as the
/// type it was written as; and (b) while the lookup that made the handoff is still inside
/// ``with(_:_:making:_:)``, ``withKnownTypes(_:_:making:_:)`` or the async form, which keep the buffer
/// and its values alive: the handoff is parked in the lookup state's frames for the length of the build
/// only (``LookupState/withArguments(_:_:)`` and `Resolver.resolvePlainTopLevel(_:given:arguments:in:reporting:onMainActor:)`
/// clear it), and the factory that takes it copies the values out at once, before it runs.** A mismatch
/// is a typed error, never a read.
///
/// `@safe`: the only ways in are the three makers, which keep (b), and the two takers, which check (a).
/// The buffer's address, the initializer, the layout helpers and ``ArgumentCursor`` are internal rather
/// than private only so that those can be inlinable (a caller that knows the types then asks the runtime
/// for no metadata); no code outside this file uses them, and none is public.
@usableFromInline @safe
struct ArgumentHandoff {
    /// The lookup's argument types, for the check and for messages.
    @usableFromInline let given: ArgumentList
    /// The type the lookup's key makes.
    @usableFromInline let destination: ObjectIdentifier
    /// The lookup's values, laid out as the type's documentation says.
    @usableFromInline let values: UnsafeRawPointer

    @inlinable @inline(__always) @unsafe
    init(given: ArgumentList, destination: ObjectIdentifier, values: UnsafeRawPointer) {
        self.given = given
        self.destination = destination
        unsafe self.values = values
    }

    /// Runs `body` with the handoff of `values` for a synchronous lookup of a key that makes
    /// `Destination`. The values are copied to this call's stack: nothing is allocated. For generic code
    /// that does not know the types: they are walked one by one, with no tuple type made.
    static func with<Destination, each Value, Result>(
        _ given: ArgumentList, _ values: repeat each Value, making _: Destination.Type,
        _ body: (ArgumentHandoff) throws -> Result
    ) throws -> Result {
        let layout = ArgumentLayout(repeat (each Value).self)
        // A fixed buffer on the stack holds the usual arguments (a few words); larger or more aligned ones
        // get an allocation. (`withUnsafeTemporaryAllocation` would look up a `Result` type per call here.)
        var storage = ArgumentStorage()
        let fitsStorage = layout.size <= MemoryLayout<ArgumentStorage>.size && layout.alignment <= 16
        return try unsafe withUnsafeMutableBytes(of: &storage) { bytes in
            let onStack = fitsStorage ? bytes.baseAddress : nil
            let base =
                unsafe onStack ?? UnsafeMutableRawPointer.allocate(byteCount: layout.size, alignment: layout.alignment)
            unsafe ArgumentHandoff.store(repeat each values, at: base)
            defer {
                unsafe ArgumentHandoff.destroy(repeat (each Value).self, at: base)
                if unsafe onStack == nil { unsafe base.deallocate() }
            }
            return try body(
                unsafe ArgumentHandoff(
                    given: given, destination: ObjectIdentifier(Destination.self), values: UnsafeRawPointer(base)))
        }
    }

    /// ``with(_:_:making:_:)`` for a caller that knows the types (inlinable, so specialised in it): the
    /// values are written and destroyed as one tuple, with no runtime request (a walk over a pack of values
    /// asks each value's type to copy it, even where the types are known).
    @inlinable @inline(__always)
    static func withKnownTypes<Destination, each Value, Result>(
        _ given: ArgumentList, _ values: repeat each Value, making _: Destination.Type,
        _ body: (ArgumentHandoff) throws -> Result
    ) throws -> Result {
        let size = MemoryLayout<(repeat each Value)>.size
        let alignment = MemoryLayout<(repeat each Value)>.alignment
        var storage = ArgumentStorage()
        let fitsStorage = size <= MemoryLayout<ArgumentStorage>.size && alignment <= 16
        return try unsafe withUnsafeMutableBytes(of: &storage) { bytes in
            let onStack = fitsStorage ? bytes.baseAddress : nil
            let base = unsafe onStack ?? UnsafeMutableRawPointer.allocate(byteCount: size, alignment: alignment)
            let written = unsafe base.initializeMemory(as: (repeat each Value).self, to: (repeat each values))
            defer {
                // Moved out and dropped: `deinitialize` would ask the tuple's type to destroy it.
                _ = unsafe written.move()
                if unsafe onStack == nil { unsafe base.deallocate() }
            }
            return try body(
                unsafe ArgumentHandoff(
                    given: given, destination: ObjectIdentifier(Destination.self), values: UnsafeRawPointer(base)))
        }
    }

    /// ``with(_:_:making:_:)`` for an async lookup: the values go in an allocation that outlives every
    /// suspension of `body` (an address on the stack would not).
    nonisolated(nonsending) static func withAsync<Destination, each Value, Result>(
        _ given: ArgumentList, _ values: repeat each Value, making _: Destination.Type,
        _ body: nonisolated(nonsending) (ArgumentHandoff) async throws -> Result
    ) async throws -> Result {
        let layout = ArgumentLayout(repeat (each Value).self)
        let base = UnsafeMutableRawPointer.allocate(byteCount: layout.size, alignment: layout.alignment)
        unsafe ArgumentHandoff.store(repeat each values, at: base)
        defer {
            unsafe ArgumentHandoff.destroy(repeat (each Value).self, at: base)
            unsafe base.deallocate()
        }
        return try await body(
            unsafe ArgumentHandoff(
                given: given, destination: ObjectIdentifier(Destination.self), values: UnsafeRawPointer(base)))
    }

    @unsafe private static func store<each Value>(_ values: repeat each Value, at base: UnsafeMutableRawPointer) {
        var cursor = unsafe ArgumentCursor(base: base)
        for value in repeat each values { unsafe cursor.write(value) }
    }

    @unsafe private static func destroy<each Value>(_ types: repeat (each Value).Type, at base: UnsafeMutableRawPointer)
    {
        var cursor = unsafe ArgumentCursor(base: base)
        for type in repeat each types { unsafe cursor.destroy(type) }
    }

    /// Whether a factory that makes `Destination` from `expected` may take these arguments (the
    /// invariant's (a)).
    @inlinable @inline(__always)
    func fits<Destination>(_ expected: ArgumentList, making _: Destination.Type) -> Bool {
        destination == ObjectIdentifier(Destination.self) && given.matches(expected)
    }

    /// A cursor over the values, to copy them out as the factory's types; the caller checked
    /// ``fits(_:making:)``. (Read straight into the factory's call: a tuple of them would be a runtime
    /// type request per call.)
    @unsafe fileprivate func cursor() -> ArgumentCursor {
        unsafe ArgumentCursor(base: UnsafeMutableRawPointer(mutating: values))
    }
}

/// Stack room for a synchronous lookup's arguments: 64 bytes, 16-byte aligned.
@usableFromInline
struct ArgumentStorage {
    @usableFromInline var words: (SIMD2<UInt64>, SIMD2<UInt64>, SIMD2<UInt64>, SIMD2<UInt64>) = (
        .zero, .zero, .zero, .zero
    )

    @inlinable init() {}
}

/// The size and alignment of the buffer for `(Value...)` (see ``ArgumentHandoff``), worked out from the
/// types one by one.
private struct ArgumentLayout {
    private(set) var size = 0
    private(set) var alignment = 1

    init<each Value>(_ types: repeat (each Value).Type) {
        for type in repeat each types {
            size = Self.aligned(size, Self.alignment(of: type)) + Self.size(of: type)
            alignment = max(alignment, Self.alignment(of: type))
        }
    }

    static func aligned(_ offset: Int, _ alignment: Int) -> Int { (offset + alignment - 1) & ~(alignment - 1) }
    private static func alignment<T>(of _: T.Type) -> Int { MemoryLayout<T>.alignment }
    private static func size<T>(of _: T.Type) -> Int { MemoryLayout<T>.size }
}

/// Walks a buffer laid out as ``ArgumentLayout`` says, one value after another.
@unsafe private struct ArgumentCursor {
    let base: UnsafeMutableRawPointer
    var offset = 0

    init(base: UnsafeMutableRawPointer) { unsafe self.base = base }

    private mutating func next<T>(_: T.Type) -> UnsafeMutableRawPointer {
        let start = unsafe ArgumentLayout.aligned(offset, MemoryLayout<T>.alignment)
        unsafe offset = start + MemoryLayout<T>.size
        return unsafe base + start
    }

    mutating func write<T>(_ value: T) { unsafe next(T.self).initializeMemory(as: T.self, to: value) }

    mutating func read<T>(_: T.Type) -> T { unsafe next(T.self).assumingMemoryBound(to: T.self).pointee }

    mutating func destroy<T>(_: T.Type) { unsafe next(T.self).assumingMemoryBound(to: T.self).deinitialize(count: 1) }
}

extension Resolver {
    /// Calls `factory` with the runtime arguments handed to it by its lookup, checked against the types
    /// it takes (`expected`): a factory registered with arguments starts here. Inlinable, so that the
    /// registration, which knows the types, reads the values as one tuple with no runtime request.
    @inlinable @inline(__always)
    mutating func callTakingArguments<Destination, Values>(
        _ factory: @Sendable (inout Resolver, Values) throws -> Destination,
        takes expected: ArgumentList, for key: KeyDescription
    ) throws -> Destination {
        let handoff = try takeArguments(expected, making: Destination.self, for: key)
        // `Values` is the registration's argument type or the tuple of its types, whose layout is the one
        // the lookup wrote (see the invariant above).
        let values = unsafe handoff.values.assumingMemoryBound(to: Values.self).pointee
        return try factory(&self, values)
    }

    /// ``callTakingArguments(_:takes:for:)`` for an async factory, which takes its arguments before its
    /// first suspension. Not inlinable: the values are walked one by one, with no tuple type made.
    nonisolated(nonsending) mutating func callTakingArgumentsAsync<Destination, each Argument>(
        _ factory: nonisolated(nonsending) @Sendable (inout Resolver, repeat each Argument) async throws -> Destination,
        takes expected: ArgumentList, for key: KeyDescription
    ) async throws -> Destination {
        let handoff = try takeArguments(expected, making: Destination.self, for: key)
        var values = unsafe handoff.cursor()
        return try await unsafe factory(&self, repeat values.read((each Argument).self))
    }
}

extension AsyncLookupBinding {
    /// The identity of the current task: the address of its task object; nil outside a task.
    static func currentTask() -> UInt? {
        unsafe withUnsafeCurrentTask { task in
            guard let task = unsafe task else { return nil }
            // Sound: `UnsafeCurrentTask` is a single reference to the task object, so its bits are that
            // object's address. They are compared, never dereferenced; a lookup is filed under it only
            // while the task runs that lookup, and no other task has that address meanwhile.
            return unsafe unsafeBitCast(task, to: UInt.self)
        }
    }
}

// MARK: The registry's sealed table

/// A reference to a `Sendable` object may be sent: who keeps the object alive is the invariant's to say,
/// not the thread that reads it.
extension Borrowed: @unchecked Sendable where Object: Sendable {}

extension Borrowed: AtomicRepresentable, AtomicOptionalRepresentable {
    // Stored as the `Unmanaged` it wraps, so that an atomic load of a `Borrowed?` is a plain load.
    @usableFromInline typealias AtomicRepresentation = Unmanaged<Object>.AtomicRepresentation
    @usableFromInline typealias AtomicOptionalRepresentation = Unmanaged<Object>.AtomicOptionalRepresentation

    @inlinable @inline(__always)
    static func encodeAtomicRepresentation(_ value: consuming Borrowed) -> AtomicRepresentation {
        unsafe Unmanaged<Object>.encodeAtomicRepresentation(value.unmanaged)
    }

    @inlinable @inline(__always)
    static func decodeAtomicRepresentation(_ storage: consuming AtomicRepresentation) -> Borrowed {
        unsafe Borrowed(unmanaged: Unmanaged<Object>.decodeAtomicRepresentation(storage))
    }

    @inlinable @inline(__always)
    static func encodeAtomicOptionalRepresentation(_ value: consuming Borrowed?) -> AtomicOptionalRepresentation {
        unsafe Unmanaged<Object>.encodeAtomicOptionalRepresentation(value?.unmanaged)
    }

    @inlinable @inline(__always)
    static func decodeAtomicOptionalRepresentation(_ storage: consuming AtomicOptionalRepresentation) -> Borrowed? {
        // The same layout: a `Borrowed` is its one `Unmanaged` field, and both optionals use the null pointer.
        unsafe unsafeBitCast(Unmanaged<Object>.decodeAtomicOptionalRepresentation(storage), to: Borrowed?.self)
    }
}

extension RouteRegistry {
    /// The sealed table, for the paths that are not hot. Read it only after an acquiring load of `phase`
    /// saw `sealed`, as every caller does.
    var sealedTable: SealedTable? { sealedRef.load(ordering: .relaxed)?.object }

    /// Publishes `table`, once, before the releasing store of `phase = sealed`: the registry takes a count
    /// on it, which ``releaseSealedTable()`` drops when the registry is freed.
    func publishSealedTable(_ table: SealedTable) {
        sealedRef.store(unsafe Borrowed.retained(table), ordering: .relaxed)
    }

    /// Drops the count ``publishSealedTable(_:)`` took; called once, by the registry's `deinit`.
    func releaseSealedTable() {
        unsafe sealedRef.load(ordering: .relaxed)?.release()
    }
}

// MARK: Locks

/// A pthread mutex on the heap. Router uses pthread locks rather than `Synchronization.Mutex` so that
/// ThreadSanitizer sees every lock: the futex-based `Mutex` is invisible to it on Linux, and a test run
/// under `--sanitize=thread` would report the state it guards as racy.
// @safe: the pointer is allocated and initialised in `init`, destroyed and freed in `deinit`, and never
// leaves the class; every use is a pthread call on it.
@safe final class PThreadMutex: @unchecked Sendable {
    // @unchecked: the mutex is only touched through pthread calls, which synchronise themselves.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init(recursive: Bool = false) {
        unsafe mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        unsafe pthread_mutexattr_init(&attributes)
        if recursive {
            unsafe pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        }
        unsafe pthread_mutex_init(mutex, &attributes)
        unsafe pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        unsafe pthread_mutex_destroy(mutex)
        unsafe mutex.deallocate()
    }

    func lock() { unsafe pthread_mutex_lock(mutex) }
    func unlock() { unsafe pthread_mutex_unlock(mutex) }
}

/// One spare object kept for the next user, taken and given back from any thread without a lock: the async
/// door's lookup states (``AsyncLookupBinding``), which would otherwise be allocated and freed per lookup.
///
/// `@safe`. **The invariant: the slot holds one count on the object it stores, and only one caller ever
/// receives a stored reference.** It holds for every caller: ``take()`` exchanges the slot with nil, so of
/// two takers at once one gets the reference (with its count) and the other nil; ``give(_:)`` stores a
/// count of its own with a compare-exchange from nil, so it never overwrites (and leaks) a stored one, and
/// drops that count when the slot is full; `deinit` drops the stored one. The orderings (`releasing` on
/// give, `acquiring` on take) make what the giver wrote to the object visible to the next taker.
///
/// Not generic over what it keeps: the `deinit` of a generic class is not specialised, and destroying its
/// `Atomic` field there asked the runtime for the atomic's metadata, whose `AtomicRepresentable` requirement
/// it resolved by scanning every conformance record in the process, once per process, at the first table
/// freed (Benchmarks/BENCHMARKS.md, "An app's first launch"; `scripts/check-first-launch.sh` fails on it).
@safe final class SpareSlot: Sendable {
    /// What the slot keeps.
    typealias Object = AsyncLookupBinding
    // Counted by hand through `Borrowed` (its `retained(_:)` and `release()`), the library's one way to
    // hold an unmanaged reference.
    private let slot = Atomic<Borrowed<Object>?>(nil)

    init() {}

    deinit {
        if let left = slot.load(ordering: .acquiring) { unsafe left.release() }
    }

    /// The spare object, now the caller's; nil when there is none.
    func take() -> Object? {
        guard let taken = slot.exchange(nil, ordering: .acquiring) else { return nil }
        let object = taken.object
        unsafe taken.release()
        return object
    }

    /// Keeps `object` for the next ``take()``, unless a spare is kept already.
    func give(_ object: Object) {
        let stored = unsafe Borrowed.retained(object)
        guard !slot.compareExchange(expected: nil, desired: stored, ordering: .releasing).exchanged else {
            return
        }
        unsafe stored.release()
    }
}

/// State guarded by a lock, read and written only inside ``withLock(_:)``.
///
/// Hold no function type as `State` itself (nor an optional or tuple of one): `withLock`'s body takes the
/// state `inout` at the generic abstraction, and a closure read through it comes back wrapped in conversion
/// thunks that are written back, one more layer per read. Box such a closure in a class (`ErrorHandlerBox`)
/// or a struct field.
// @safe: its one unsafe construct, `state`'s unchecked exclusivity, holds by the lock (see `state`).
@safe final class Locked<State>: @unchecked Sendable {
    // @unchecked: `state` is only reached inside `withLock`, which holds `mutex`.
    private let mutex = PThreadMutex()
    /// Unchecked exclusivity: every access is inside `withLock`, under a mutex that is not recursive, so two
    /// accesses can never overlap (a nested `withLock` on the same thread would deadlock before reaching it);
    /// the runtime's check cost about 120 instructions per async lookup (`AsyncLookupBinding`'s list).
    @exclusivity(unchecked) private var state: State

    init(_ state: State) {
        unsafe self.state = state
    }

    func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        mutex.lock()
        defer { mutex.unlock() }
        return unsafe try body(&state)
    }
}

/// State guarded by a lock, with a condition that threads holding the lock wait on: the creation
/// protocol's machine and its parked async lookups (``CreationCoordinator``).
///
/// `@safe`: the mutex and condition are allocated and initialised in `init` and never freed (a monitor
/// lives for the process, as a `static let`); `state` is reached only inside ``withLock(_:)``, whose body
/// gets a ``Held`` proof that it holds the lock. Waiting and unlocking for a moment take that proof, which
/// cannot leave the body (it is borrowed and not copyable), so no code waits or unlocks without holding
/// the lock, and the state is touched only by the thread that holds it (while a thread waits, others
/// change the state; it reads it again when it wakes).
@safe final class Monitor<State>: @unchecked Sendable {
    // @unchecked: `state` is only reached inside `withLock`, which holds `mutex`.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    /// Unchecked exclusivity: as `Locked.state`, every access is inside `withLock`, under the mutex.
    @exclusivity(unchecked) private var state: State

    /// The proof, lent to ``withLock(_:)``'s body, that the calling thread holds the lock.
    struct Held: ~Copyable {
        fileprivate init() {}
    }

    init(_ state: State) {
        unsafe mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        unsafe pthread_mutex_init(mutex, nil)
        unsafe condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
        unsafe pthread_cond_init(condition, nil)
        unsafe self.state = state
    }

    /// Runs `body` on the state, holding the lock.
    func withLock<Result>(_ body: (inout State, borrowing Held) throws -> Result) rethrows -> Result {
        unsafe pthread_mutex_lock(mutex)
        defer { unsafe pthread_mutex_unlock(mutex) }
        let held = Held()
        return unsafe try body(&state, held)
    }

    /// Releases the lock until another thread calls ``broadcast(_:)``, then takes it again.
    func wait(_ held: borrowing Held) {
        unsafe pthread_cond_wait(condition, mutex)
    }

    /// Wakes every thread waiting in ``wait(_:)``.
    func broadcast(_ held: borrowing Held) {
        unsafe pthread_cond_broadcast(condition)
    }

    /// Releases the lock until another thread signals `condition` (``signal(_:_:)``), then takes it again.
    /// Each waiting thread waits on a condition of its own, so a wake-up reaches only the thread it is for.
    func wait(on condition: MonitorCondition, _ held: borrowing Held) {
        unsafe pthread_cond_wait(condition.condition, mutex)
    }

    /// Wakes the thread waiting on `condition` in ``wait(on:_:)``, if any.
    func signal(_ condition: MonitorCondition, _ held: borrowing Held) {
        unsafe pthread_cond_signal(condition.condition)
    }

    /// Runs `body` without the lock (it must not touch the state), then takes the lock again.
    func unlocked(_ held: borrowing Held, _ body: () -> Void) {
        unsafe pthread_mutex_unlock(mutex)
        body()
        unsafe pthread_mutex_lock(mutex)
    }
}

/// A condition one thread waits on with a ``Monitor``'s lock held (``Monitor/wait(on:_:)``), and another
/// signals with it held (``Monitor/signal(_:_:)``): the wake-up of one waiting transaction.
///
/// `@safe`: the condition is allocated and initialised in `init`, destroyed and freed in `deinit` only, and
/// used only through the monitor, under its lock; a thread waits on it only while something (the waiting
/// transaction, which owns it) keeps it alive, so it is never destroyed while a thread waits on it.
@safe final class MonitorCondition: @unchecked Sendable {
    // @unchecked: the condition is waited on and signalled only with the monitor's lock held.
    fileprivate let condition: UnsafeMutablePointer<pthread_cond_t>

    init() {
        unsafe condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
        unsafe pthread_cond_init(condition, nil)
    }

    deinit {
        unsafe pthread_cond_destroy(condition)
        unsafe condition.deallocate()
    }
}
