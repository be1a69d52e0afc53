#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What one thread knows about the lookups running on it: the innermost running lookup (so that a lookup
/// started inside a factory joins it), a spare lookup state to reuse, and the bounds of the thread's stack
/// (so that the depth guard measures the stack rather than counting levels).
///
/// It lives in thread-local storage and is only ever touched by its own thread.
///
/// `@safe`, with its fields' exclusivity unchecked (`@safe @exclusivity(unchecked)`). **The invariant: no
/// two accesses to a field overlap.** It holds because only its own thread touches a context, every field
/// is `fileprivate(set)`, so every write is in this file, and no write runs code that could reach the
/// context (user code, a lookup) while it lasts: it calls no user code, and a nested state is taken out of
/// `nested` before it is released.
/// Its `Borrowed` fields name their owners beside their declarations; the thread-local slot, the stack
/// probe and the C functions found by name are this file's other unchecked code, each with its reason.
@usableFromInline @safe
final class ThreadContext {
    /// The innermost lookup running on this thread, if any. Borrowed: the context (or the async lookup)
    /// that owns the state keeps it alive until the door restores the previous value, and reading an
    /// borrowed reference writes no reference count.
    @safe @exclusivity(unchecked) @usableFromInline fileprivate(set) var running: Borrowed<LookupState>?
    /// The state this thread's lookups use, made at the first one and kept (+1) until the thread ends, so
    /// that starting a lookup allocates nothing and writes no reference count.
    @safe @exclusivity(unchecked) @usableFromInline fileprivate(set) var primary: Borrowed<LookupState>?
    /// Whether `primary` is running a lookup now.
    @safe @exclusivity(unchecked) @usableFromInline fileprivate(set) var primaryBusy = false
    /// States of lookups nested in a running one on this thread (of another registry), innermost last.
    @safe @exclusivity(unchecked) fileprivate(set) var nested: [LookupState] = []
    /// The stack addresses a lookup may use on this thread: from the stack's end plus a safety margin for
    /// one more level, the user's factory and the error report (below it a lookup stops with
    /// `resolutionTooDeep`), up to the stack's start.
    @usableFromInline let stackRange: StackRange
    /// The size of this thread's stack, for messages.
    let stackSize: Int
    /// The process's count of running async lookups, held here so that the door reads it without a
    /// `swift_once`.
    @usableFromInline let asyncLookups = AsyncLookupBinding.running
    /// Whether an error or trace handler is being called on this thread; lookups made from inside one do
    /// not call the handlers again.
    @safe @exclusivity(unchecked) @usableFromInline fileprivate(set) var inHandler = false

    init() {
        let (low, size) = Self.stackBounds()
        stackSize = size
        stackRange = StackRange(limit: low + UInt(Self.margin(forStackSize: size)), top: low + UInt(size))
    }

    deinit {
        unsafe primary?.release()
    }

    /// The margin kept free below the deepest level: an eighth of the stack, at least 64 KiB (but never
    /// more than three eighths of the stack, so that a 64 KiB pool thread keeps 40 KiB for lookups: with
    /// half, three debug-build levels of singletons fitted with no room to spare, and a full parallel test
    /// run once refused the third) and at most 256 KiB. One debug-build level with a factory and an error
    /// report takes about 10 KiB, so the 24 KiB kept on such a thread still holds two.
    static func margin(forStackSize size: Int) -> Int {
        min(max(size / 8, min(64 * 1_024, size * 3 / 8)), 256 * 1_024)
    }

    /// This thread's context, made on first use.
    static var current: ThreadContext { currentRef().object }

    /// This thread's context, unretained: the thread-local slot keeps it alive until the thread ends, and
    /// borrowing it writes no reference count.
    @usableFromInline
    static func currentRef() -> Borrowed<ThreadContext> {
        ThreadContextKey.context(in: ThreadContextKey.key)
    }

    /// The lowest address of this thread's stack and its size. Where the platform cannot tell, it assumes
    /// 512 KiB below the current frame, the smallest stack the usual platforms give a thread.
    static func stackBounds() -> (low: UInt, size: Int) {
        let here = StackPointer.current
        #if canImport(Darwin)
            let thread = pthread_self()
            let high = UInt(bitPattern: pthread_get_stackaddr_np(thread))
            let size = pthread_get_stacksize_np(thread)
            if size > 0, high > UInt(size) { return (high - UInt(size), size) }
        #elseif canImport(Glibc) || canImport(Musl)
            var attributes = pthread_attr_t()
            if let getAttributes = unsafe ThreadContextKey.getAttributes,
                unsafe getAttributes(pthread_self(), &attributes) == 0
            {
                defer { unsafe pthread_attr_destroy(&attributes) }
                var address: UnsafeMutableRawPointer?
                var size = 0
                if unsafe pthread_attr_getstack(&attributes, &address, &size) == 0, let address = unsafe address,
                    size > 0
                {
                    let low = UInt(bitPattern: address)
                    // Sanity: the current frame must lie inside the reported stack.
                    if here > low, here - low <= UInt(size) { return (low, size) }
                }
            }
        #endif
        let assumed = 512 * 1_024
        return (here > UInt(assumed) ? here - UInt(assumed) : 0, assumed)
    }
}

/// The thread-local slot that holds each thread's ``ThreadContext``.
@usableFromInline
enum ThreadContextKey {
    /// The platform's thread-local key type.
    @usableFromInline typealias Slot = pthread_key_t

    #if canImport(Glibc) || canImport(Musl)
        /// `pthread_getattr_np`, which the C library has but the Swift module does not export (it needs
        /// `_GNU_SOURCE`): found by name, then called through its C signature.
        static let getAttributes: (@convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32)? = {
            guard let symbol = unsafe dlsym(nil, "pthread_getattr_np") else { return nil }
            // Sound: the symbol is the C library's `int pthread_getattr_np(pthread_t, pthread_attr_t *)`,
            // whose C signature is exactly this function type.
            return unsafe unsafeBitCast(
                symbol, to: (@convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32).self)
        }()
    #endif

    /// This thread's context, unretained (see ``ThreadContext/currentRef()``), found through `slot`, the
    /// value of ``key`` a sealed table copied when it was made: reading the key from the table skips the
    /// `swift_once` check that reading the static costs on every lookup. A static of this enum, not of the
    /// class, so that calling it needs no class metadata; inlined, so that the fast path is one C call.
    @inlinable @inline(__always)
    static func context(in slot: Slot?) -> Borrowed<ThreadContext> {
        if let slot, let raw = unsafe pthread_getspecific(slot) {
            return unsafe Borrowed<ThreadContext>(opaque: raw)
        }
        return makeContext()
    }

    /// Makes this thread's context at its first lookup and stores it in the thread-local slot.
    @usableFromInline @inline(never)
    static func makeContext() -> Borrowed<ThreadContext> {
        let made = ThreadContext()
        // Retained by the thread-local slot; released by the key's destructor when the thread ends. Without
        // a slot (pthread_key_create failed), the context is kept for the life of the process.
        let retained = unsafe Borrowed.retained(made)
        if let key { unsafe pthread_setspecific(key, retained.opaque) }
        return retained
    }

    /// The key of the thread-local slot, made once per process; nil if the platform refused one.
    static let key: pthread_key_t? = {
        var key = pthread_key_t()
        let made = unsafe pthread_key_create(&key) { raw in
            guard let raw = unsafe raw else { return }
            unsafe Borrowed<ThreadContext>(opaque: raw).release()
        }
        return made == 0 ? key : nil
    }()
}

/// The part of one thread's stack a lookup may use (see ``ThreadContext/stackRange``).
@usableFromInline
struct StackRange: Sendable {
    /// The lowest address a lookup may reach.
    @usableFromInline let limit: UInt
    /// `top - limit`: an address on another thread's stack, above or below, is outside the range too.
    @usableFromInline let span: UInt

    init(limit: UInt, top: UInt) {
        self.limit = limit
        self.span = top &- limit
    }

    /// Whether `address` lies in the range: one subtraction and one comparison.
    @inlinable @inline(__always)
    func contains(_ address: UInt) -> Bool {
        address &- limit < span
    }
}

/// The address of the caller's stack frame, near enough for the depth guard.
@usableFromInline
enum StackPointer {
    /// An address in the current stack frame.
    @inlinable @inline(__always)
    static var current: UInt {
        var marker: UInt8 = 0
        // Unprotected: only the address is read, nothing is written through it, so the stack protector's
        // canary (which taking a local's address otherwise adds to every caller) would guard nothing.
        return unsafe _withUnprotectedUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
    }
}

// MARK: - Starting and ending lookups

extension ThreadContext {
    /// The primary state when a lookup may start on it straight away: no lookup runs on this thread, the
    /// primary state is free, and no handler is being called.
    @inlinable @inline(__always)
    var idlePrimary: Borrowed<LookupState>? {
        running == nil && !primaryBusy && !inHandler ? primary : nil
    }

    /// Starts a lookup of `tableRef` on this thread: the spare state, or a new one, nested in the running
    /// lookup if there is one. `onMainActor`: the caller is isolated to the main actor.
    @inlinable @inline(__always)
    func begin(_ tableRef: Borrowed<SealedTable>, onMainActor: Bool) -> Borrowed<LookupState> {
        // The common case, inline: no lookup runs on this thread, and its primary state is free.
        if let primary = idlePrimary {
            return start(primary, tableRef, onMainActor: onMainActor, tracing: tableRef.with { $0.isTracing })
        }
        return beginSlow(tableRef, onMainActor: onMainActor)
    }

    /// Starts a lookup of `tableRef` in `primary`, the state ``idlePrimary`` returned: the one way a lookup
    /// starts on an idle thread (``begin(_:onMainActor:)`` and the plain transient's fast case both take it).
    @inlinable @inline(__always)
    func start(_ primary: Borrowed<LookupState>, _ tableRef: Borrowed<SealedTable>, onMainActor: Bool, tracing: Bool)
        -> Borrowed<LookupState>
    {
        primaryBusy = true
        primary.with { state in state.context.start(tableRef, onMainActor: onMainActor, tracing: tracing) }
        running = primary
        return primary
    }

    @usableFromInline
    func beginSlow(_ tableRef: Borrowed<SealedTable>, onMainActor: Bool) -> Borrowed<LookupState> {
        let tracing = !inHandler && tableRef.with { $0.isTracing }
        let made: Borrowed<LookupState>
        if !primaryBusy, let primary = primary {
            primaryBusy = true
            made = primary
            primary.with {
                $0.restart(tableRef: tableRef, stackRange: stackRange, tracing: tracing)
            }
        } else {
            let state = LookupState.make(tableRef, stackRange: stackRange, tracing: tracing, isAsync: false)
            if primary == nil {
                primary = unsafe Borrowed.retained(state)
                primaryBusy = true
            } else {
                nested.append(state)
            }
            made = Borrowed(state)
        }
        made.with { state in
            // A lookup nested in a main-actor one runs on the same thread, inside it.
            state.nest(
                in: running,
                onMainActor: onMainActor || (running?.with { $0.context.onMainActor } ?? false))
        }
        running = made
        return made
    }

    /// Ends the lookup `state` started by ``begin(_:onMainActor:)``, keeping the thread's primary state for the next one.
    @inlinable @inline(__always)
    func end(_ state: LookupState) {
        if unsafe state.context.outer == nil && state.isClean && primary?.opaque == running?.opaque {
            #if DEBUG
                let problems = state._checkInvariants(idle: true)
                assert(problems.isEmpty, "lookup state: \(problems.joined(separator: "; "))")
            #endif
            running = nil
            primaryBusy = false
            return
        }
        endSlow(state)
    }

    @usableFromInline
    func endSlow(_ state: LookupState) {
        running = state.context.outer
        state.reset()
        if unsafe primary?.opaque == Borrowed(state).opaque {
            primaryBusy = false
        } else if let index = nested.lastIndex(where: { $0 === state }) {
            let removed = nested.remove(at: index)
            withExtendedLifetime(removed) {}
        }
    }

    /// Runs `body` with `state` (an async lookup's, which moves between threads) as this thread's running
    /// lookup, measured against this thread's stack, then restores the lookup that was running.
    @inline(__always)
    func withRunning<Result>(_ state: LookupState, _ body: () throws -> Result) rethrows -> Result {
        let outer = running
        state.context.measureStack(stackRange)
        running = Borrowed(state)
        defer { running = outer }
        return try body()
    }

    /// Hands a failed lookup's error to `registry`'s error handler, unless a handler is already running
    /// on this thread (a handler's own failing lookup must not call it again, without end).
    @usableFromInline
    func report(_ error: any Error, to registry: RouteRegistry?) -> any Error {
        guard let registry, !inHandler, let routeError = error as? RouteError,
            let handler = registry.errorHandler
        else { return error }
        inHandler = true
        defer { inHandler = false }
        handler(routeError)
        return error
    }

    /// Calls a trace handler, with lookups it makes untraced.
    func callHandler(_ body: () -> Void) {
        guard !inHandler else { return }
        inHandler = true
        defer { inHandler = false }
        body()
    }
}

/// The identity of the running thread, for telling a re-entrant call (made by the same thread, which
/// must not wait for itself) from a concurrent one (made by another thread, which may wait).
enum CurrentThread {
    /// A number unique among the threads alive now; never 0.
    static var id: UInt {
        #if canImport(Darwin)
            UInt(bitPattern: pthread_self())
        #else
            UInt(pthread_self())
        #endif
    }

    /// Whether an executor may need this thread to run a task: it is running one now (a thread of the
    /// cooperative pool, or of any task executor), or it is the main thread (the main actor's executor).
    /// A thread for which this is true must not block waiting for a task that may be suspended.
    static var mayBeNeededByTasks: Bool {
        if unsafe withUnsafeCurrentTask(body: { unsafe $0 != nil }) { return true }
        #if canImport(Darwin)
            return pthread_main_np() != 0
        #elseif canImport(Glibc) || canImport(Musl)
            guard let threadID = Self.threadID else { return false }
            return threadID() == getpid()
        #else
            return false
        #endif
    }

    #if canImport(Glibc) || canImport(Musl)
        /// `gettid`, which the C library has but the Swift module does not export (it needs `_GNU_SOURCE`):
        /// found by name, then called through its C signature. The main thread's id is the process's.
        private static let threadID: (@convention(c) () -> pid_t)? = {
            guard let symbol = unsafe dlsym(nil, "gettid") else { return nil }
            // Sound: the symbol is the C library's `pid_t gettid(void)`, whose C signature is this type.
            return unsafe unsafeBitCast(symbol, to: (@convention(c) () -> pid_t).self)
        }()
    #endif
}
