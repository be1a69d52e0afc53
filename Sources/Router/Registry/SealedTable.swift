import Synchronization

/// The immutable lookup structure a registry publishes when it is sealed: an open-addressing table from
/// key identity to registrations, so a lookup hashes a few machine words and never a string or type name.
///
/// `@safe`: the probe (``bucketIndex(_:)``, ``primaryRefInline(_:)``, ``primaryRef(_:)``) reads `slots`,
/// `keys` and `primaries` without bounds checks. It is in bounds for every caller because the table is
/// built once, in `init`, and its fields are constants: `slots.count` is a power of two, `shift` is
/// `64 - log2(slots.count)` (so a home slot is below `slots.count`) and `mask` is `slots.count - 1`, and
/// every slot holds -1 or an index below `keys.count`, which is `primaries.count`. Its `Borrowed` fields
/// name their owners beside their declarations.
@usableFromInline @safe
final class SealedTable: @unchecked Sendable {
    // @unchecked: built completely before it is published, never mutated afterwards.

    /// The keys of the buckets, one bucket per distinct key in the order keys were first registered; a
    /// probe compares only these.
    @usableFromInline let keys: ContiguousArray<KeyID>
    /// Each bucket's primary, the registration a single lookup gets: the only one, or the default; nil
    /// when ambiguous. Unretained: `entries` keeps them alive as long as the table lives, and a lookup that
    /// borrows them writes nothing to their reference counts, which several threads would fight over.
    @usableFromInline let primaries: ContiguousArray<Borrowed<AnyEntry>?>
    @usableFromInline let slots: ContiguousArray<Int32>
    @usableFromInline let mask: Int
    /// `64 - log2(slots.count)`: a key's first slot is the top bits of its hash (see
    /// ``homeSlot(_:shift:multiplier:)``).
    @usableFromInline let shift: Int
    /// The hash's multiplier, chosen when the table is made: of a few odd constants, the one that leaves
    /// the fewest keys out of their home slot (a small table usually gets none), so that a lookup's probe
    /// is one comparison whatever addresses the keys' types happen to have in this build.
    @usableFromInline let multiplier: UInt
    /// ``ThreadContextKey/key``, copied when the table is made, so that a lookup finds its thread's context
    /// without the `swift_once` check that reading the static costs.
    @usableFromInline let contextSlot: ThreadContextKey.Slot?
    @usableFromInline let maxDepth: Int
    /// An idle async lookup's state and binding, which the last async lookup of this table gave back, for
    /// the next one (see ``AsyncLookupBinding/take(for:stackRange:)``).
    let spareAsyncLookup = SpareSlot()
    let parent: SealedTable?
    let entries: [AnyEntry]
    /// The registrations grouped by bucket, each bucket's in registration order: see ``members(ofBucket:)``.
    /// When no key has two registrations this is `entries` itself, and bucket `b` holds `entries[b]`.
    private let grouped: [AnyEntry]
    /// Where each bucket starts in `grouped`, followed by the end of the last; empty when no key has two
    /// registrations (then every bucket holds one, at its own index).
    private let starts: [Int32]
    let identifiers: [String: AnyEntry]
    /// This table's shared registrations that it holds the instance of (see ``AnyEntry/isHeldByItsTable``)
    /// by each key they declare a dependency on (not `.many`): what a child registry that registers one of
    /// those keys is warned about when it seals (``RouteError/Code/overrideNotSeenByParent``).
    let sharedDependents: [KeyID: [AnyEntry]]
    /// What this table's registrations (not its parents') use.
    let features: Features
    @usableFromInline let tracer: Tracer?
    /// `tracer`, unretained (the table keeps it alive), so that checking it on every lookup writes no
    /// reference count.
    @usableFromInline let tracerRef: Borrowed<Tracer>?

    /// Whether a trace handler is installed now.
    @inlinable
    var isTracing: Bool { tracerRef?.with { $0.enabled.load(ordering: .relaxed) } ?? false }

    let paths: [PathRoute]
    /// For an override layer: the layer's own copies of the shared registrations beneath it.
    @usableFromInline let redirect: [ObjectIdentifier: AnyEntry]
    /// For an override layer (and the views of child registries made over it): whether its
    /// `withOverrides` call is still running.
    let layer: OverrideLayer?

    /// What a table's registrations use, noted while building it, so that sealing skips the checks and
    /// steps that would find nothing to look at.
    struct Features {
        /// Some registration has an identifier.
        var identifiers = false
        /// Some registration is a module whose configuration sealing checks.
        var configurations = false
        /// Some registration declares dependencies (explicitly or through its injections).
        var dependencies = false
        /// Some registration is exclusive.
        var exclusive = false
        /// Some registration has a scope other than transient, graph or singleton (which async factories
        /// do not support).
        var otherScopes = false
        /// Some registration is an eager singleton.
        var eagerSingletons = false
        /// Some registration's factory runs on the main actor.
        var mainActor = false
    }

    /// Builds the table in one pass over `entries` when no key is registered twice (the common case), with
    /// no hashing beyond ``homeSlot(_:shift:)`` and no per-key allocation.
    /// Whether this table or a parent has a named registration: only then can a named key's hash find a
    /// registration of another name, so only then do lookups compare names' texts.
    @usableFromInline let hasNamedKeys: Bool

    /// The registry whose error handler sees the failures of lookups that start from this table without a
    /// registry call (a `Lazy` read, a `Provider` call): held weakly, as the registry holds the table.
    @usableFromInline
    let reporter: WeakRegistry

    init(
        entries: [AnyEntry], parent: SealedTable?, maxDepth: Int, tracer: Tracer? = nil, paths: [PathRoute] = [],
        redirect: [ObjectIdentifier: AnyEntry] = [:], layer: OverrideLayer? = nil, reporter: RouteRegistry? = nil
    ) {
        self.reporter = WeakRegistry(reporter)
        self.hasNamedKeys =
            (parent?.hasNamedKeys ?? false)
            || entries.contains { entry in
                if case .name = entry.id.qualifier { return true }
                return false
            }
        self.layer = layer
        self.entries = entries
        self.paths = paths
        self.redirect = redirect
        self.tracer = tracer ?? parent?.tracer
        self.tracerRef = self.tracer.map(Borrowed.init)
        self.parent = parent
        self.maxDepth = maxDepth
        self.contextSlot = ThreadContextKey.key
        let count = entries.count
        var capacity = Self.capacity(for: count)
        var slots = ContiguousArray<Int32>(repeating: -1, count: capacity)
        var keys = ContiguousArray<KeyID>()
        keys.reserveCapacity(count)
        // The bucket of each entry; left empty while no key has repeated, when bucket `i` is entry `i`.
        var bucketOf: [Int32] = []
        var identifiers: [String: AnyEntry] = [:]
        var sharedDependents: [KeyID: [AnyEntry]] = [:]
        var features = Features()
        var primaries = ContiguousArray<Borrowed<AnyEntry>?>()
        primaries.reserveCapacity(count)
        // Indices rather than `enumerated()`, which would retain and release every entry.
        for position in entries.indices {
            let entry = entries[position]
            if let identifier = entry.identifier {
                features.identifiers = true
                if identifiers[identifier] == nil { identifiers[identifier] = entry }
            }
            if entry.configurationConforms != nil { features.configurations = true }
            if !entry.dependencies.isEmpty {
                features.dependencies = true
                if entry.isHeldByItsTable {
                    for dependency in entry.dependencies where dependency.kind != .many {
                        if sharedDependents[dependency.id]?.last !== entry {
                            sharedDependents[dependency.id, default: []].append(entry)
                        }
                    }
                }
            }
            if entry.isExclusive { features.exclusive = true }
            if entry.isMainActor { features.mainActor = true }
            switch entry.scope.kind {
            case .transient, .graph, .singleton: break
            case .eagerSingleton:
                features.otherScopes = true
                features.eagerSingletons = true
            case .weakSingleton, .custom, .request, .supplied: features.otherScopes = true
            }
            let id = entry.id
            var slot = Self.homeSlot(id, shift: Self.shift(for: capacity), multiplier: Self.multipliers[0])
            var bucket = -1
            while true {
                let index = Int(slots[slot])
                if index < 0 { break }
                if keys[index] == id {
                    bucket = index
                    break
                }
                slot = (slot + 1) & (capacity - 1)
            }
            if bucket < 0 {
                bucket = keys.count
                slots[slot] = Int32(truncatingIfNeeded: bucket)
                keys.append(id)
                // The primary while the key has one registration; repeated keys are settled below.
                primaries.append(Borrowed(entry))
            }
            if bucketOf.isEmpty && bucket != position {
                // The first repeated key: record the identity mapping so far.
                bucketOf.reserveCapacity(count)
                for earlier in 0..<position { bucketOf.append(Int32(truncatingIfNeeded: earlier)) }
            }
            if !bucketOf.isEmpty { bucketOf.append(Int32(truncatingIfNeeded: bucket)) }
        }
        if bucketOf.isEmpty {
            self.grouped = entries
            self.starts = []
        } else {
            let (grouped, starts) = Self.group(entries, bucketOf: bucketOf, bucketCount: keys.count)
            for bucket in keys.indices where starts[bucket + 1] - starts[bucket] > 1 {
                let members = grouped[Int(starts[bucket])..<Int(starts[bucket + 1])]
                primaries[bucket] = Self.primary(of: members).map(Borrowed.init)
            }
            self.grouped = grouped
            self.starts = starts
            // Repeated keys make fewer buckets than entries: size the table for the buckets.
            let wanted = Self.capacity(for: keys.count)
            if wanted != capacity {
                capacity = wanted
                slots = Self.layout(keys, capacity: capacity, multiplier: Self.multipliers[0]).slots
            }
        }
        var multiplier = Self.multipliers[0]
        // A small table tries the other multipliers while keys are out of their home slot (a large one
        // keeps the first: trying costs a pass over its keys each, at sealing).
        if keys.count <= 64 {
            var best = Self.layout(keys, capacity: capacity, multiplier: multiplier)
            for candidate in Self.multipliers.dropFirst() where best.displaced > 0 {
                let tried = Self.layout(keys, capacity: capacity, multiplier: candidate)
                if tried.displaced < best.displaced {
                    best = tried
                    multiplier = candidate
                }
            }
            slots = best.slots
        }
        self.multiplier = multiplier
        self.keys = keys
        self.primaries = primaries
        self.slots = slots
        self.mask = capacity - 1
        self.shift = Self.shift(for: capacity)
        self.identifiers = identifiers
        self.sharedDependents = sharedDependents
        self.features = features
    }

    /// The multipliers a table may hash with (odd, with well-mixed bits); the first is the golden ratio's.
    static let multipliers: [UInt] = [
        0x9E37_79B9_7F4A_7C15, 0xC2B2_AE3D_27D4_EB4F, 0x1656_67B1_9E37_79F9, 0xD6E8_FEB8_6659_FD93,
        0xFF51_AFD7_ED55_8CCD, 0xC4CE_B9FE_1A85_EC53, 0x94D0_49BB_1331_11EB, 0xBF58_476D_1CE4_E5B9,
    ]

    /// The slots of `keys` (in bucket order) in a table of `capacity` slots hashed with `multiplier`, and
    /// how many keys are not in their home slot.
    private static func layout(
        _ keys: ContiguousArray<KeyID>, capacity: Int, multiplier: UInt
    ) -> (slots: ContiguousArray<Int32>, displaced: Int) {
        var slots = ContiguousArray<Int32>(repeating: -1, count: capacity)
        var displaced = 0
        let shift = Self.shift(for: capacity)
        for index in keys.indices {
            var slot = Self.homeSlot(keys[index], shift: shift, multiplier: multiplier)
            if slots[slot] >= 0 { displaced += 1 }
            while slots[slot] >= 0 { slot = (slot + 1) & (capacity - 1) }
            slots[slot] = Int32(truncatingIfNeeded: index)
        }
        return (slots, displaced)
    }

    /// The slot count for `buckets` buckets: a power of two, at least 8, at most a quarter full. (A lookup
    /// whose key is not in its home slot leaves the inlined path for the probing loop: with random keys,
    /// 16–24 % of keys miss it in a table half full, 8–12 % in one a quarter full. A slot is 4 bytes, so
    /// 10,000 keys take 256 KB.)
    private static func capacity(for buckets: Int) -> Int {
        var capacity = 8
        while capacity < buckets * 4 { capacity <<= 1 }
        return capacity
    }

    /// The ``shift`` of a table with `capacity` slots (a power of two).
    private static func shift(for capacity: Int) -> Int {
        64 - capacity.trailingZeroBitCount
    }

    /// `entries` ordered by bucket (stably), and where each bucket starts, followed by the end.
    private static func group(
        _ entries: [AnyEntry], bucketOf: [Int32], bucketCount: Int
    ) -> (grouped: [AnyEntry], starts: [Int32]) {
        var starts = [Int32](repeating: 0, count: bucketCount + 1)
        for bucket in bucketOf { starts[Int(bucket) + 1] += 1 }
        for bucket in 0..<bucketCount { starts[bucket + 1] += starts[bucket] }
        var next = starts
        var order = [Int](repeating: 0, count: entries.count)
        for (position, bucket) in bucketOf.enumerated() {
            order[Int(next[Int(bucket)])] = position
            next[Int(bucket)] += 1
        }
        return (order.map { entries[$0] }, starts)
    }

    /// The registration a single lookup gets among one key's: the only one, or the only default. A lookup
    /// without arguments cannot make a registration that takes some, so when the key has both kinds (Swinject's
    /// `register(T.self)` beside `register(T.self) { r, name in … }`), it picks among those that take none.
    private static func primary(of members: ArraySlice<AnyEntry>) -> AnyEntry? {
        if members.count == 1 { return members.first }
        let plain = members.filter { $0.argumentTypes == nil }
        let candidates = plain.isEmpty ? Array(members) : plain
        if candidates.count == 1 { return candidates.first }
        var found: AnyEntry?
        var defaults = 0
        for member in candidates where member.isDefault {
            defaults += 1
            found = member
        }
        return defaults == 1 ? found : nil
    }

    /// Whether some registration of this table or of its parents runs on the main actor.
    var hasMainActorRegistrations: Bool {
        features.mainActor || (parent?.hasMainActorRegistrations ?? false)
    }

    /// Whether some key has more than one registration in this table (not its parents).
    var hasRepeatedKeys: Bool { !starts.isEmpty }

    /// The registrations of bucket `index` (an index into `keys`), in registration order.
    func members(ofBucket index: Int) -> ArraySlice<AnyEntry> {
        if starts.isEmpty { return grouped[index..<index + 1] }
        return grouped[Int(starts[index])..<Int(starts[index + 1])]
    }

    /// Every registration of `id`, the parent's first.
    func allEntries(for id: KeyID) -> [AnyEntry] {
        let inherited = (parent?.allEntries(for: id) ?? []).map { redirect[ObjectIdentifier($0)] ?? $0 }
        guard let index = bucketIndex(id) else { return inherited }
        return inherited + members(ofBucket: index)
    }

    func entry(identifier: String) -> AnyEntry? {
        if let own = identifiers[identifier] { return own }
        return parent?.entry(identifier: identifier).map { redirect[ObjectIdentifier($0)] ?? $0 }
    }

    /// Every registration of this table and its parents, parents first.
    var allEntriesInChain: [AnyEntry] {
        (parent?.allEntriesInChain ?? []) + entries
    }

    /// The path routes of this table and its parents, the parent's first.
    var allPaths: [PathRoute] {
        (parent?.allPaths ?? []) + paths
    }

    var allIdentifiers: [String] {
        Array(Set(identifiers.keys).union(parent?.allIdentifiers ?? [])).sorted()
    }
}

extension SealedTable {
    /// Whether `entry` is this table's: one of its registrations, or, for an override layer (or a child's
    /// view over one), its own copy of a shared registration beneath it.
    func holds(_ entry: AnyEntry) -> Bool {
        if let index = bucketIndex(entry.id), members(ofBucket: index).contains(where: { $0 === entry }) {
            return true
        }
        return !redirect.isEmpty && redirect.values.contains { $0 === entry }
    }

    /// The table whose registrations build `entry`'s shared instance: the nearest of this table and its
    /// parents that holds it (see ``holds(_:)``); nil when none does.
    func owner(of entry: AnyEntry) -> SealedTable? {
        var cursor: SealedTable? = self
        while let table = cursor {
            if table.holds(entry) { return table }
            cursor = table.parent
        }
        return nil
    }

    /// This table, or, for an override layer whose `withOverrides` call has returned, the nearest table
    /// beneath it that is still in force: a task that outlives `withOverrides` never sees its fakes.
    var inForce: SealedTable {
        var table = self
        while let layer = table.layer, !layer.isActive, let beneath = table.parent { table = beneath }
        return table
    }
}

/// A weak reference to a registry, for the table it sealed.
@usableFromInline
final class WeakRegistry: Sendable {
    /// The registry, while it exists.
    @usableFromInline
    weak let registry: RouteRegistry?

    init(_ registry: RouteRegistry?) { self.registry = registry }
}

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
        return primaryRef(id)
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
        return inheritedPrimary(id)
    }

    /// The registration a single lookup of `id` gets from the parents, redirected for an override layer.
    @usableFromInline
    func inheritedPrimary(_ id: KeyID) -> Borrowed<AnyEntry>? {
        guard let inherited = parent?.primaryRef(id) else { return nil }
        guard !redirect.isEmpty, let copy = redirect[ObjectIdentifier(inherited.object)] else {
            return inherited
        }
        return Borrowed(copy)
    }

    /// The registration a single lookup of `id` gets, searching parents; nil when missing or ambiguous.
    func primary(_ id: KeyID) -> AnyEntry? {
        primaryRef(id)?.object
    }

    func hasRegistration(_ id: KeyID) -> Bool {
        bucketIndex(id) != nil || (parent?.hasRegistration(id) ?? false)
    }

    // MARK: Named keys: the hash finds the slot, the text decides

    /// ``primaryRefInline(_:)`` for a key that may be named: a registration found for a named key counts
    /// only if its name's text is `name` (two names may share a hash). Unnamed keys pay one nil check.
    @inlinable @inline(__always)
    func primaryRefInline(_ id: KeyID, name: String?) -> Borrowed<AnyEntry>? {
        let found = primaryRefInline(id)
        guard let name else { return found }
        return Self.named(found, name)
    }

    /// ``primaryRef(_:)`` for a key that may be named (see ``primaryRefInline(_:name:)``).
    @inlinable
    func primaryRef(_ id: KeyID, name: String?) -> Borrowed<AnyEntry>? {
        let found = primaryRef(id)
        guard let name else { return found }
        return Self.named(found, name)
    }

    /// ``primary(_:)`` for a key that may be named.
    func primary(_ id: KeyID, name: String?) -> AnyEntry? {
        primaryRef(id, name: name)?.object
    }

    /// ``hasRegistration(_:)`` for a key that may be named.
    func hasRegistration(_ id: KeyID, name: String?) -> Bool {
        guard let name else { return hasRegistration(id) }
        return primaryRef(id, name: name) != nil || allEntries(for: id).contains { $0.key.name == name }
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
        guard let found = found, found.object.key.name == name else { return nil }
        return found
    }
}
