/// A growable list in memory the graph owns, for the graph's per-lookup lists.
///
/// `Array` would do, but emptying an array for the next lookup goes through `replaceSubrange`, a large
/// generic call, four times per lookup; here it is a loop of destroys (none for plain values) and a store.
///
/// `@safe`. **The invariant: `base` holds `capacity` elements' memory, the first `count` initialized.** It
/// holds for every caller: the storage is allocated in `init` and freed in `deinit`, and the stack is not
/// copyable, so no second stack aliases it; `count` and `capacity` change only here; the subscript checks
/// its index against `count` (in release builds too: a `precondition`), `append` grows before it writes,
/// and `removeSuffix` and `removeLast(downTo:)` take only initialized elements.
@usableFromInline @safe
struct GraphStack<Element>: ~Copyable {
    @usableFromInline fileprivate(set) var base: UnsafeMutablePointer<Element>
    @usableFromInline fileprivate(set) var count: Int
    @usableFromInline fileprivate(set) var capacity: Int

    init(capacity: Int) {
        unsafe base = .allocate(capacity: capacity)
        count = 0
        self.capacity = capacity
    }

    @inlinable
    deinit {
        unsafe base.deinitialize(count: count)
        unsafe base.deallocate()
    }

    @inlinable
    var isEmpty: Bool { count == 0 }

    /// The element at `index`, which must be below `count` (checked).
    @inlinable
    subscript(index: Int) -> Element {
        get {
            precondition(UInt(bitPattern: index) < UInt(bitPattern: count), "GraphStack index outside its elements")
            return unsafe base[index]
        }
        _modify {
            precondition(UInt(bitPattern: index) < UInt(bitPattern: count), "GraphStack index outside its elements")
            yield unsafe &base[index]
        }
    }

    @inlinable
    mutating func append(_ element: Element) {
        if count == capacity { grow() }
        unsafe (base + count).initialize(to: element)
        count += 1
    }

    @usableFromInline
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

    /// Takes the last element out, if there are more than `mark` (at least 0): the caller releases it after
    /// this access ends.
    @inline(__always)
    mutating func removeLast(downTo mark: Int) -> Element? {
        guard count > max(mark, 0) else { return nil }
        count -= 1
        return unsafe (base + count).move()
    }

    /// Destroys the elements from `mark` on (none when `mark` is `count` or more), inside this access: for
    /// elements whose release runs no user code (``ResolutionGraph/removePending(from:)`` is for the others).
    mutating func removeSuffix(from mark: Int) {
        guard count > mark else { return }
        let kept = max(mark, 0)
        unsafe (base + kept).deinitialize(count: count - kept)
        count = kept
    }
}
