import Synchronization

/// The immutable lookup structure a registry publishes when it is sealed: an open-addressing table from
/// key identity to registrations, so a lookup hashes a few machine words and never a string or type name.
@usableFromInline
final class SealedTable: @unchecked Sendable {
    // @unchecked: built completely before it is published, never mutated afterwards.
    @usableFromInline
    struct Bucket {
        @usableFromInline let id: KeyID
        /// The registration a single lookup gets: the only one, or the default; nil when ambiguous.
        @usableFromInline let primary: AnyEntry?
        let all: [AnyEntry]
    }

    let buckets: [Bucket]
    /// The buckets' keys and primaries in arrays of their own, so that a probe copies nothing it does
    /// not compare or return.
    @usableFromInline let keys: ContiguousArray<KeyID>
    /// The primaries, unretained: `buckets` keeps them alive as long as the table lives, and a lookup that
    /// borrows them writes nothing to their reference counts, which several threads would fight over.
    @usableFromInline let primaries: ContiguousArray<Unmanaged<AnyEntry>?>
    @usableFromInline let slots: ContiguousArray<Int32>
    @usableFromInline let mask: Int
    @usableFromInline let maxDepth: Int
    let parent: SealedTable?
    let entries: [AnyEntry]
    let identifiers: [String: AnyEntry]
    @usableFromInline let tracer: Tracer?

    /// Whether a trace handler is installed now.
    @inlinable
    var isTracing: Bool { tracer?.enabled.load(ordering: .relaxed) ?? false }

    let paths: [PathRoute]
    /// For an override layer: the layer's own copies of the shared registrations beneath it.
    @usableFromInline let redirect: [ObjectIdentifier: AnyEntry]

    init(
        entries: [AnyEntry], parent: SealedTable?, maxDepth: Int, tracer: Tracer? = nil, paths: [PathRoute] = [],
        redirect: [ObjectIdentifier: AnyEntry] = [:]
    ) {
        self.entries = entries
        self.paths = paths
        self.redirect = redirect
        self.tracer = tracer ?? parent?.tracer
        self.parent = parent
        self.maxDepth = maxDepth
        var grouped: [KeyID: [AnyEntry]] = [:]
        var order: [KeyID] = []
        for entry in entries {
            if grouped[entry.id] == nil { order.append(entry.id) }
            grouped[entry.id, default: []].append(entry)
        }
        var buckets: [Bucket] = []
        buckets.reserveCapacity(order.count)
        for id in order {
            let all = grouped[id] ?? []
            let defaults = all.filter { $0.isDefault }
            let primary: AnyEntry? = all.count == 1 ? all[0] : (defaults.count == 1 ? defaults[0] : nil)
            buckets.append(Bucket(id: id, primary: primary, all: all))
        }
        var capacity = 8
        while capacity < buckets.count * 2 { capacity <<= 1 }
        var slots = ContiguousArray<Int32>(repeating: -1, count: capacity)
        for (index, bucket) in buckets.enumerated() {
            var slot = bucket.id.fastHash & (capacity - 1)
            while slots[slot] >= 0 { slot = (slot + 1) & (capacity - 1) }
            slots[slot] = Int32(index)
        }
        self.buckets = buckets
        self.keys = ContiguousArray(buckets.map { $0.id })
        self.primaries = ContiguousArray(buckets.map { $0.primary.map(Unmanaged.passUnretained) })
        self.slots = slots
        self.mask = capacity - 1
        var identifiers: [String: AnyEntry] = [:]
        for entry in entries {
            if let identifier = entry.identifier, identifiers[identifier] == nil { identifiers[identifier] = entry }
        }
        self.identifiers = identifiers
    }

    /// The bucket index for `id` in this table (not its parents).
    @inlinable @inline(__always)
    func bucketIndex(_ id: KeyID) -> Int? {
        // Unchecked reads: `slots` holds only -1 or indices into `keys`, and `mask` is `slots.count - 1`.
        slots.withUnsafeBufferPointer { slots in
            keys.withUnsafeBufferPointer { keys in
                var slot = id.fastHash & mask
                while true {
                    let index = Int(slots[slot])
                    if index < 0 { return nil }
                    if keys[index] == id { return index }
                    slot = (slot + 1) & mask
                }
            }
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
        return inherited + buckets[index].all
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
        if candidates.count > 1 {
            let defaults = candidates.filter { $0.isDefault }.count
            let names = candidates.map { "registration #\($0.order + 1) from \($0.owner)" }.joined(separator: ", ")
            return RouteError(
                .ambiguousRegistration, key: key.full, path: path,
                reason:
                    "\(key.full) has \(candidates.count) registrations (\(names)) and \(defaults == 0 ? "none is" : "\(defaults) are") marked as the default.",
                hint: "Mark exactly one with isDefault: true, tag the others, or look them all up with resolveAll.")
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
            for bucket in current.buckets
            where bucket.id.type == id.type && bucket.id.kind == id.kind && bucket.id != id {
                if let key = bucket.all.first?.key, !seen.contains(key) { seen.append(key) }
            }
            table = current.parent
        }
        return seen
    }
}
