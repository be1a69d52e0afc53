import Synchronization

/// The immutable lookup structure a registry publishes when it is sealed: an open-addressing table from
/// key identity to registrations, so a lookup hashes a few machine words and never a string or type name.
@usableFromInline
final class SealedTable: @unchecked Sendable {
    // @unchecked: built completely before it is published, never mutated afterwards.

    /// The keys of the buckets, one bucket per distinct key in the order keys were first registered; a
    /// probe compares only these.
    @usableFromInline let keys: ContiguousArray<KeyID>
    /// Each bucket's primary, the registration a single lookup gets: the only one, or the default; nil
    /// when ambiguous. Unretained: `entries` keeps them alive as long as the table lives, and a lookup that
    /// borrows them writes nothing to their reference counts, which several threads would fight over.
    @usableFromInline let primaries: ContiguousArray<Unmanaged<AnyEntry>?>
    @usableFromInline let slots: ContiguousArray<Int32>
    @usableFromInline let mask: Int
    /// `64 - log2(slots.count)`: a key's first slot is the top bits of its hash (see ``homeSlot(_:shift:)``).
    @usableFromInline let shift: Int
    /// ``ThreadContextKey/key``, copied when the table is made, so that a lookup finds its thread's context
    /// without the `swift_once` check that reading the static costs.
    @usableFromInline let contextSlot: ThreadContextKey.Slot?
    @usableFromInline let maxDepth: Int
    let parent: SealedTable?
    let entries: [AnyEntry]
    /// The registrations grouped by bucket, each bucket's in registration order: see ``members(ofBucket:)``.
    /// When no key has two registrations this is `entries` itself, and bucket `b` holds `entries[b]`.
    private let grouped: [AnyEntry]
    /// Where each bucket starts in `grouped`, followed by the end of the last; empty when no key has two
    /// registrations (then every bucket holds one, at its own index).
    private let starts: [Int32]
    let identifiers: [String: AnyEntry]
    /// What this table's registrations (not its parents') use.
    let features: Features
    @usableFromInline let tracer: Tracer?
    /// `tracer`, unretained (the table keeps it alive), so that checking it on every lookup writes no
    /// reference count.
    @usableFromInline let tracerRef: Unmanaged<Tracer>?

    /// Whether a trace handler is installed now.
    @inlinable
    var isTracing: Bool { tracerRef?._withUnsafeGuaranteedRef { $0.enabled.load(ordering: .relaxed) } ?? false }

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
    }

    /// Builds the table in one pass over `entries` when no key is registered twice (the common case), with
    /// no hashing beyond ``homeSlot(_:shift:)`` and no per-key allocation.
    init(
        entries: [AnyEntry], parent: SealedTable?, maxDepth: Int, tracer: Tracer? = nil, paths: [PathRoute] = [],
        redirect: [ObjectIdentifier: AnyEntry] = [:], layer: OverrideLayer? = nil
    ) {
        self.layer = layer
        self.entries = entries
        self.paths = paths
        self.redirect = redirect
        self.tracer = tracer ?? parent?.tracer
        self.tracerRef = self.tracer.map(Unmanaged.passUnretained)
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
        var features = Features()
        var primaries = ContiguousArray<Unmanaged<AnyEntry>?>()
        primaries.reserveCapacity(count)
        // Indices rather than `enumerated()`, which would retain and release every entry.
        for position in entries.indices {
            let entry = entries[position]
            if let identifier = entry.identifier {
                features.identifiers = true
                if identifiers[identifier] == nil { identifiers[identifier] = entry }
            }
            if entry.configurationConforms != nil { features.configurations = true }
            if !entry.dependencies.isEmpty { features.dependencies = true }
            if entry.isExclusive { features.exclusive = true }
            switch entry.scope.kind {
            case .transient, .graph, .singleton: break
            case .eagerSingleton:
                features.otherScopes = true
                features.eagerSingletons = true
            case .weakSingleton, .custom: features.otherScopes = true
            }
            let id = entry.id
            var slot = Self.homeSlot(id, shift: Self.shift(for: capacity))
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
                primaries.append(Unmanaged.passUnretained(entry))
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
                primaries[bucket] = Self.primary(of: members).map(Unmanaged.passUnretained)
            }
            self.grouped = grouped
            self.starts = starts
            // Repeated keys make fewer buckets than entries: size the table for the buckets.
            let wanted = Self.capacity(for: keys.count)
            if wanted != capacity {
                capacity = wanted
                slots = ContiguousArray(repeating: -1, count: capacity)
                for (index, id) in keys.enumerated() {
                    var slot = Self.homeSlot(id, shift: Self.shift(for: capacity))
                    while slots[slot] >= 0 { slot = (slot + 1) & (capacity - 1) }
                    slots[slot] = Int32(truncatingIfNeeded: index)
                }
            }
        }
        self.keys = keys
        self.primaries = primaries
        self.slots = slots
        self.mask = capacity - 1
        self.shift = Self.shift(for: capacity)
        self.identifiers = identifiers
        self.features = features
    }

    /// The slot count for `buckets` buckets: a power of two, at least 8, at most half full.
    private static func capacity(for buckets: Int) -> Int {
        var capacity = 8
        while capacity < buckets * 2 { capacity <<= 1 }
        return capacity
    }

    /// The ``shift`` of a table with `capacity` slots (a power of two).
    private static func shift(for capacity: Int) -> Int {
        64 - capacity.trailingZeroBitCount
    }

    /// The first slot to probe for `id` in a table whose ``shift`` is `shift`: Fibonacci hashing, the top
    /// bits of one multiplication, which every bit of the key's words reaches. Two instructions beyond
    /// reading the key, against six for a mixing function masked to the low bits.
    @inlinable @inline(__always)
    static func homeSlot(_ id: KeyID, shift: Int) -> Int {
        var bits = UInt(bitPattern: id.type) &+ UInt(id.kind.rawValue)
        switch id.qualifier {
        case .none: break
        case .tag(let tag): bits ^= UInt(bitPattern: tag) &* 0x9E37_79B9
        case .name(let name): bits ^= UInt(truncatingIfNeeded: name.number) &* 0xD6E8_FEB8_6659_FD93
        }
        return Int(bitPattern: (bits &* 0x9E37_79B9_7F4A_7C15) &>> UInt(truncatingIfNeeded: shift))
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

    /// The registration a single lookup gets among one key's: the only one, or the only default.
    private static func primary(of members: ArraySlice<AnyEntry>) -> AnyEntry? {
        if members.count == 1 { return members.first }
        var found: AnyEntry?
        var defaults = 0
        for member in members where member.isDefault {
            defaults += 1
            found = member
        }
        return defaults == 1 ? found : nil
    }

    /// Whether some key has more than one registration in this table (not its parents).
    var hasRepeatedKeys: Bool { !starts.isEmpty }

    /// The registrations of bucket `index` (an index into `keys`), in registration order.
    func members(ofBucket index: Int) -> ArraySlice<AnyEntry> {
        if starts.isEmpty { return grouped[index..<index + 1] }
        return grouped[Int(starts[index])..<Int(starts[index + 1])]
    }

    /// The bucket index for `id` in this table (not its parents).
    @inlinable @inline(__always)
    func bucketIndex(_ id: KeyID) -> Int? {
        // Unchecked reads: `slots` holds only -1 or indices into `keys`, and `mask` is `slots.count - 1`.
        slots.withUnsafeBufferPointer { slots in
            keys.withUnsafeBufferPointer { keys in
                var slot = Self.homeSlot(id, shift: shift)
                while true {
                    let index = Int(slots[slot])
                    if index < 0 { return nil }
                    if keys[index] == id { return index }
                    slot = (slot + 1) & mask
                }
            }
        }
    }

    /// ``primaryRef(_:)`` with its most common case inline: the key sits in its first slot (in a table at
    /// most half full, most keys do). Anything else (a collision, a miss, a parent's key) takes the call.
    @inlinable @inline(__always)
    func primaryRefInline(_ id: KeyID) -> Unmanaged<AnyEntry>? {
        // Unchecked reads: `slots` holds only -1 or indices into `keys` (and `primaries`, of the same
        // count), and the home slot is below `slots.count` because `shift` is 64 - log2(slots.count).
        let index = Int(slots.withUnsafeBufferPointer { $0[Self.homeSlot(id, shift: shift)] })
        if index >= 0 && keys.withUnsafeBufferPointer({ Self.same($0[index], id) }) {
            return primaries.withUnsafeBufferPointer { $0[index] }
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
    func primaryRef(_ id: KeyID) -> Unmanaged<AnyEntry>? {
        if let index = bucketIndex(id) { return primaries.withUnsafeBufferPointer { $0[index] } }
        return inheritedPrimary(id)
    }

    /// The registration a single lookup of `id` gets from the parents, redirected for an override layer.
    @usableFromInline
    func inheritedPrimary(_ id: KeyID) -> Unmanaged<AnyEntry>? {
        guard let inherited = parent?.primaryRef(id) else { return nil }
        guard !redirect.isEmpty, let copy = redirect[ObjectIdentifier(inherited.takeUnretainedValue())] else {
            return inherited
        }
        return Unmanaged.passUnretained(copy)
    }

    /// The registration a single lookup of `id` gets, searching parents; nil when missing or ambiguous.
    func primary(_ id: KeyID) -> AnyEntry? {
        primaryRef(id)?.takeUnretainedValue()
    }

    func hasRegistration(_ id: KeyID) -> Bool {
        bucketIndex(id) != nil || (parent?.hasRegistration(id) ?? false)
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

    /// The error for a single lookup of `id` that found no unique registration.
    func missingError(_ id: KeyID, key: KeyDescription, path: [String]) -> RouteError {
        let candidates = allEntries(for: id)
        let argumentLists = candidates.compactMap(\.argumentTypes)
        if candidates.count > 1 && argumentLists.count == candidates.count {
            let lists = argumentLists.map(TypeName.arguments).joined(separator: " or ")
            return RouteError(
                .argumentMismatch, key: key.full, path: path,
                reason: "\(key.full) has \(candidates.count) registrations, and each takes arguments: \(lists).",
                hint:
                    "Look it up with makeDestination(to:arguments:) or resolve(_:arguments:); the argument types pick the registration."
            )
        }
        if candidates.count > 1 {
            let defaults = candidates.filter { $0.isDefault }.count
            let names = candidates.map { "registration #\($0.order + 1) from \($0.owner)" }.joined(separator: ", ")
            return RouteError(
                .ambiguousRegistration, key: key.full, path: path,
                reason:
                    "\(key.full) has \(candidates.count) registrations (\(names)) and \(defaults == 0 ? "none is" : "\(defaults) are") marked as the default.",
                hint: RouteError.severalRegistrationsHint)
        }
        let related = relatedKeys(of: id).map { $0.full }
        let hint =
            related.isEmpty
            ? "Register it in a RouteModule, e.g. registry.register(\(key.full.hasPrefix("RoutableServiceModule") ? "key, configuration:" : "key")) { … }."
            : "Registered for the same protocol: \(related.joined(separator: ", "))."
        return RouteError(
            .unregisteredKey, key: key.full, path: path, reason: "No router is registered for \(key.full).", hint: hint)
    }

    private func relatedKeys(of id: KeyID) -> [KeyDescription] {
        var seen: [KeyDescription] = []
        var table: SealedTable? = self
        while let current = table {
            for (index, other) in current.keys.enumerated()
            where other.type == id.type && other.kind == id.kind && other != id {
                if let key = current.members(ofBucket: index).first?.key, !seen.contains(key) { seen.append(key) }
            }
            table = current.parent
        }
        return seen
    }
}

extension SealedTable {
    /// This table, or, for an override layer whose `withOverrides` call has returned, the nearest table
    /// beneath it that is still in force: a task that outlives `withOverrides` never sees its fakes.
    var inForce: SealedTable {
        var table = self
        while let layer = table.layer, !layer.isActive, let beneath = table.parent { table = beneath }
        return table
    }
}
