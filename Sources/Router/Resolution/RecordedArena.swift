/// Memory for the values of a graph's recorded objects: a bump allocator over chunks that never move, so
/// a value's address stays valid until the graph rewinds the arena for its next lookup.
///
/// The first chunk is kept from lookup to lookup; chunks a large lookup added, and values larger than a
/// chunk (each in memory of its own), are freed when the arena rewinds.
///
/// `@safe`: `chunk` is allocated in `init` (and by `allocateSlow`) with `chunkSize` bytes and freed only by
/// ``rewind()`` (the extra ones) or ``free()``, which are `@unsafe` (the memory they free may hold values
/// their owner has not destroyed; the graph, the only owner, destroys every value first); `allocate` hands
/// out disjoint ranges inside it, aligned as asked; `chunk` and `offset` change only here.
@usableFromInline @safe
struct RecordedArena {
    /// The size of a chunk, in bytes: room for about a hundred class or protocol values.
    @usableFromInline static let chunkSize = 2048
    /// The chunk values are placed in now.
    @usableFromInline fileprivate(set) var chunk: UnsafeMutableRawPointer
    /// The first free byte of `chunk`.
    @usableFromInline fileprivate(set) var offset = 0
    /// The first chunk, kept for the next lookup.
    let first: UnsafeMutableRawPointer
    /// Memory to free when the arena rewinds: chunks after the first, and values larger than a chunk.
    var extra: [UnsafeMutableRawPointer] = unsafe []

    init() {
        let memory = UnsafeMutableRawPointer.allocate(byteCount: Self.chunkSize, alignment: 16)
        unsafe chunk = unsafe memory
        unsafe first = unsafe memory
    }

    /// Memory for one value of `size` bytes aligned to `alignment` (a power of two).
    @inlinable
    mutating func allocate(size: Int, alignment: Int) -> UnsafeMutableRawPointer {
        let start = (offset + alignment - 1) & ~(alignment - 1)
        if start + size <= Self.chunkSize && alignment <= 16 {
            offset = start + size
            return unsafe chunk + start
        }
        return unsafe allocateSlow(size: size, alignment: alignment)
    }

    /// ``allocate(size:alignment:)`` when the chunk is full or the value too large or too aligned for one.
    @usableFromInline
    mutating func allocateSlow(size: Int, alignment: Int) -> UnsafeMutableRawPointer {
        if size > Self.chunkSize / 4 || alignment > 16 {
            let own = UnsafeMutableRawPointer.allocate(byteCount: max(size, 1), alignment: max(alignment, 16))
            unsafe extra.append(own)
            return unsafe own
        }
        let fresh = UnsafeMutableRawPointer.allocate(byteCount: Self.chunkSize, alignment: 16)
        unsafe extra.append(fresh)
        unsafe chunk = unsafe fresh
        offset = size
        return unsafe fresh
    }

    /// Makes all the memory free again, keeping the first chunk; every value in it must be destroyed.
    @unsafe mutating func rewind() {
        unsafe chunk = unsafe first
        offset = 0
        guard unsafe !extra.isEmpty else { return }
        // By index: a `for` over pointers would need a marked loop, which the formatter does not keep apart.
        for index in unsafe extra.indices { unsafe extra[index].deallocate() }
        unsafe extra.removeAll(keepingCapacity: true)
    }

    /// Frees all the memory; every value in it must be destroyed, and the arena not used afterwards.
    @unsafe func free() {
        for index in unsafe extra.indices { unsafe extra[index].deallocate() }
        unsafe first.deallocate()
    }
}
