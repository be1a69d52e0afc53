import Synchronization

/// The scope of one request (or any unit of work with a start and an end): it supplies the values declared
/// with ``RouteRegistry/registerSupplied(_:file:line:)`` and holds the ``Scope/request`` instances made in
/// it, and it is the door for the request's lookups.
///
/// Open one per request with ``RouteRegistry/openRequestScope()``: one small allocation, no `seal()`, no
/// child registry. Every factory that a lookup through the scope runs, at any depth, synchronous or async,
/// sees the scope through the running lookup: `r.resolve`, `r.resolveAsync`, the registry's own
/// `makeDestination` called from a factory, and the `Lazy`s and `Provider`s made in the lookup. Nothing is
/// global: concurrent requests each have their own scope and never share its instances.
///
/// ```swift
/// let scope = registry.openRequestScope()
/// defer { scope.end() }
/// try scope.supply(RequestInfo(path: "/orders"), for: .requestInfo)
/// let handler = try scope.makeDestination(to: .orderHandler)
/// ```
///
/// ``end()`` releases the scope's instances and supplied values (dropping the last reference to the scope
/// does too); a later lookup through it throws ``RouteError/Code/scopeClosed``.
public final class RequestScope: @unchecked Sendable, CustomStringConvertible {
    // @unchecked: its mutable state (`state`) is read and written only inside `withState`, which holds the
    // scope's lock (one of `RequestScope.locks`, see there), never the creation coordinator's process-wide
    // one; `ended` is atomic; `registry` and `suppliedByInputs` are `let`s. Opening a scope allocates the
    // scope and nothing else: the locks are the process's, made once.

    /// A supplied value, boxed so that a lookup reads it back with a class cast. Visible to inlinable code
    /// so that the cast is specialised in the lookup's caller (``Resolver/suppliedValue(_:)``): in generic
    /// code, asking the runtime for `Supplied<Value>`'s metadata cost about 325 instructions per lookup.
    // @unchecked: made only by `supply(_:for:)`, whose `Value` is `Sendable`; the value never changes.
    @usableFromInline final class Supplied<Value>: @unchecked Sendable {
        @usableFromInline let value: Value
        @usableFromInline init(_ value: Value) { self.value = value }
    }

    /// What the scope holds: the cells of the request-scoped registrations looked up in it, by registration
    /// (its `AnyEntry.serial`, never reused, unlike its address), and the supplied values, the first of each
    /// kept inline (most requests supply one value and make one request-scoped service). Lists, not
    /// dictionaries: a request holds a few of each, and a short list needs no hashing and no storage until
    /// its second item.
    private struct State {
        var firstCell: (id: UInt64, cell: CreationCell)?
        var moreCells: [(id: UInt64, cell: CreationCell)] = []
        var firstSupplied: (id: KeyID, box: AnyObject)?
        var moreSupplied: [(id: KeyID, box: AnyObject)] = []

        /// The box supplied for key `id`.
        func suppliedBox(_ id: KeyID) -> AnyObject? {
            if let first = firstSupplied, first.id == id { return first.box }
            for item in moreSupplied where item.id == id { return item.box }
            return nil
        }

        /// The cell of the registration with serial number `id`; when the scope has none yet, the one `make`
        /// returns, stored. (`make` is called only then, so a lookup of a cell the scope holds allocates
        /// nothing.)
        mutating func cell(_ id: UInt64, orMaking make: () -> CreationCell) -> CreationCell {
            guard let first = firstCell else {
                let made = make()
                firstCell = (id, made)
                return made
            }
            if first.id == id { return first.cell }
            for item in moreCells where item.id == id { return item.cell }
            let made = make()
            moreCells.append((id, made))
            return made
        }

        /// How many of the scope's cells hold a published instance.
        var publishedCount: Int {
            var count = firstCell?.cell.isPublished == true ? 1 : 0
            for item in moreCells where item.cell.isPublished { count += 1 }
            return count
        }
    }

    /// The registry the scope was opened on: its lookups are that registry's.
    @usableFromInline let registry: RouteRegistry
    /// Whether a ``RouteRegistry/makeEachRegistration(supplying:)`` run opened it, its supplied values
    /// given by ``RegistrationInputs``: a value it lacks is then reported as one the inputs did not give.
    let suppliedByInputs: Bool
    /// What the scope holds; reached only inside ``withState(_:)``.
    ///
    /// Unchecked exclusivity, `@safe`: every access is inside `withState`, which holds the scope's lock, a
    /// mutex that is not recursive and that `withState`'s bodies never take again (nor any other lock), so
    /// two accesses can never overlap; the rest of the scope's life (`init`, `deinit`) has it alone. The
    /// runtime's dynamic check would cost each lookup of a supplied value or a request-scoped cell more than
    /// the lock does.
    @safe @exclusivity(unchecked) private var state = State()
    /// Set by ``end()`` under the lock, read without it by every lookup's door.
    @usableFromInline let ended = Atomic<Bool>(false)

    init(registry: RouteRegistry, suppliedByInputs: Bool = false) {
        self.registry = registry
        self.suppliedByInputs = suppliedByInputs
    }

    /// The locks that guard the scopes' state, made once for the process: a scope uses the one its address
    /// picks (``lock``). A lock of the scope's own would be a second allocation per scope (`PThreadMutex`
    /// allocates its mutex; `Synchronization.Mutex`, which would be stored inline, hands a contended lock
    /// over through a futex that ThreadSanitizer cannot see, and `.ci/run` refuses it in Router). Each is
    /// held for a few list operations only, so two scopes that share one rarely meet, and requests in
    /// flight no longer queue on the creation coordinator's lock for their scope's state.
    ///
    /// **Lock order: no cycle is possible.** These locks are leaves: a thread holding one takes no other
    /// lock, so it never waits while holding one, and a cycle of waits needs such a thread. A body run
    /// under one (``withState(_:)``) only reads and writes the scope's lists, makes an empty cell and reads
    /// cells' `isPublished` (an atomic load: a scope holds `SharedCell`s only). It takes neither the
    /// creation coordinator's lock nor another scope's (two scopes may share a lock, so a nested
    /// `withState` could wait for itself), runs no user code, and releases nothing that holds a user's
    /// object: ``end()`` moves the state out and releases it after unlocking, so a `deinit` it runs may
    /// look anything up. The other way round, nothing calls into a scope while holding the coordinator's
    /// lock: `Resolver.requestCell` and `Resolver.suppliedBox` read the scope before a cell is claimed,
    /// outside that lock.
    private static let locks: [PThreadMutex] = (0..<64).map { _ in PThreadMutex() }

    /// The scope's lock: the one of ``locks`` its address picks (Fibonacci hashing of the address, whose
    /// low bits are the allocator's alignment; not `hashValue`, which runs SipHash). Fixed for the scope's
    /// life, since the address is.
    private var lock: PThreadMutex {
        let address = UInt64(UInt(bitPattern: ObjectIdentifier(self)))
        return Self.locks[Int(truncatingIfNeeded: ((address >> 4) &* 0x9E37_79B9_7F4A_7C15) >> 58)]
    }

    /// Runs `body` on the scope's state, holding the scope's lock (see ``locks`` for what `body` must not
    /// do). `body` must not release anything that may hold user objects: move it out and release it after.
    private func withState<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        let lock = self.lock
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }

    /// Supplies the value of a key declared with ``RouteRegistry/registerSupplied(_:file:line:)``, for every
    /// lookup in this scope. Each key is supplied once per scope.
    /// - Parameters:
    ///   - value: The value, e.g. the request's context.
    ///   - key: The supplied key.
    /// - Throws: ``RouteError``: ``RouteError/Code/notSupplied`` when `key` is not declared as supplied or
    ///   was supplied already, ``RouteError/Code/scopeClosed`` after ``end()``,
    ///   ``RouteError/Code/notSealed`` before the registry is sealed, ``RouteError/Code/shutDown`` after
    ///   ``RouteRegistry/shutdown()``.
    @inlinable
    public func supply<Destination: Sendable>(_ value: Destination, for key: RoutableService<Destination>) throws {
        // Specialised in the caller: the box's type and the key's are known there (asked of the runtime in
        // generic code, each cost about 400 instructions per request); the rest is not generic.
        try supply(Supplied(value), id: key.id, name: key.name, describedBy: key.keyDescription)
    }

    /// ``supply(_:for:)`` past its generic part: files `box`, the value boxed as the key's type, under key
    /// `id` (named `name`). `describe` gives the key for messages, only when one is thrown.
    @usableFromInline
    func supply(
        _ box: AnyObject, id: KeyID, name: String?, describedBy describe: @autoclosure () -> KeyDescription
    ) throws {
        let table = try registry.table()
        guard let entry = table.primary(id, name: name), entry.scope.kind == .supplied else {
            let keyDescription = describe()
            if let closed = table.shutDownError(keyDescription.full, path: [keyDescription.short]) { throw closed }
            throw RouteError.notDeclaredSupplied(keyDescription)
        }
        let outcome = withState { state -> Int in
            if ended.load(ordering: .relaxed) { return 1 }
            if state.suppliedBox(entry.id) != nil { return 2 }
            if state.firstSupplied == nil {
                state.firstSupplied = (entry.id, box)
            } else {
                state.moreSupplied.append((entry.id, box))
            }
            return 0
        }
        switch outcome {
        case 1:
            let keyDescription = describe()
            throw RouteError.requestScopeEnded(keyDescription, path: [keyDescription.short])
        case 2:
            let keyDescription = describe()
            throw RouteError.alreadySupplied(keyDescription)
        default: return
        }
    }

    /// Makes the destination of `key` in this scope, as ``RouteRegistry/makeDestination(to:arguments:isolation:preparation:)``
    /// does in the registry: request-scoped instances are this scope's, supplied keys read what
    /// ``supply(_:for:)`` gave.
    /// - Parameters:
    ///   - key: The key.
    ///   - arguments: The factory's runtime arguments, in order; none for a registration that takes none.
    ///   - isolation: The caller's isolation; leave the default. Called from main-actor code, the lookup
    ///     may run main-actor factories, synchronously.
    ///   - preparation: The caller's property and method injection, if any.
    /// - Returns: The destination, fully prepared.
    /// - Throws: ``RouteError``, as ``RouteRegistry/makeDestination(to:arguments:isolation:preparation:)``,
    ///   and ``RouteError/Code/scopeClosed`` after ``end()``.
    @inlinable
    public func makeDestination<Destination, each Argument>(
        to key: RoutableService<Destination>, arguments: repeat each Argument,
        isolation: isolated (any Actor)? = #isolation, preparation: ((Destination) throws -> Void)? = nil
    ) throws -> Destination {
        guard ArgumentList.isEmpty(repeat (each Argument).self), preparation == nil else {
            return try makeDestinationGenerally(
                to: key, arguments: repeat each arguments, preparation: preparation,
                onMainActor: MainActorCheck.isMainActor(isolation))
        }
        // Specialised in the caller, as the registry's own door is: in generic code the key's type and each
        // `Destination?` were asked of the runtime (about 1,000 instructions per lookup).
        return try lookup(key.keyDescription, onMainActor: MainActorCheck.isMainActor(isolation)) { resolver in
            try resolver.resolve(key)
        }
    }

    /// ``makeDestination(to:arguments:isolation:preparation:)`` with arguments or a preparation.
    @usableFromInline
    func makeDestinationGenerally<Destination, each Argument>(
        to key: RoutableService<Destination>, arguments: repeat each Argument,
        preparation: ((Destination) throws -> Void)?, onMainActor: Bool
    ) throws -> Destination {
        let given = ArgumentList(repeat (each Argument).self)
        guard given.count > 0 else {
            return try lookup(key.keyDescription, onMainActor: onMainActor) { resolver in
                try resolver.resolveGenerally(key, given: given, preparation: preparation)
            }
        }
        return try ArgumentHandoff.with(given, repeat each arguments, making: Destination.self) { handoff in
            try lookup(key.keyDescription, onMainActor: onMainActor) { resolver in
                try resolver.resolveGenerally(key, given: given, handoff: handoff, preparation: preparation)
            }
        }
    }

    /// Makes the destination of `key` in this scope from async code, as
    /// ``RouteRegistry/makeDestinationAsync(to:arguments:preparation:)`` does in the registry; keys with
    /// async factories need this form. The lookup runs on the caller's executor, and every factory it runs
    /// sees the scope.
    /// - Parameters:
    ///   - key: The key.
    ///   - arguments: The factory's runtime arguments, in order; none for a registration that takes none.
    ///   - preparation: The caller's property and method injection, if any.
    /// - Returns: The prepared destination.
    /// - Throws: ``RouteError``, as ``RouteRegistry/makeDestinationAsync(to:arguments:preparation:)``, and
    ///   ``RouteError/Code/scopeClosed`` after ``end()``.
    @inlinable
    public nonisolated(nonsending) func makeDestinationAsync<Destination, each Argument>(
        to key: RoutableService<Destination>, arguments: repeat each Argument,
        preparation: ((Destination) throws -> Void)? = nil
    ) async throws -> Destination {
        guard ArgumentList.isEmpty(repeat (each Argument).self), preparation == nil else {
            return try await makeDestinationAsyncGenerally(
                to: key, arguments: repeat each arguments, preparation: preparation,
                onMainActor: MainActorCheck.isMainActor(#isolation))
        }
        let table: SealedTable
        do {
            try checkOpen(key.keyDescription)
            table = try registry.table()
        } catch {
            throw registry.report(error)
        }
        let session = Resolver.beginAsync(
            in: table, of: registry, reporting: true, onMainActor: MainActorCheck.isMainActor(#isolation))
        var resolver = Resolver(state: session.state)
        // Kept to the end of the lookup, so that the preparations it drains see the scope too.
        let replaced = session.state.creation.enterRequestScope(self)
        defer { withExtendedLifetime(table) {} }
        do {
            let made = try await resolver.buildAsync(try resolver.entry(for: key))
            try session.finish(&resolver, of: registry)
            session.state.creation.leaveRequestScope(replaced)
            // Then the state and binding go back to the table for the next async lookup, as the registry's
            // doors give them (without it, each async lookup through a scope made and freed its own).
            session.recycle()
            return made
        } catch {
            let failure = session.fail(error, &resolver, of: registry, reporting: true)
            session.state.creation.leaveRequestScope(replaced)
            session.recycle()
            throw failure
        }
    }

    /// ``makeDestinationAsync(to:arguments:preparation:)`` with arguments or a preparation: the registry's
    /// own general async lookup, run in this scope.
    @usableFromInline
    nonisolated(nonsending) func makeDestinationAsyncGenerally<Destination, each Argument>(
        to key: RoutableService<Destination>, arguments: repeat each Argument,
        preparation: ((Destination) throws -> Void)?, onMainActor: Bool
    ) async throws -> Destination {
        do {
            try checkOpen(key.keyDescription)
        } catch {
            throw registry.report(error)
        }
        return try await registry.makeDestinationAsync(
            to: key, arguments: repeat each arguments, preparation: preparation, in: self, onMainActor: onMainActor)
    }

    /// Releases every request-scoped instance and supplied value the scope holds; later lookups through it
    /// throw ``RouteError/Code/scopeClosed``. Calling it again does nothing. A lookup that began before and
    /// whose build finishes after gets what it built, and the ended scope does not keep it (pinned by
    /// `aRequestScopedBuildThatFinishesAfterItsScopeEndedIsNotKeptByTheScope`).
    public func end() {
        let released = withState { state in
            ended.store(true, ordering: .relaxed)
            let taken = state
            state = State()
            return taken
        }
        withExtendedLifetime(released) {}  // released here, outside the lock
    }

    /// Whether ``end()`` was called.
    public var isEnded: Bool { ended.load(ordering: .acquiring) }

    /// How many request-scoped instances the scope holds now (supplied values not counted).
    public var count: Int {
        withState { state in state.publishedCount }
    }

    /// The scope as it reads in messages.
    public var description: String { "RequestScope(\(isEnded ? "ended" : "open"))" }

    // MARK: What lookups read

    /// Throws when the scope was ended.
    @usableFromInline
    func checkOpen(_ key: KeyDescription) throws {
        if isEnded { throw RouteError.requestScopeEnded(key, path: [key.short]) }
    }

    /// The error a lookup of `key` through the ended scope throws, handed to the error handler first.
    @usableFromInline
    func endedError(_ key: KeyDescription) -> any Error {
        registry.report(RouteError.requestScopeEnded(key, path: [key.short]))
    }

    /// Runs `body` as a lookup of the registry in this scope (through the registry's door). `key` describes
    /// the key looked up, for the error thrown when the scope was ended.
    @inlinable
    func lookup<Result>(
        _ key: @autoclosure () -> KeyDescription, onMainActor: Bool, _ body: (inout Resolver) throws -> Result
    ) throws -> Result {
        if ended.load(ordering: .acquiring) { throw endedError(key()) }
        return try registry.lookup(onMainActor: onMainActor) { resolver in
            let replaced = resolver.state.creation.enterRequestScope(self)
            defer { resolver.state.creation.leaveRequestScope(replaced) }
            return try body(&resolver)
        }
    }

    /// The cell of a request-scoped registration in this scope; nil once the scope was ended. Specialised
    /// in the lookup's caller: the cell's type is then known there (in generic code, each request of
    /// `SharedCell<Value>`'s metadata cost about 330 instructions).
    @inlinable
    func cell<Value>(for entry: Entry<Value>) -> SharedCell<Value>? {
        // Made by this method only, as `SharedCell<Value>` of the same registration's type.
        cell(entry.serial) { SharedCell<Value>() } as? SharedCell<Value>
    }

    /// The cell of the registration with serial number `id` (by serial number: an override block's
    /// registration is freed when the block ends, and another one made at its address must not find its
    /// cell while this scope lives); `make` makes it when the scope has none yet. Nil once the scope was
    /// ended. One acquisition of the scope's lock; the cell is made under it, only when the scope has none
    /// yet (making an empty cell runs no user code and takes no lock).
    @usableFromInline
    func cell(_ id: UInt64, orMaking make: () -> CreationCell) -> CreationCell? {
        withState { state -> CreationCell? in
            if ended.load(ordering: .relaxed) { return nil }
            return state.cell(id, orMaking: make)
        }
    }

    /// The box supplied for key `id`, and whether the scope was ended (then the box is nil).
    func suppliedBox(_ id: KeyID) -> (box: AnyObject?, ended: Bool) {
        withState { state -> (box: AnyObject?, ended: Bool) in
            if ended.load(ordering: .relaxed) { return (nil, true) }
            return (state.suppliedBox(id), false)
        }
    }
}

extension RouteRegistry {
    /// Declares `key` as supplied by each request scope: its value is what the lookup's ``RequestScope``
    /// was given with ``RequestScope/supply(_:for:)``, e.g. the request's context. There is no factory and no
    /// placeholder: sealing checks every declared edge to it like any other key, and a longer-lived shared
    /// registration (a singleton) that declares one is a ``RouteError/Code/captiveDependency``.
    ///
    /// Looked up outside a request scope it fails with ``RouteError/Code/outsideRequestScope``; in a scope that
    /// did not supply it, with ``RouteError/Code/notSupplied``.
    /// - Parameters:
    ///   - key: The key the request scopes supply.
    ///   - file: The registering file, for messages (leave the default).
    ///   - line: The registering line, for messages (leave the default).
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed.
    public func registerSupplied<Destination>(
        _ key: RoutableService<Destination>, file: StaticString = #fileID, line: UInt = #line
    ) throws {
        let keyDescription = key.keyDescription
        // Never called: a supplied key's lookup reads the scope (`Resolver.suppliedValue`).
        var spec = RegistrationSpec<Destination> { resolver in
            throw RouteError.outsideRequestScope(keyDescription, path: resolver.pathHere(keyDescription.short))
        }
        spec.scope = .supplied
        _ = try add(id: key.id, key: keyDescription, file: file, line: line, spec: spec)
    }

    /// Opens a scope for one request: the door for its lookups, the holder of its ``Scope/request`` instances
    /// and supplied values. Cheap (one allocation); end it with ``RequestScope/end()``.
    /// - Returns: The open scope.
    public func openRequestScope() -> RequestScope {
        RequestScope(registry: self)
    }
}

extension Resolver {
    /// The request scope a request-scoped or supplied `entry` is looked up in: the running lookup's.
    /// Throws when the lookup runs in none, the scope was ended, or a longer-lived shared instance is being
    /// built on the path to it (it would capture one request's instance).
    @usableFromInline
    func requestScope(for entry: AnyEntry) throws -> RequestScope {
        guard let scope = state.requestScope else {
            throw RouteError.outsideRequestScope(entry, path: pathTo(entry.key.short))
        }
        var cursor = top
        while let frame = cursor {
            let holder = frame.entry.object
            if holder.isShared && holder.scope.lifetimeRank > entry.scope.lifetimeRank {
                throw RouteError.requestCaptive(holder, entry, path: pathTo(entry.key.short))
            }
            cursor = frame.parent
        }
        return scope
    }

    /// The value the running lookup's request scope supplies for `entry`. Inlinable, so that reading it
    /// back as the key's type is specialised in the caller: `supply(_:for:)` boxes it as a
    /// `Supplied<Destination>` of the same key's destination type. Out of line: `buildByScope`, which calls
    /// it, is inlined into every lookup, and grows by a call only (s6p measured the same either way).
    @inlinable @inline(never)
    mutating func suppliedValue<Destination>(_ entry: Entry<Destination>) throws -> Destination {
        guard let supplied = try suppliedBox(for: entry) as? RequestScope.Supplied<Destination> else {
            throw notSupplied(entry)
        }
        return supplied.value
    }

    /// The box the running lookup's request scope holds for `entry`'s value.
    /// - Throws: ``RouteError``: outside a request scope, in one that has ended, or in one that did not
    ///   supply it.
    @usableFromInline
    mutating func suppliedBox(for entry: AnyEntry) throws -> AnyObject {
        let scope = try requestScope(for: entry)
        let found = scope.suppliedBox(entry.id)
        if let box = found.box { return box }
        if found.ended { throw RouteError.requestScopeEnded(entry.key, path: pathTo(entry.key.short)) }
        throw notSupplied(entry)
    }

    /// The error for a supplied key the running lookup's request scope has no value of.
    @usableFromInline
    func notSupplied(_ entry: AnyEntry) -> RouteError {
        if state.requestScope?.suppliedByInputs == true {
            return RouteError.notSuppliedByInputs(entry, path: pathTo(entry.key.short))
        }
        return RouteError.notSupplied(entry, path: pathTo(entry.key.short))
    }

    /// ``requestCell(for:)`` for a request-scoped registration; nil for any other.
    @inlinable @inline(never)
    func requestCellIfScoped<Destination>(_ entry: Entry<Destination>) throws -> SharedCell<Destination>? {
        guard entry.scope.kind == .request else { return nil }
        return try requestCell(for: entry)
    }

    /// The cell of a request-scoped `entry` in the running lookup's request scope.
    @inlinable
    func requestCell<Destination>(for entry: Entry<Destination>) throws -> SharedCell<Destination> {
        let scope = try requestScope(for: entry)
        guard let cell = scope.cell(for: entry) else {
            throw RouteError.requestScopeEnded(entry.key, path: pathTo(entry.key.short))
        }
        return cell
    }
}
