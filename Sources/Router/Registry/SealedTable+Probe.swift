/// Finding a key's registrations: open addressing over `slots`, probing from a key's home slot.
extension SealedTable {
    /// The first slot to probe for `id` in a table whose ``shift`` is `shift`: Fibonacci hashing (the top
    /// bits of one multiplication) of the key's words folded once with a shift.
    ///
    /// The fold matters: a key is its type's metadata pointer, and metadata made one after another lie at a
    /// fixed stride. Without it, for the benchmarks' 100 chain protocols (stride 0x1C8), 72 of 100 keys
    /// missed their home slot in a 256-slot table, so most nested lookups took the probing loop; with it, 23
    /// do, close to random keys' 19, and no stride from 8 to 4,096 bytes gives more than 34 (simulated).
    ///
    /// `multiplier` is the table's (see ``SealedTable/multiplier``): an odd 64-bit constant chosen when
    /// the table is made.
    @inlinable @inline(__always)
    static func homeSlot(_ id: KeyID, shift: Int, multiplier: UInt) -> Int {
        var bits = UInt(bitPattern: id.type) &+ UInt(id.kind.rawValue)
        switch id.qualifier {
        case .none: break
        case .tag(let tag): bits ^= UInt(bitPattern: tag) &* 0x9E37_79B9
        case .name(let name): bits ^= UInt(truncatingIfNeeded: name.number) &* 0xD6E8_FEB8_6659_FD93
        }
        return Int(bitPattern: ((bits ^ (bits &>> 7)) &* multiplier) &>> UInt(truncatingIfNeeded: shift))
    }

    /// The bucket index for `id` in this table (not its parents).
    @inlinable @inline(__always)
    func bucketIndex(_ id: KeyID) -> Int? {
        // Unchecked reads: `slots` holds only -1 or indices into `keys`, and `mask` is `slots.count - 1`.
        unsafe slots.withUnsafeBufferPointer { slots in
            unsafe keys.withUnsafeBufferPointer { keys in
                var slot = Self.homeSlot(id, shift: shift, multiplier: multiplier)
                while true {
                    let index = unsafe Int(slots[slot])
                    if index < 0 { return nil }
                    if unsafe keys[index] == id { return index }
                    slot = (slot + 1) & mask
                }
            }
        }
    }

    /// ``primaryRef(_:)`` with its most common case inline: the key sits in its first slot (in a table at
    /// most half full, most keys do). Anything else (a collision, a miss, a parent's key) takes the call.
    @inlinable @inline(__always)
    func primaryRefInline(_ id: KeyID) -> Borrowed<AnyEntry>? {
        // Unchecked reads: `slots` holds only -1 or indices into `keys` (and `primaries`, of the same
        // count), and the home slot is below `slots.count` because `shift` is 64 - log2(slots.count).
        let index = unsafe Int(
            slots.withUnsafeBufferPointer { unsafe $0[Self.homeSlot(id, shift: shift, multiplier: multiplier)] })
        if unsafe index >= 0 && keys.withUnsafeBufferPointer({ unsafe Self.same($0[index], id) }) {
            return unsafe primaries.withUnsafeBufferPointer { unsafe $0[index] }
        }
        return unsafe primaryRef(id)
    }

    /// `a == b`, written out so that it inlines: the synthesized `==` of ``KeyID`` is a call.
    @inlinable @inline(__always)
    static func same(_ a: KeyID, _ b: KeyID) -> Bool {
        guard a.type == b.type && a.kind == b.kind else { return false }
        switch (a.qualifier, b.qualifier) {
        case (.none, .none): return true
        case (.tag(let x), .tag(let y)): return x == y
        case (.name(let x), .name(let y)): return x.number == y.number
        default: return false
        }
    }

    /// The registration a single lookup of `id` gets, searching parents; nil when missing or ambiguous.
    ///
    /// Unretained: this table (or, for an inherited one, its parent or redirect map) keeps it alive, so
    /// it is valid for as long as the caller keeps the table alive.
    @inlinable
    func primaryRef(_ id: KeyID) -> Borrowed<AnyEntry>? {
        if let index = bucketIndex(id) { return unsafe primaries.withUnsafeBufferPointer { unsafe $0[index] } }
        return unsafe inheritedPrimary(id)
    }

    /// The registration a single lookup of `id` gets from the parents, redirected for an override layer.
    @usableFromInline
    func inheritedPrimary(_ id: KeyID) -> Borrowed<AnyEntry>? {
        guard let inherited = unsafe parent?.primaryRef(id) else { return nil }
        guard !redirect.isEmpty, let copy = unsafe redirect[ObjectIdentifier(inherited.object)] else {
            return unsafe inherited
        }
        return unsafe Borrowed(copy)
    }

    /// The registration a single lookup of `id` gets, searching parents; nil when missing or ambiguous.
    func primary(_ id: KeyID) -> AnyEntry? {
        unsafe primaryRef(id)?.object
    }

    func hasRegistration(_ id: KeyID) -> Bool {
        bucketIndex(id) != nil || (parent?.hasRegistration(id) ?? false)
    }

    // MARK: Named keys: the hash finds the slot, the text decides

    /// ``primaryRefInline(_:)`` for a key that may be named: a registration found for a named key counts
    /// only if its name's text is `name` (two names may share a hash). Unnamed keys pay one nil check.
    @inlinable @inline(__always)
    func primaryRefInline(_ id: KeyID, name: String?) -> Borrowed<AnyEntry>? {
        let found = unsafe primaryRefInline(id)
        guard let name else { return unsafe found }
        return unsafe Self.named(found, name)
    }

    /// ``primaryRef(_:)`` for a key that may be named (see ``primaryRefInline(_:name:)``).
    @inlinable
    func primaryRef(_ id: KeyID, name: String?) -> Borrowed<AnyEntry>? {
        let found = unsafe primaryRef(id)
        guard let name else { return unsafe found }
        return unsafe Self.named(found, name)
    }

    /// ``primary(_:)`` for a key that may be named.
    func primary(_ id: KeyID, name: String?) -> AnyEntry? {
        unsafe primaryRef(id, name: name)?.object
    }

    /// ``hasRegistration(_:)`` for a key that may be named.
    func hasRegistration(_ id: KeyID, name: String?) -> Bool {
        guard let name else { return hasRegistration(id) }
        return unsafe primaryRef(id, name: name) != nil || allEntries(for: id).contains { $0.key.name == name }
    }

    /// ``SealedTable/allEntries(for:)`` for a key that may be named: only the registrations of that text.
    func allEntries(for id: KeyID, name: String?) -> [AnyEntry] {
        let all = allEntries(for: id)
        guard let name else { return all }
        return all.filter { $0.key.name == name }
    }

    /// `found` if its registration's name is `name`.
    @usableFromInline
    static func named(_ found: Borrowed<AnyEntry>?, _ name: String) -> Borrowed<AnyEntry>? {
        guard let found = unsafe found, unsafe found.object.key.name == name else { return nil }
        return unsafe found
    }
}
