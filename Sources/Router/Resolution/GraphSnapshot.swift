/// The graph-scoped instances of one finished lookup, held weakly, for the `Lazy`s and `Provider`s that
/// lookup made: read after it has ended, they reuse the instances that are still alive instead of building
/// the graph again (Swinject's and DITranquillity's rule).
///
/// A lookup makes its snapshot when a factory or preparation first asks for a `Lazy` or `Provider`, and
/// fills it when it ends.
@usableFromInline
final class GraphSnapshot: @unchecked Sendable {
    // @unchecked: `instances` is written once, inside `lock`, when the lookup ends, and read only inside
    // `lock`; the objects are held weakly and handed out as a lookup's graph-scoped instances.
    private struct Held {
        let entry: ObjectIdentifier
        weak var object: AnyObject?
    }

    private let lock = PThreadMutex()
    private var instances: [Held] = []
    /// The request scope the lookup ran in: the `Lazy`s and `Provider`s it made look up in it too.
    let requestScope: RequestScope?

    init(requestScope: RequestScope?) {
        self.requestScope = requestScope
    }

    /// Keeps the graph-scoped instances of `graph` (class instances only: a value cannot be held weakly).
    func capture(from graph: ResolutionGraph) {
        var kept: [Held] = []
        for index in 0..<graph.graphScoped.count {
            let item = graph.graphScoped[index]
            let instance = graph.instances[Int(item.instance)].asAny
            guard type(of: instance) is AnyObject.Type else { continue }
            kept.append(Held(entry: item.entry, object: instance as AnyObject))
        }
        lock.lock()
        instances = kept
        lock.unlock()
    }

    /// The instances still alive, with their registrations.
    func alive() -> [(entry: ObjectIdentifier, object: AnyObject)] {
        lock.lock()
        defer { lock.unlock() }
        return instances.compactMap { held in held.object.map { (held.entry, $0) } }
    }
}

extension LookupState {

    /// Starts this lookup's graph with the graph-scoped instances `snapshot` kept alive, as if this lookup
    /// had built them.
    @usableFromInline
    func seed(from snapshot: GraphSnapshot) {
        if let scope = snapshot.requestScope { _ = creation.enterRequestScope(scope) }
        let alive = snapshot.alive()
        guard !alive.isEmpty else { return }
        if preparations.graphRef == nil { startGraph() }
        guard let graph else { return }
        for (entry, object) in alive {
            let index = graph.recordUntyped(object)
            graph.graphScoped.append((entry, index))
        }
    }
}
