import Synchronization

// The edges lookups really take, seen where a traced lookup builds (`Resolver.buildTraced`): recorded for
// `makeEachRegistration(supplying:)`, and checked against what the registration declared, so that the error
// handler hears the first time a registration that declared edges takes one it did not.
//
// No lookup pays for this unless it is traced: a trace handler or a recording traces every lookup of the
// family, and a factory whose registration declared edges runs traced on its first run only
// (`Entry.checkingFirstRun`).

/// The edges a `makeEachRegistration(supplying:)` call saw its lookups take, filed by the task that makes
/// them, so that lookups of other tasks are not mixed in.
final class EdgeRecorder: Sendable {
    /// The recorder of the running `makeEachRegistration(supplying:)` call, if any.
    @TaskLocal static var current: EdgeRecorder?

    /// One edge: the registration whose factory or preparation was running, and the one it asked for.
    struct Taken: Sendable {
        let dependent: AnyEntry
        let target: AnyEntry
        let inPreparation: Bool
    }

    private let taken = Locked<[Taken]>([])

    func note(_ edge: Taken) {
        taken.withLock { $0.append(edge) }
    }

    /// Every edge noted so far, in order.
    var all: [Taken] { taken.withLock { $0 } }
}

/// A reported undeclared edge: the registration (by key and position, so that its copies in override
/// layers count as the same one) and the key it took; kept by the registry, so that each is reported once.
struct ReportedEdge: Hashable, Sendable {
    let dependent: KeyID
    let dependentName: String?
    let order: Int
    let target: KeyID
    let name: String?
}

/// The undeclared edges a registry has reported (``RouteRegistry/reportedEdges``). A struct of its own, not
/// a `Set` as a lock's state: making the registry's `Locked<Set<ReportedEdge>>` asked the runtime for that
/// set's metadata, whose `Hashable` requirement it checks by scanning every conformance record in the
/// process, the first time a process makes a registry (Benchmarks/BENCHMARKS.md, "An app's first launch";
/// `scripts/check-first-launch.sh` fails on such a lookup). This type's metadata is static.
struct ReportedEdges: Sendable {
    private var seen: Set<ReportedEdge> = []

    /// Records `edge`; false if it was recorded before.
    mutating func insert(_ edge: ReportedEdge) -> Bool { seen.insert(edge).inserted }
}

extension AnyEntry {
    /// Whether the registration declared the key of `target` (as any kind of edge: an initializer, a
    /// property, a lazy or a many edge all cover the lookups of their key).
    func declaresEdge(to target: AnyEntry) -> Bool {
        dependencies.contains { $0.id == target.id && $0.key.name == target.key.name }
    }
}

extension Resolver {
    /// Notes that this lookup builds `target` for the registration whose factory or preparation is running:
    /// into the task's recording when there is one, else checked against that registration's declared
    /// edges. Out of line, and only ever called from a traced build.
    @usableFromInline
    mutating func noteTakenEdge(to target: AnyEntry) {
        guard let dependent = dependentEntry, dependent !== target else { return }
        let inPreparation = injecting > 0 && top == state.preparations.preparationTop
        if let recorder = EdgeRecorder.current {
            recorder.note(.init(dependent: dependent, target: target, inPreparation: inPreparation))
            return
        }
        guard !dependent.dependencies.isEmpty, !dependent.declaresEdge(to: target),
            let registry = table.reporter.registry
        else { return }
        registry.reportUndeclaredEdge(from: dependent, to: target, inPreparation: inPreparation)
    }

    /// The registration whose factory or preparation is running now: the object being prepared, or the
    /// innermost running factory's.
    private var dependentEntry: AnyEntry? {
        if let graph, current >= 0 { return graph.nodes[Int(current)].entryRef.object }
        return top?.entry.object
    }

    /// Runs `body` (a factory) with the lookup traced, so that the edges it takes are checked.
    mutating func withEdgesChecked<Result>(_ body: (inout Resolver) throws -> Result) rethrows -> Result {
        try state.withTracing { try body(&self) }
    }
}

extension RouteRegistry {
    /// Reports to the error handler, once per registration and key, that `dependent` took an edge to
    /// `target` that it did not declare, while it declared others.
    func reportUndeclaredEdge(from dependent: AnyEntry, to target: AnyEntry, inPreparation: Bool) {
        let edge = ReportedEdge(
            dependent: dependent.id, dependentName: dependent.key.name, order: dependent.order, target: target.id,
            name: target.key.name)
        guard reportedEdges.withLock({ $0.insert(edge) }) else { return }
        _ = report(RouteError.undeclaredEdge(from: dependent, to: target, inPreparation: inPreparation))
    }
}
