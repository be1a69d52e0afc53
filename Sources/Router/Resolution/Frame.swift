/// One running factory, kept on the call stack: the chain of frames is the lookup's path while no
/// graph exists, and becomes the graph's first nodes when one is made.
///
/// Its address is taken with `_withUnprotectedUnsafeMutablePointer`, which skips the stack protector:
/// a frame is a fixed-size value written only through its fields (never as a buffer, never past its
/// end), so the canary check, about 6 instructions per nesting level, would guard nothing. Once pushed, a
/// frame is reached only through a ``FrameRef``.
@usableFromInline
struct Frame {
    /// Unretained: the table keeps the entry alive for longer than the lookup.
    @usableFromInline let entry: Borrowed<AnyEntry>
    @usableFromInline let parent: FrameRef?
    /// The frame's node once the graph exists, else -1.
    @usableFromInline var node: Int32

    @inlinable
    init(entry: AnyEntry, parent: FrameRef?, node: Int32) {
        self.entry = Borrowed(entry)
        self.parent = parent
        self.node = node
    }
}

/// A running factory's ``Frame``, by address.
///
/// `@safe`. **The invariant: a `FrameRef` is read only while its frame is pushed.** It holds because
/// ``init(_:)`` is `@unsafe`, and it is called only in the frame scopes of `Resolver+Frames.swift`
/// (`Resolver.construct`, `constructPlain`, `constructFirst`, and `constructAsync` through
/// ``LookupState/pushAsyncFrame(_:)``), each of which pushes its
/// frame on the lookup's ``FrameStack``, hands the `FrameRef` to code that runs inside the scope, and pops
/// the frame before the scope returns (and frees a heap frame only after that). Frames are pushed and
/// popped in strict nesting, so a frame's `parent` is pushed for at least as long as it is. The only
/// copies kept are the state's own (`FrameStack.top`, `PreparationQueue.preparationTop`, and
/// ``EnteredPreparation``), each restored to an enclosing frame before the frame it names is popped; a
/// failed `@Injected` property keeps only the frame's ``address``, which is compared, never followed.
@frozen @usableFromInline @safe
struct FrameRef: Equatable {
    @usableFromInline let pointer: UnsafeMutablePointer<Frame>

    @inlinable @inline(__always) @unsafe
    init(_ pointer: UnsafeMutablePointer<Frame>) { unsafe self.pointer = unsafe pointer }

    /// The registration whose factory runs in the frame.
    @inlinable @inline(__always)
    var entry: Borrowed<AnyEntry> { unsafe pointer.pointee.entry }

    /// The enclosing factory's frame.
    @inlinable @inline(__always)
    var parent: FrameRef? { unsafe pointer.pointee.parent }

    /// The frame's node once the graph exists, else -1 (set by the state's frame operations).
    @inlinable @inline(__always)
    var node: Int32 {
        get { unsafe pointer.pointee.node }
        nonmutating set { unsafe pointer.pointee.node = newValue }
    }

    /// The frame's address, for comparing with one recorded earlier; never followed.
    @inlinable @inline(__always)
    var address: UInt { unsafe UInt(bitPattern: pointer) }

    /// Whether both are the same frame.
    @inlinable @inline(__always)
    static func == (lhs: FrameRef, rhs: FrameRef) -> Bool { lhs.address == rhs.address }
}
