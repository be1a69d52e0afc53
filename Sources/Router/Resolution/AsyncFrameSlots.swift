/// The memory of a lookup's async factories' frames: the first ``inline`` levels in one block the state
/// keeps from lookup to lookup, deeper ones allocated each.
///
/// `@safe`. **The invariant: a frame's memory stays allocated and is not reused while the frame is
/// pushed.** It holds because only the state's ``LookupState/pushAsyncFrame(_:)`` and
/// ``LookupState/popAsyncFrame(_:)`` reach the slots, only `constructAsync` calls them, around its
/// factory, and those calls nest strictly: a state belongs to one lookup of one task at a time, and a
/// factory's own async lookups that join it run inside the factory's await. So the slots are used as a
/// stack: `push` takes the slot at `used` (or allocates past the block), `pop` gets the innermost frame
/// back and frees that slot (or that allocation). The block is freed only by `free()`, from the state's
/// `deinit`, when no frame can be pushed.
@safe
struct AsyncFrameSlots {
    /// How many levels the block holds.
    static let inline = 8
    /// The block, allocated at the first push.
    private var block: UnsafeMutablePointer<Frame>?
    /// How many slots of the block are in use.
    private var used = 0

    /// Memory holding `frame`, for the innermost async factory.
    @unsafe mutating func push(_ frame: Frame) -> UnsafeMutablePointer<Frame> {
        guard used < Self.inline else {
            let own = UnsafeMutablePointer<Frame>.allocate(capacity: 1)
            unsafe own.initialize(to: frame)
            return unsafe own
        }
        let block = unsafe self.block ?? UnsafeMutablePointer<Frame>.allocate(capacity: Self.inline)
        unsafe self.block = unsafe block
        let slot = unsafe block + used
        unsafe slot.initialize(to: frame)
        used += 1
        return unsafe slot
    }

    /// Frees `frame`, which the last ``push(_:)`` not yet popped returned.
    @unsafe mutating func pop(_ frame: UnsafeMutablePointer<Frame>) {
        unsafe frame.deinitialize(count: 1)
        if used > 0, let block = unsafe block, unsafe frame == block + (used - 1) {
            used -= 1
        } else {
            unsafe frame.deallocate()
        }
    }

    /// Frees the block; no frame may be pushed.
    @unsafe func free() {
        unsafe block?.deallocate()
    }
}
