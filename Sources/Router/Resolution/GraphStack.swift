/// A growable list in memory the graph owns, for the graph's per-lookup lists.
///
/// `Array` would do, but emptying an array for the next lookup goes through `replaceSubrange`, a large
/// generic call, four times per lookup; here it is a loop of destroys (none for plain values) and a store.
/// The owner frees the storage with ``free()``; a copy of a stack aliases the same storage, so a stack is
/// only ever used in place, as a stored property of its graph.
// @safe: `base` is allocated in `init` and freed by the owning graph's `free()`; every access is bounds
// checked against `count` in debug builds (see the subscripts), and a stack is never copied out of its graph.
@usableFromInline @safe
struct GraphStack<Element> {
    @usableFromInline var base: UnsafeMutablePointer<Element>
    @usableFromInline var count: Int
    @usableFromInline var capacity: Int

    init(capacity: Int) {
        unsafe base = .allocate(capacity: capacity)
        count = 0
        self.capacity = capacity
    }

    @inlinable
    var isEmpty: Bool { count == 0 }

    /// The element at `index`, which must be below `count`.
    @inlinable
    subscript(index: Int) -> Element {
        get { unsafe base[index] }
        nonmutating _modify { yield unsafe &base[index] }
    }

    @inlinable
    mutating func append(_ element: Element) {
        if count == capacity { grow() }
        unsafe (base + count).initialize(to: element)
        count += 1
    }

    mutating func append(contentsOf elements: [Element]) {
        for element in elements { append(element) }
    }

    @usableFromInline
    mutating func grow() {
        let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
        unsafe larger.moveInitialize(from: base, count: count)
        unsafe base.deallocate()
        unsafe base = unsafe larger
        capacity *= 2
    }

    /// Destroys the elements from `mark` on.
    mutating func removeSuffix(from mark: Int) {
        guard count > mark else { return }
        unsafe (base + mark).deinitialize(count: count - mark)
        count = mark
    }

    /// Destroys the elements and frees the storage; the stack must not be used afterwards.
    func free() {
        unsafe base.deinitialize(count: count)
        unsafe base.deallocate()
    }
}
