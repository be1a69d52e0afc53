extension Resolver {
    /// Runs the registration's injections (cycle-closing ones last), then its finish hook.
    @inlinable
    mutating func prepare<Destination>(_ made: Destination, _ entry: Entry<Destination>) throws {
        // Inside a shared build's drain, a declared edge to an object an enclosing factory is still making
        // defers the whole preparation before it runs (see `deferIfWaiting`).
        if sharedFloor >= 0 { try deferIfWaiting(entry) }
        // Two passes instead of a list of the closing ones: no allocation, and `closesCycle` depends only on
        // the ancestors of the object being prepared, which the injections do not change. The first pass
        // remembers the closing ones in a bit mask (the first 64; any later ones are checked again).
        // Through a span of the array, so that no injection is copied (and its closure retained) on the way.
        // (The entry's array is a `let`: the local is a borrow, with no count written in release builds.)
        let array = entry.injections
        let injections = array.span
        do {
            var closing: UInt64 = 0
            var closesLate = false
            for index in injections.indices {
                if let dependency = injections[index].dependency, closesCycle(dependency) {
                    if index < 64 { closing |= 1 << UInt64(index) } else { closesLate = true }
                    continue
                }
                try runInjection(injections[index], made, entry)
            }
            while closing != 0 {
                let index = closing.trailingZeroBitCount
                closing &= closing - 1
                try runInjection(injections[index], made, entry)
            }
            if closesLate {
                for index in injections.indices.dropFirst(64) {
                    if let dependency = injections[index].dependency, closesCycle(dependency) {
                        try runInjection(injections[index], made, entry)
                    }
                }
            }
        }
        if let didFinish = entry.didFinish {
            do {
                try didFinish(made, &self)
            } catch {
                throw wrap(error, entry, stage: "didFinishPrepare hook")
            }
        }
    }

    @inlinable
    mutating func runInjection<Destination>(
        _ injection: Injection<Destination>, _ made: Destination, _ entry: Entry<Destination>
    ) throws {
        do {
            try injection.apply(made, &self)
        } catch {
            throw wrap(error, entry, stage: "preparation")
        }
    }

    /// Defers the preparation of `entry`'s object to the enclosing lookup's drain, before any of it runs,
    /// when one of its declared property edges leads to an object on the path, below the shared floor,
    /// whose factory has not returned: the condition under which resolving that edge would unwind the
    /// preparation (see `unbuiltAncestor`). So a preparation that declares its edges never sees the engine
    /// unwind it, and runs once, whole. Undeclared lookups are left to the lookup itself. Out of line, and
    /// reading the entry's declared edges here, so that the preparation's inlined loop stays as it was.
    @usableFromInline
    mutating func deferIfWaiting(_ entry: AnyEntry) throws {
        guard let graph else { return }
        for dependency in entry.dependencies where dependency.kind == .property {
            guard let target = table.primary(dependency.id, name: dependency.key.name),
                let found = graph.ancestor(of: current, entry: target),
                graph.nodes[Int(found)].instance < 0, found < sharedFloor
            else { continue }
            state.preparations.requestDeferral(waitingFor: found)
            throw DeferToEnclosingLookup()
        }
    }

    mutating func runCallerPreparation<Destination>(
        _ made: Destination, _ entry: Entry<Destination>, _ preparation: (Destination) throws -> Void
    ) throws {
        do {
            try preparation(made)
        } catch {
            throw wrap(error, entry, stage: "caller's preparation")
        }
    }

    /// Builds `entry` with a configuration or runtime arguments handed to its factory, then runs the
    /// caller's preparation on it (the arguments are no longer handed out by then).
    mutating func build<Destination>(
        _ entry: Entry<Destination>, input given: AnyObject?, arguments handoff: ArgumentHandoff? = nil,
        preparation: (Destination) throws -> Void = { _ in }
    ) throws -> Destination {
        // Inside a preparation, the object's own preparations run right after the caller's (see
        // `buildForPreparation`), not before it.
        let nested = injecting > 0
        let mark = pendingCount
        let made = try state.withInput(given) {
            guard let handoff else { return try state.withCallerPreparation(pending: nested) { try build(entry) } }
            return try state.withArguments(handoff) {
                try state.withCallerPreparation(pending: nested) { try build(entry) }
            }
        }
        try runCallerPreparation(made, entry, preparation)
        if nested, let graph, graph.pending.count > mark { try drain(from: mark) }
        return made
    }
}
