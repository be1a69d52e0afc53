// MARK: - Filling and emptying a lookup's graph

extension Resolver {
    /// Records a made object in the graph and queues its preparation.
    @inlinable
    mutating func record<Destination>(_ made: Destination, _ entry: Entry<Destination>, node: Int32) {
        guard let graphRef = graphRef, node >= 0 else { return }
        graphRef.with { graph in
            let index = Int32(graph.instances.count)
            // Kept with its type (see `ResolutionGraph.Recorded`).
            let value = unsafe graph.arena.allocate(
                size: MemoryLayout<Destination>.size, alignment: MemoryLayout<Destination>.alignment)
            unsafe value.initializeMemory(as: Destination.self, to: made)
            unsafe graph.instances.append(.init(value: value, as: Destination.self))
            graph.nodes[Int(node)].instance = index
            if entry.scope.kind == .graph {
                graph.graphScoped.append((ObjectIdentifier(entry), index))
            }
            if entry.needsPreparation {
                // Unowned: the table keeps the entry alive for longer than the lookup. The object is read
                // from the graph's arena, where it stays until the lookup ends (after every preparation it
                // queued has run or been dropped): the closure holds no reference to it. (A closure that
                // captured nothing, reading the entry through a borrowed reference, saved this allocation
                // but added four frames per level to a debug build's property-injection chain, which a
                // 64 KiB thread could no longer hold three levels of.)
                graph.pending.append(
                    .init(node: node) { [unowned(unsafe) entry] resolver in
                        unsafe try resolver.prepare(value.assumingMemoryBound(to: Destination.self).pointee, entry)
                    })
            }
        }
    }

    /// A recorded object as the type of `entry`, the registration it was recorded for: a load when it
    /// was recorded as that type (always, but for a snapshot's seeded objects), a checked cast otherwise.
    @inlinable
    func recordedInstance<Destination>(_ recorded: ResolutionGraph.Recorded, _ entry: Entry<Destination>) throws
        -> Destination
    {
        // Sound: `record` initialized the value as the type `typeID` names (see `Recorded`).
        if recorded.typeID == ObjectIdentifier(Destination.self) {
            return unsafe recorded.value.assumingMemoryBound(to: Destination.self).pointee
        }
        return try cast(recorded.asAny, entry)
    }

    /// Queues a preparation for the object whose factory is running now.
    mutating func enqueuePreparation(_ run: @escaping (inout Resolver) throws -> Void) {
        if graph == nil { state.startGraph() }
        graph?.pending.append(.init(node: current, run: run))
    }

    /// Runs queued preparations from `mark` on, including those they queue, then forgets them.
    @usableFromInline
    mutating func drain(from mark: Int) throws {
        guard let graphRef = graphRef else { return }
        // Borrowed: the state owns the graph until the lookup ends.
        try graphRef.with { graph in
            defer {
                graph.removePending(from: mark)
            }
            var index = mark
            while index < graph.pending.count {
                let item = graph.pending[index]
                index += 1
                try runPending(item, graph: graph)
                if mark == 0 { state.preparations.noteCompleted(index) }
            }
        }
    }

    /// Runs one queued preparation inside the object it prepares.
    mutating func runPending(_ item: ResolutionGraph.Pending, graph: ResolutionGraph) throws {
        // A preparation's lookups are nested inside the object it prepares.
        let nested = item.node >= 0 ? Int(graph.nodes[Int(item.node)].level) + 1 : depth
        let entered = state.enterPreparation(of: item.node, depth: nested)
        defer { state.leavePreparation(entered) }
        try item.run(&self)
    }
}
