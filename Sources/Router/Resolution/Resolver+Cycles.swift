extension Resolver {
    /// If `entry` already has an object on the current path, returns it (a property edge closing a cycle)
    /// or throws (an initializer-only cycle: the object does not exist yet).
    @inlinable
    mutating func closeCycle<Destination>(
        _ entry: Entry<Destination>, in graph: ResolutionGraph
    ) throws -> Destination? {
        guard let found = graph.ancestor(of: current, entry: entry) else { return nil }
        let instance = graph.nodes[Int(found)].instance
        if instance >= 0 {
            // What is being built now refers to an ancestor that is not finished yet.
            state.preparations.noteReachedUnfinishedAncestor(found)
            return try recordedInstance(graph.instances[Int(instance)], entry)
        }
        throw unbuiltAncestor(found, entry: entry, in: graph)
    }

    /// The error for a cycle that reaches an object whose initializer has not returned: a deferral to the
    /// enclosing lookup's drain, or an initializer-only cycle.
    @usableFromInline
    func unbuiltAncestor(_ found: Int32, entry: AnyEntry, in graph: ResolutionGraph) -> any Error {
        if sharedFloor >= 0 && found < sharedFloor {
            state.preparations.requestDeferral(waitingFor: found)
            return DeferToEnclosingLookup()
        }
        let path = graph.path(to: current)
        let start = max(0, path.count - cycleLength(from: found, graph: graph))
        return RouteError.circular(Array(path[start...]) + [entry.key.short], entry: entry)
    }

    private func cycleLength(from ancestor: Int32, graph: ResolutionGraph) -> Int {
        var length = 1
        var index = current
        while index >= 0 && index != ancestor {
            length += 1
            index = graph.nodes[Int(index)].parent
        }
        return length
    }

    /// Whether the key of `dependency` has an object among the ancestors of the object being prepared.
    @usableFromInline
    func closesCycle(_ dependency: RouteDependency) -> Bool {
        guard let graphRef = graphRef, current >= 0,
            let target = tableRef.with({ $0.primaryRef(dependency.id, name: dependency.key.name) })
        else { return false }
        // Everything borrowed: this runs for every injection of every prepared object.
        return graphRef.with { graph in
            target.with { target in
                graph.ancestor(of: graph.parent(of: current), entry: target) != nil
            }
        }
    }

    /// An instance recorded in the graph as the registration's destination type. The graph records only
    /// what an `Entry<Destination>` made, so this never fails; it is checked because it is cheap off the
    /// hot path and a wrong answer must never be returned.
    @inlinable
    func cast<Destination>(_ instance: Any, _ entry: Entry<Destination>) throws -> Destination {
        guard let typed = instance as? Destination else {
            throw RouteError.castFailure(entry, expected: Destination.self)
        }
        return typed
    }

    // MARK: Paths

    /// The names of the objects being built, outermost first.
    func runningPath() -> [String] {
        if let graph, current >= 0 { return graph.path(to: current) }
        var names: [String] = []
        var cursor = top
        while let frame = cursor {
            names.append(frame.entry.object.key.short)
            cursor = frame.parent
        }
        return names.reversed()
    }

    /// The path from the outermost object to a key about to be looked up.
    @usableFromInline
    func pathTo(_ last: String) -> [String] {
        runningPath() + [last]
    }

    /// The path to the object whose factory is running now (for errors raised inside a factory).
    func pathHere(_ fallback: String) -> [String] {
        let path = runningPath()
        return path.isEmpty ? [fallback] : path
    }

    // MARK: Errors

    /// Turns what a factory, preparation or hook threw into a ``RouteError`` with the path.
    @usableFromInline
    mutating func wrap(_ error: any Error, _ entry: AnyEntry, stage: String) -> any Error {
        // `mutating` only so that inlined callers pass the resolver by reference (no copy per level).
        // A factory that threw (the top frame) drops the `@Injected` failure recorded for it, if any: its own
        // error is the one reported, and no record of a frame that no longer exists may stay behind. Here,
        // in the call the throwing path already makes, so the hot path's code is unchanged.
        if state.hasFailedInjection && stage == "factory" { _ = state.takeFailedInjection(in: top) }
        if error is RouteError || error is DeferToEnclosingLookup { return error }
        if let mismatch = error as? RootMismatch {
            return mismatch.routeError(key: entry.key, path: pathHere(entry.key.short))
        }
        if error is NotOnMainActor { return RouteError.mainActorRequired(entry.key, path: pathHere(entry.key.short)) }
        return RouteError.wrapping(error, entry, stage: stage, path: pathHere(entry.key.short))
    }

    /// The error for a build the depth guard stops: a cycle if the path repeats a key, else too deep.
    @usableFromInline
    mutating func tooDeep(_ entry: AnyEntry) -> RouteError {
        let path = pathTo(entry.key.short)
        // An initializer-only cycle recurses until the guard: report the cycle, not the depth.
        var lastSeen: [String: Int] = [:]
        for (index, name) in path.enumerated() {
            if let previous = lastSeen[name] {
                return RouteError.circular(Array(path[previous...index]), entry: entry)
            }
            lastSeen[name] = index
        }
        let byCount = depth >= maxDepth
        return RouteError.tooDeep(
            entry, path: path, maxDepth: maxDepth, stackSize: byCount ? nil : ThreadContext.current.stackSize)
    }
}

/// Thrown inside a shared instance's preparations when one needs an object that an enclosing factory is
/// still building: the preparation moves to the enclosing lookup's queue, and the shared instance is
/// published once it has run. Never escapes a lookup. What decides is ``PreparationQueue/deferralRequested``,
/// set beside it: this error only unwinds the preparation, and user code that catches it changes nothing.
struct DeferToEnclosingLookup: Error {}
