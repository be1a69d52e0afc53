import Dispatch
import Foundation
import Testing

@testable import Router

// The creation protocol explored, as Rust's loom explores a concurrent type: a few simulated lookups over
// a small registry run on threads of their own, but only one at a time, and a scheduler decides at every
// event of the protocol (claim, provisional instance, finish, abandon, settle, commit, roll back) which
// lookup moves next. Every schedule is tried (a depth-first search over the scheduler's choices, each run
// replayed from the start), and each must end with every lookup finished, nothing owned or held, every
// shared instance published at most once and only when everything it reaches is prepared, every instance
// a shared factory made published or forgotten and the factory run again only after it was forgotten
// (exactly once), and no cycle error where the registry has no initializer cycle.
// `scripts/mutate-creation-machine.sh` checks that these checks fail when the machine breaks a rule.

/// A registration of the model: shared (a cell in the machine) or transient, with the registrations its
/// initializer needs and those its preparation needs.
struct ModelRegistration {
    var name: String
    var shared = true
    var initializer: [Int] = []
    var properties: [Int] = []
    /// The factory throws the first time it runs in a run.
    var failsFirst = false
    /// The preparation throws the first time it runs in a run, after its properties were set (the
    /// instance is provisional by then: group-mates may hold it).
    var preparationFailsFirst = false
    /// The factory makes its initializer's dependencies in a lookup of its own, nested in the caller's
    /// (as a factory calling another registry does): the same transaction, but its own drain, which
    /// publishes what it held when it ends (`CreationMachine.publishHeld`) and settles it when it fails
    /// (`CreationMachine.settleHeld`); the failure then goes on to the caller.
    var nested = false
    /// The factory swallows a failure of its initializer's dependencies (`try?`, a factory or preparation
    /// failing) and goes on without them: the lookup does not fail.
    var swallowsFailures = false
}

/// A model registry and the lookups that race over it.
struct ModelScenario: CustomStringConvertible {
    var name: String
    var registrations: [ModelRegistration]
    var lookups: [Int]
    /// Whether some lookup may legitimately fail (an initializer cycle or a failing factory).
    var failureExpected = false
    /// Two lookups: every schedule; three: every schedule with at most this many preemptions.
    var preemptionBound = Int.max
    /// The lookups that are async: before claiming their root they wait, suspended, while another lookup
    /// builds it (`CreationMachine.awaitRelease`), as the engine's async lookups do before a synchronous
    /// segment.
    var asyncLookups: Set<Int> = []
    /// The synchronous lookups whose thread tasks may need (a pool thread, the main thread): their claims
    /// are refused, `heldAcrossSuspension`, instead of waiting for an instance a group with an async member
    /// holds. Every other lookup may wait for anything.
    var blockingLookups: Set<Int> = []
    /// Blocking lookups that must never be refused: what they need is a group no suspension holds, as it is
    /// published as soon as it is complete (`CreationMachine.publishGroup`), not when its lookup ends.
    var neverRefused: Set<Int> = []
    /// Actors that release the shared instances while the lookups run, each doing its steps in order, one
    /// event per cell: a reset (each registration's cell released and replaced by a new generation's), a
    /// shutdown or a scope's end (the registry or scope closes, then each current cell is released).
    var releasers: [[ModelRelease]] = []

    var description: String { name }
}

/// What a releasing actor does (see ``ModelScenario/releasers``).
enum ModelRelease {
    /// `resetSingletons`: each cell is replaced by a new generation's, and the old one released.
    case reset
    /// `shutdown`: the registry closes, then each current cell is released.
    case shutdown
    /// The end of a request scope: the scope closes, then each of its cells is released.
    case endScope
}

/// What one schedule did, for the checks and for a failure's message.
final class ModelRun: @unchecked Sendable {
    // @unchecked: only the thread holding the baton touches it; the baton's semaphores order the turns.
    typealias Machine = CreationMachine<Int, Int, Int, ModelPublication, ModelFailure>

    let scenario: ModelScenario
    var machine = Machine()
    /// The published instance of each shared registration (nil: none), as the cells would hold it.
    var published: [Int: Int] = [:]
    /// The provisional instance of each shared registration being built.
    var provisional: [Int: Int] = [:]
    /// Each instance: its registration, the instances its properties point at, whether it is prepared.
    var instances: [(registration: Int, fields: [Int], prepared: Bool)] = []
    var factoryRuns: [Int: Int] = [:]
    var preparationRuns: [Int: Int] = [:]
    /// Per shared registration, the instance its factory made that is neither forgotten (discarded,
    /// abandoned) nor replaced: while there is one, the factory must not run again (exactly once).
    var live: [Int: Int] = [:]
    var results: [Int: Result<Int, ModelFailure>] = [:]
    var violations: [String] = []
    var log: [String] = []
    /// The engine's own cell of each shared registration's current generation (`SharedCell`): its
    /// publication and release decide, as they do in the engine, who tears an instance down.
    var cells: [Int: SharedCell<Int>] = [:]
    /// The cell each registration's build in progress claimed (its generation's, whatever resets since).
    var building: [Int: SharedCell<Int>] = [:]
    /// Whether the registry (or scope) is shut down: claims from now on fail.
    var closed = false
    /// How many times each instance was torn down.
    var teardowns: [Int: Int] = [:]
    /// Every instance whose publication was tried: each must be torn down exactly once by the end.
    var publicationsTried: Set<Int> = []
    /// The instances published alone (not with a group) whose publication found their generation released:
    /// their publisher tore them down, so no lookup may be served one (the engine's lookup claims again in
    /// the current generation, `SharedCreation.landed(rejected:tearsDown:)`).
    var rejectedAlone: Set<Int> = []

    init(_ scenario: ModelScenario) { self.scenario = scenario }

    /// The current generation's cell of `registration`.
    func cell(_ registration: Int) -> SharedCell<Int> {
        if let cell = cells[registration] { return cell }
        let cell = SharedCell<Int>()
        cells[registration] = cell
        return cell
    }

    /// Tears `instance` down, as its registration's teardown would.
    func tearDown(_ instance: Int, by whom: String) {
        teardowns[instance, default: 0] += 1
        log.append("tear down \(name(instances[instance].registration)) #\(instance) (\(whom))")
        if teardowns[instance] == 2 {
            violations.append(
                "\(name(instances[instance].registration)) #\(instance) torn down twice (again by \(whom))")
        }
    }

    /// Releases `cell` (see ``SharedCell/release()``): the instance it served, if any, is the releaser's to
    /// tear down.
    func release(_ registration: Int, _ cell: SharedCell<Int>, by whom: String) {
        if cell === cells[registration] { published[registration] = nil }
        guard let instance = cell.release() else { return }
        tearDown(instance, by: whom)
        forget(registration, instance)
    }

    /// `resetSingletons` for one registration: a new generation's cell, the old one released.
    func reset(_ registration: Int) {
        let old = cell(registration)
        cells[registration] = SharedCell<Int>()
        log.append("reset \(name(registration))")
        release(registration, old, by: "the reset")
        published[registration] = nil
    }

    /// Carries out a publication the machine returned, checking that what it publishes is prepared. Returns
    /// false when its generation was released while it was built (then its publisher tore it down).
    @discardableResult
    func publish(_ publication: ModelPublication) -> Bool {
        let registration = publication.registration
        let target = building[registration] ?? cell(registration)
        publicationsTried.insert(publication.instance)
        guard target.publish(publication.instance) else {
            // Its generation was released while it was built: its publisher tears it down, once.
            log.append("publish \(name(registration)) #\(publication.instance): its generation was released")
            provisional[registration] = nil
            tearDown(publication.instance, by: "its publisher")
            forget(registration, publication.instance)
            return false
        }
        if target !== cells[registration] {
            violations.append(
                "\(name(registration)) #\(publication.instance) published into a released generation's cell")
        }
        if let already = published[registration] {
            violations.append("\(name(registration)) published twice (#\(already), then #\(publication.instance))")
        }
        var seen: Set<Int> = []
        var frontier = [publication.instance]
        while let next = frontier.popLast() {
            guard seen.insert(next).inserted else { continue }
            if !instances[next].prepared {
                violations.append(
                    "\(name(registration)) #\(publication.instance) published while #\(next) (\(name(instances[next].registration))) is not prepared"
                )
            }
            frontier += instances[next].fields
        }
        if live[registration] != publication.instance {
            violations.append(
                "\(name(registration)) #\(publication.instance) published, but its live instance is \(live[registration].map { "#\($0)" } ?? "none")"
            )
        }
        published[registration] = publication.instance
        provisional[registration] = nil
        log.append("publish \(name(registration)) #\(publication.instance)")
        return true
    }

    /// Carries out what the machine published together (a group, or what a lookup held): when a member's
    /// generation was released while it was built, the whole group is torn down, by its publisher, and
    /// nothing of it is published, so no published instance holds a member torn down (a cycle built across
    /// a reset: a member claimed before it, one after). The cells still open stay open for the next build.
    func publish(group publications: [ModelPublication]) {
        let released = publications.first { (building[$0.registration] ?? cell($0.registration)).isReleased }
        guard publications.count > 1, let released else {
            for publication in publications { publish(publication) }
            return
        }
        log.append(
            "\(name(released.registration)) #\(released.instance)'s generation was released: its group is torn down")
        for publication in publications {
            publicationsTried.insert(publication.instance)
            provisional[publication.registration] = nil
            tearDown(publication.instance, by: "its publisher, with its group")
            forget(publication.registration, publication.instance)
        }
    }

    func discard(_ publication: ModelPublication) {
        provisional[publication.registration] = nil
        forget(publication.registration, publication.instance)
        log.append("discard \(name(publication.registration)) #\(publication.instance)")
    }

    func name(_ registration: Int) -> String { scenario.registrations[registration].name }

    /// A shared factory is about to run: no earlier instance of it may still be live.
    func factoryStarts(_ registration: Int) {
        guard scenario.registrations[registration].shared, let earlier = live[registration] else { return }
        violations.append(
            "\(name(registration))'s factory ran again while #\(earlier) was neither published nor forgotten")
    }

    /// The machine (or the lookup that built it) forgot `instance`: the next claim may build again.
    func forget(_ registration: Int, _ instance: Int) {
        if live[registration] == instance { live[registration] = nil }
    }
}

/// An instance the machine holds until it may be published.
struct ModelPublication {
    var registration: Int
    var instance: Int
}

/// Why a model lookup failed.
enum ModelFailure: Error, Equatable {
    /// A blocking lookup's claim was refused: an async lookup holds the instance.
    case heldByAsync
    case cycle
    case factory
    case preparation
    case group
    /// The registry (or scope) was shut down.
    case shutDown
    /// A reset released the generation of each of `RouteError.generationAttempts` builds in a row.
    case releasedDuringEveryBuild
}

/// Runs one schedule: the lookups on threads of their own, one at a time, in the order the choices say.
final class ModelScheduler: @unchecked Sendable {
    // @unchecked: `runnable`, `choices` and `decisions` are touched only by the thread holding the baton
    // or by the scheduler while every simulated thread is parked; the semaphores order the turns.
    private let turns: [DispatchSemaphore]
    private let back = DispatchSemaphore(value: 0)
    /// Per lookup: whether it may run (false while it waits for a wake-up, or when it finished).
    private var runnable: [Bool]
    private var finished: [Bool]
    private var forced: [Int]
    /// At each decision: how many lookups could run, and which one did.
    private(set) var decisions: [(options: Int, chosen: Int)] = []
    let run: ModelRun

    /// The most times a schedule may switch away from a lookup that could go on (CHESS's preemption
    /// bound); switches at waits and ends are free.
    let preemptionBound: Int

    private let workers: ModelWorkers

    init(_ scenario: ModelScenario, forced: [Int], preemptionBound: Int, workers: ModelWorkers) {
        self.preemptionBound = preemptionBound
        self.workers = workers
        run = ModelRun(scenario)
        let actors = scenario.lookups.count + scenario.releasers.count
        turns = (0..<actors).map { _ in DispatchSemaphore(value: 0) }
        runnable = Array(repeating: true, count: actors)
        finished = Array(repeating: false, count: actors)
        self.forced = forced
    }

    /// Runs every lookup to the end; returns false on a deadlock (lookups left waiting, none runnable).
    func execute() -> Bool {
        for index in run.scenario.lookups.indices {
            workers.start(index) { [self] in
                turns[index].wait()
                var lookup = ModelLookup(index: index, root: run.scenario.lookups[index], scheduler: self)
                run.results[index] = lookup.perform()
                checkInvariants()
                wakeOthers(than: index)
                finished[index] = true
                runnable[index] = false
                back.signal()
            }
        }
        for (offset, steps) in run.scenario.releasers.enumerated() {
            let index = run.scenario.lookups.count + offset
            workers.start(index) { [self] in
                turns[index].wait()
                release(index, steps)
                checkInvariants()
                finished[index] = true
                runnable[index] = false
                back.signal()
            }
        }
        var current = -1
        var preemptions = 0
        while true {
            var candidates = runnable.indices.filter { runnable[$0] }
            guard !candidates.isEmpty else { break }
            // The lookup that ran last goes on first; choosing another one preempts it.
            if let position = candidates.firstIndex(of: current) {
                candidates.remove(at: position)
                candidates.insert(current, at: 0)
                if preemptions >= preemptionBound { candidates = [current] }
            }
            let pick = min(decisions.count < forced.count ? forced[decisions.count] : 0, candidates.count - 1)
            decisions.append((candidates.count, pick))
            if pick > 0 && candidates[0] == current { preemptions += 1 }
            current = candidates[pick]
            turns[current].signal()
            back.wait()
        }
        if finished.allSatisfy({ $0 }) { return true }
        // Deadlock: release the parked threads so that they end (each sees `abandoned`).
        abandoned = true
        for index in finished.indices where !finished[index] {
            turns[index].signal()
            back.wait()
        }
        return false
    }

    /// What the binding does after an event: when the machine says a wait ended, every waiting thread
    /// wakes, except the one that made the event (it is not waiting yet).
    private func wakeOthers(than index: Int) {
        guard run.machine.takeWake() else { return }
        for other in runnable.indices where other != index && !finished[other] { runnable[other] = true }
    }

    /// After the wake-ups of an event: every other lookup still asleep must be waiting as far as the
    /// machine knows (for a cell, or for its group to end). One whose wait the machine ended but that
    /// nobody woke is a lost wake-up, even when a later event would happen to wake it.
    private func checkNoLostWakeUp(than index: Int) {
        for other in runnable.indices where other != index && !runnable[other] && !finished[other] {
            let record = run.machine.txns[other]
            let waits = record?.waitingFor != nil || (record?.waitsForGroup == true && record?.outcome == nil)
            if !waits { run.violations.append("L\(other) sleeps though the machine ended its wait (a lost wake-up)") }
        }
    }

    /// Checks the machine's invariants after the event the running lookup just made.
    private func checkInvariants() {
        for problem in run.machine.invariantViolations() { run.violations.append("invariant: \(problem)") }
    }

    /// A releasing actor: its steps, one event per cell.
    private func release(_ index: Int, _ steps: [ModelRelease]) {
        let shared = run.scenario.registrations.indices.filter { run.scenario.registrations[$0].shared }
        for step in steps {
            switch step {
            case .reset:
                for registration in shared {
                    yield(index, waiting: false)
                    run.reset(registration)
                }
            case .shutdown, .endScope:
                let what = step == .shutdown ? "shutdown" : "the scope's end"
                yield(index, waiting: false)
                run.log.append(what)
                run.closed = true
                for registration in shared {
                    yield(index, waiting: false)
                    run.release(registration, run.cell(registration), by: what)
                }
            }
        }
    }

    /// Set when a run deadlocked: parked lookups give up instead of going on.
    private(set) var abandoned = false

    /// Called by a lookup at each event: gives the baton back and waits for its next turn.
    /// `waiting`: the lookup waits for a wake-up and may not run before one.
    func yield(_ index: Int, waiting: Bool) {
        // After a deadlock, the parked lookups run to their end one by one, without turns.
        if abandoned { return }
        checkInvariants()
        wakeOthers(than: index)
        checkNoLostWakeUp(than: index)
        if waiting { runnable[index] = false }
        back.signal()
        turns[index].wait()
    }
}

/// Threads that run the simulated lookups, one per lookup, for a whole exploration.
final class ModelWorkers: Sendable {
    /// Each worker's next job (nil: end), handed over under a lock: the exploring thread fills a slot
    /// while other workers empty theirs, so the slots are never written without it. Router's pthread
    /// lock, not `Synchronization.Mutex`, which ThreadSanitizer cannot see on Linux.
    private let jobs: Locked<[(@Sendable () -> Void)?]>
    private let ready: [DispatchSemaphore]

    init(count: Int) {
        jobs = Locked(Array(repeating: nil, count: count))
        ready = (0..<count).map { _ in DispatchSemaphore(value: 0) }
        for index in 0..<count {
            let thread = Thread { [self] in
                while true {
                    ready[index].wait()
                    let job = jobs.withLock { slots in
                        defer { slots[index] = nil }
                        return slots[index]
                    }
                    guard let job else { return }
                    job()
                }
            }
            // Over four times the 256 KiB other tests ask for: the C library reuses an exited thread's
            // stack only for requests at least a quarter of its size, so these never stand in for a
            // small stack a depth-guard test measures.
            thread.stackSize = 4 << 20
            thread.start()
        }
    }

    /// Runs `job` on worker `index` (which has finished its previous job).
    func start(_ index: Int, _ job: @escaping @Sendable () -> Void) {
        jobs.withLock { $0[index] = job }
        ready[index].signal()
    }

    /// Ends every worker.
    func stop() {
        for index in ready.indices {
            jobs.withLock { $0[index] = nil }
            ready[index].signal()
        }
    }
}

/// One simulated lookup: the engine's resolver reduced to what the creation protocol sees.
struct ModelLookup {
    let index: Int
    let root: Int
    let scheduler: ModelScheduler
    typealias Machine = ModelRun.Machine
    var run: ModelRun { scheduler.run }
    var txn: Int { index }
    /// The builds in progress, outermost first: registration, instance once its factory returned, whether
    /// what it reached is unfinished (then it is held), and, in a nested lookup, whether it reached an
    /// instance of the transaction that is not published (then it is held until the outermost lookup
    /// ends); its node (the order builds began in, in this drain) and the lowest node of the unfinished
    /// objects it reached (-1: one this drain did not build), as the engine's `PreparationQueue.lowestReached`:
    /// when that is its own node or later and nothing was deferred, the build completes a group, published
    /// at once with what the drain held from its node on.
    var frames:
        [(registration: Int, instance: Int?, reachedUnfinished: Bool, reachedOuter: Bool, node: Int, lowest: Int)] =
            []
    /// How many builds this drain began (the next build's node).
    var nodes = 0
    /// The node of the last build of each shared registration in this drain whose factory returned.
    var builtNodes: [Int: Int] = [:]
    /// In a nested lookup: whether it reached an unpublished instance of the transaction outside any build
    /// (its root was one), or a build of its passed that on when it ended (the engine's
    /// `PreparationQueue.reachedOuterInstance` at the nested lookup's end).
    var reachedOuterAtTop = false
    /// Preparations deferred to the end of the lookup: (instance, registration it needs).
    var deferred: [(instance: Int, needs: Int)] = []
    /// How many of `deferred` have run (what a failed lookup reports as `completed`).
    var completed = 0
    /// The lookup whose drain holds what is built now: `index` for the outermost, another number for
    /// each nested lookup (``ModelRegistration/nested``).
    var drain: Int
    var nestedLookups = 0
    /// Set by a build whose instance, published alone, found its generation released and was torn down
    /// (the engine's client said so): the lookup claims again in the current generation.
    var builtInReleasedGeneration = false

    init(index: Int, root: Int, scheduler: ModelScheduler) {
        self.index = index
        self.root = root
        self.scheduler = scheduler
        drain = index
    }

    mutating func perform() -> Result<Int, ModelFailure> {
        do {
            let made = try resolve(root, forPreparation: false)
            try runDeferred()
            event("publishHeld") { run in
                run.publish(group: run.machine.publishHeld(index, by: index))
            }
            var outcome = eventResult { run in run.machine.commit(index) }
            while true {
                switch outcome {
                case .waitForGroup:
                    if scheduler.abandoned { return .failure(.group) }
                    scheduler.yield(index, waiting: true)
                    outcome = run.machine.outcome(of: index)
                case .ended(let publish, let discard, _, let failure):
                    run.publish(group: publish)
                    for publication in discard { run.discard(publication) }
                    if let failure { return .failure(failure) }
                    return .success(made)
                }
            }
        } catch {
            let failure = error as? ModelFailure ?? .factory
            event("rollBack") { run in
                let outcome = run.machine.rollBack(index, failure: .group, completed: [index: completed])
                if case .ended(let publish, let discard, _, _) = outcome {
                    run.publish(group: publish)
                    for publication in discard { run.discard(publication) }
                }
            }
            return .failure(failure)
        }
    }

    /// The lookup's drain: the preparations deferred to its end, including those deferred while it runs.
    mutating func runDeferred() throws {
        while completed < deferred.count {
            let item = deferred[completed]
            let value = try resolve(item.needs, forPreparation: true)
            run.instances[item.instance].fields.append(value)
            run.instances[item.instance].prepared = true
            completed += 1
        }
    }

    /// A lookup nested in this one (same transaction, a drain of its own) that makes `registration`:
    /// it publishes what it held when it ends, and settles it (publishes what is prepared, forgets the
    /// rest) when it fails, before the failure goes on.
    mutating func resolveNested(_ registration: Int) throws -> Int {
        let outer = (
            frames: frames, deferred: deferred, completed: completed, drain: drain,
            reachedOuterAtTop: reachedOuterAtTop,
            nodes: nodes, builtNodes: builtNodes
        )
        nestedLookups += 1
        frames = []
        deferred = []
        completed = 0
        drain = index + 100 * nestedLookups
        reachedOuterAtTop = false
        nodes = 0
        builtNodes = [:]
        defer { (frames, deferred, completed, drain, reachedOuterAtTop, nodes, builtNodes) = outer }
        do {
            let made = try resolve(registration, forPreparation: false)
            try runDeferred()
            event("publishHeld, nested lookup \(drain)") { run in
                run.publish(group: run.machine.publishHeld(txn, by: drain))
            }
            if reachedOuterAtTop {
                // What it returns may hold an unpublished instance: the outer build that gets it is held too.
                (frames, deferred, completed, drain, reachedOuterAtTop, nodes, builtNodes) = outer
                noteReachedGroupInstance(node: -1)
            }
            return made
        } catch {
            event("settleHeld, nested lookup \(drain) after \(completed)") { run in
                let settled = run.machine.settleHeld(txn, by: drain, completed: completed)
                run.publish(group: settled.publish)
                for publication in settled.discard { run.discard(publication) }
            }
            throw error
        }
    }

    /// A claim returned an unpublished instance of the transaction (`LookupState.noteReachedGroupInstance`):
    /// the running build reached something unfinished (built at `node` of this drain; -1: not by it), and
    /// in a nested lookup something of the outer ones.
    mutating func noteReachedGroupInstance(node: Int) {
        let nested = drain != index
        if let last = frames.indices.last {
            frames[last].reachedUnfinished = true
            frames[last].lowest = min(frames[last].lowest, node)
            if nested { frames[last].reachedOuter = true }
        } else if nested {
            reachedOuterAtTop = true
        }
    }

    /// One event of the protocol: waits for this lookup's turn, then runs `body` alone.
    func event(_ what: String, _ body: (ModelRun) -> Void) {
        scheduler.yield(index, waiting: false)
        run.log.append("L\(index) \(what)")
        body(run)
    }

    func eventResult<Result>(_ body: (ModelRun) -> Result) -> Result {
        scheduler.yield(index, waiting: false)
        return body(run)
    }

    mutating func resolve(_ registration: Int, forPreparation: Bool) throws -> Int {
        if let position = frames.lastIndex(where: { $0.registration == registration }) {
            guard let instance = frames[position].instance else {
                if forPreparation, let last = frames.indices.last {
                    frames[last].lowest = min(frames[last].lowest, frames[position].node)
                    throw Deferral()
                }
                throw ModelFailure.cycle
            }
            // A property edge closing a cycle: what is being built reached an unfinished ancestor.
            for above in (position + 1)..<frames.count {
                frames[above].reachedUnfinished = true
                frames[above].lowest = min(frames[above].lowest, frames[position].node)
            }
            return instance
        }
        let model = run.scenario.registrations[registration]
        guard model.shared else { return try build(registration, nil) }
        if frames.isEmpty && drain == index && run.scenario.asyncLookups.contains(index) {
            while true {
                if scheduler.abandoned { throw ModelFailure.group }
                let waits = eventResult { run in
                    run.machine.awaitRelease(txn, registration, isPublished: run.cell(registration).instance != nil)
                }
                guard waits else { break }
                scheduler.yield(index, waiting: true)
            }
        }
        // The engine's client for this lookup of it: one for every generation it claims in, so that it counts
        // the builds a reset released.
        var creation = SharedCreation()
        generations: while true {
            // The cell the lookup claims, read before the claim and kept through its waits, as the engine's
            // `createShared` keeps its slot: a reset meanwhile leaves it claiming a released generation's cell.
            let cell = run.cell(registration)
            while true {
                if scheduler.abandoned { throw ModelFailure.group }
                let answer = eventResult { run -> Machine.ClaimOutcome? in
                    // After shutdown (or the scope's end) a claim fails, as the engine's `shutDown`.
                    if run.closed { return nil }
                    return run.machine.claim(
                        txn, registration, isPublished: cell.instance != nil,
                        blocking: run.scenario.blockingLookups.contains(index),
                        isAsync: run.scenario.asyncLookups.contains(index))
                }
                guard let outcome = answer else { throw ModelFailure.shutDown }
                switch outcome {
                case .published:
                    if let instance = cell.instance {
                        if run.teardowns[instance] != nil {
                            run.violations.append(
                                "L\(index) was served \(run.name(registration)) #\(instance) after its teardown began")
                        }
                        return instance
                    }
                    continue
                case .build:
                    run.building[registration] = cell
                    // The engine's client: its step after the claim, then after the build or its failure.
                    guard creation.claimed(onWord: false, released: cell.isReleased) == .build else {
                        // Claimed in a generation a reset released meanwhile: given up, nothing built in it.
                        event("abandon \(model.name) in a released generation") { run in
                            run.machine.abandon(txn, registration)
                        }
                        try claimAgain(&creation, built: false)
                        continue generations
                    }
                    let made = try build(registration, creation)
                    guard builtInReleasedGeneration else { return made }
                    builtInReleasedGeneration = false
                    try claimAgain(&creation, built: true)
                    continue generations
                case .provisional:
                    guard let instance = run.provisional[registration] else {
                        run.violations.append("L\(index): provisional \(run.name(registration)) without an instance")
                        throw ModelFailure.group
                    }
                    // Not published: it may still be unprepared, so what is built around it is held too.
                    noteReachedGroupInstance(node: builtNodes[registration] ?? -1)
                    return instance
                case .cycle:
                    throw ModelFailure.cycle
                case .failed(let failure):
                    throw failure
                case .wait:
                    scheduler.yield(index, waiting: true)
                case .heldAcrossSuspension:
                    guard run.scenario.blockingLookups.contains(index) else {
                        run.violations.append("L\(index): a claim that may wait was refused for an async holder")
                        throw ModelFailure.group
                    }
                    throw ModelFailure.heldByAsync
                }
            }
        }
    }

    /// After a reset released the generation this lookup claimed in (`built`: and built an instance in,
    /// torn down since), as the engine's `createInCurrentGeneration`: it fails after a shutdown or a
    /// scope's end (`releasedGeneration`), and otherwise claims again in the current generation unless the
    /// engine's client gives up.
    func claimAgain(_ creation: inout SharedCreation, built: Bool) throws {
        if run.closed { throw ModelFailure.shutDown }
        guard creation.generationReleased(built: built) == .claimCurrent else {
            throw ModelFailure.releasedDuringEveryBuild
        }
    }

    /// Builds `registration`; `creation`: for a shared one, the engine's client (``SharedCreation``) after
    /// the claim, which decides how the instance is published or given up.
    mutating func build(_ registration: Int, _ creation: SharedCreation?) throws -> Int {
        var creation = creation
        let model = run.scenario.registrations[registration]
        frames.append((registration, nil, false, false, nodes, .max))
        nodes += 1
        let position = frames.count - 1
        // The preparations deferred from here on were deferred inside this build.
        let deferredBefore = deferred.count
        do {
            var fields: [Int] = []
            for dependency in model.initializer {
                do {
                    fields.append(
                        try model.nested ? resolveNested(dependency) : resolve(dependency, forPreparation: false))
                } catch ModelFailure.factory where model.swallowsFailures {
                } catch ModelFailure.preparation where model.swallowsFailures {
                }
            }
            run.factoryStarts(registration)
            run.factoryRuns[registration, default: 0] += 1
            if model.failsFirst && run.factoryRuns[registration] == 1 { throw ModelFailure.factory }
            let instance = run.instances.count
            run.instances.append((registration, fields, model.properties.isEmpty && !model.preparationFailsFirst))
            if model.shared {
                run.live[registration] = instance
                builtNodes[registration] = frames[position].node
            }
            frames[position].instance = instance
            if model.shared {
                event("provisional \(model.name) #\(instance)") { run in
                    run.provisional[registration] = instance
                    run.machine.setProvisional(txn, registration)
                }
            }
            var mustDefer = false
            for dependency in model.properties {
                do {
                    let value = try resolve(dependency, forPreparation: true)
                    run.instances[instance].fields.append(value)
                } catch is Deferral {
                    deferred.append((instance, dependency))
                    mustDefer = true
                }
            }
            if model.preparationFailsFirst {
                run.preparationRuns[registration, default: 0] += 1
                if run.preparationRuns[registration] == 1 { throw ModelFailure.preparation }
            }
            if !mustDefer { run.instances[instance].prepared = true }
            if model.shared && deferred.count > deferredBefore {
                // As the engine's `drainShared`: what was deferred inside this build (waiting for a factory
                // that has returned since) runs in its drain; what must wait again stays deferred, and so
                // does this build.
                let inside = deferred[deferredBefore...]
                deferred.removeSubrange(deferredBefore...)
                for item in inside {
                    do {
                        let value = try resolve(item.needs, forPreparation: true)
                        run.instances[item.instance].fields.append(value)
                        run.instances[item.instance].prepared = true
                    } catch is Deferral {
                        deferred.append(item)
                        mustDefer = true
                    }
                }
            }
            let hold = mustDefer || frames[position].reachedUnfinished
            let frame = frames[position]
            // Held: after the deferred preparations so far and, as the engine counts its queue, the running
            // preparations of the builds around it (which a failed lookup's count, its own drain's, never
            // includes when they ran inside a shared build).
            let queuedAfter = deferred.count + frames[..<position].filter { $0.instance != nil }.count
            if model.shared,
                let publication = creation?.built(
                    SharedCreation.Shape(
                        deferred: mustDefer, reachedUnfinished: frame.reachedUnfinished,
                        reachedOuter: frame.reachedOuter,
                        node: frame.node, lowest: frame.lowest))
            {
                // How the engine's client says to publish it: now, alone; now, with the group it completes
                // (everything unfinished it reached was built inside it, and every preparation of it ran);
                // or held for the enclosing drain, or for the outermost lookup.
                var held: Int? = nil
                var handTo: Int? = nil
                var group: Int? = nil
                var alone = false
                var rejected = false
                switch publication {
                case .now: alone = true
                case .group(let order): group = order
                case .held(_, let handToOutermost):
                    held = queuedAfter
                    if handToOutermost { handTo = index }
                }
                event("finish \(model.name) #\(instance)\(group != nil ? ", a group" : "")") { run in
                    switch run.machine.finish(
                        txn, registration, drain: drain, queuedAfter: held, handTo: handTo, order: frame.node,
                        payload: ModelPublication(registration: registration, instance: instance))
                    {
                    case .publish(let publication):
                        // Published now, alone: one whose generation was released is its publisher's to tear
                        // down, and is not served (what is published with its group is served whatever).
                        if !run.publish(publication) && alone {
                            rejected = true
                            run.rejectedAlone.insert(instance)
                        }
                    case .discard(let publication):
                        run.discard(publication)
                        return
                    case .held: break
                    }
                    guard let group else { return }
                    run.publish(group: run.machine.publishGroup(txn, by: drain, from: group))
                }
                if rejected, creation?.landed(rejected: true, tearsDown: true) == .tearDown {
                    builtInReleasedGeneration = true
                }
            }
            let reached = hold
            let reachedOuter = frames[position].reachedOuter
            frames.removeLast()
            // What reached an unfinished object makes its builders unfinished too.
            if reached, let last = frames.indices.last {
                frames[last].reachedUnfinished = true
                frames[last].lowest = min(frames[last].lowest, frame.lowest)
            }
            if reachedOuter {
                if let last = frames.indices.last { frames[last].reachedOuter = true } else { reachedOuterAtTop = true }
            }
            return instance
        } catch {
            let failed = frames.removeLast()
            let instance = failed.instance
            if model.shared, let abandonment = creation?.failed(node: failed.node) {
                event("abandon \(model.name)") { run in
                    run.provisional[registration] = nil
                    if let instance { run.forget(registration, instance) }
                    run.machine.abandon(txn, registration)
                    // What was held inside the failed build goes with it (`CreationMachine.dropGroup`).
                    guard let from = abandonment.dropFrom else { return }
                    for publication in run.machine.dropGroup(txn, by: drain, from: from, failure: .group) {
                        run.discard(publication)
                    }
                }
            }
            throw error
        }
    }
}

/// A preparation that needs an object whose initializer is still running: it runs when the lookup ends.
struct Deferral: Error {}

/// Explores every schedule of `scenario`; returns how many it ran and the first violation found. `stop` is
/// asked before each schedule: true ends the exploration early (`stopped`).
func explore(
    _ scenario: ModelScenario, preemptionBound: Int = .max, limit: Int = 200_000, stop: () -> Bool = { false }
) -> (schedules: Int, violation: String?, stopped: Bool) {
    var forced: [Int] = []
    var schedules = 0
    // One thread per lookup for the whole exploration: thousands of short-lived threads would fill the
    // C library's stack cache, and other tests' threads would get those stacks instead of the size they
    // asked for.
    let workers = ModelWorkers(count: scenario.lookups.count + scenario.releasers.count)
    defer { workers.stop() }
    while schedules < limit {
        if stop() { return (schedules, nil, true) }
        let scheduler = ModelScheduler(scenario, forced: forced, preemptionBound: preemptionBound, workers: workers)
        let completed = scheduler.execute()
        schedules += 1
        let run = scheduler.run
        var problems = run.violations
        let violationsBefore = run.violations.count
        if !completed { problems.append("deadlock: lookups left waiting with nobody to wake them") }
        if completed && !run.machine.isIdle {
            problems.append(
                "left behind: \(run.machine.cells.count) owned cells, \(run.machine.txns.count) transactions")
        }
        // Exactly once: every instance a shared factory made was published, or forgotten by the machine's
        // word (discarded) or its builder's (abandoned); none is left provisional in its cell.
        for (registration, instance) in run.live.sorted(by: { $0.key < $1.key })
        where completed && run.published[registration] != instance {
            problems.append("\(run.name(registration)) #\(instance) was neither published nor forgotten")
        }
        // Every shared instance a published one reaches is the published instance of its registration:
        // a group that failed took back everything it built, not a part of it.
        for (registration, instance) in run.published {
            var seen: Set<Int> = []
            var frontier = run.instances[instance].fields
            while let next = frontier.popLast() {
                guard seen.insert(next).inserted else { continue }
                let reached = run.instances[next].registration
                if run.rejectedAlone.contains(next) {
                    problems.append(
                        "published \(run.name(registration)) #\(instance) holds #\(next), torn down when its publication found its generation released"
                    )
                }
                // With releasers, a reset between two lookups may have torn down what a published instance
                // holds; what it reaches must still have been published, not forgotten.
                let expected =
                    scenario.releasers.isEmpty
                    ? run.published[reached] == next : run.publicationsTried.contains(next)
                if scenario.registrations[reached].shared, !expected {
                    problems.append(
                        "published \(run.name(registration)) #\(instance) reaches \(run.name(reached)) #\(next), which is not the published one"
                    )
                }
                frontier += run.instances[next].fields
            }
        }
        for (lookup, result) in run.results {
            // After a shutdown or a scope's end, a lookup may fail with `shutDown`, and so may, with its
            // group's failure, a lookup whose group it joined.
            if case .failure(let failure) = result, run.closed, failure == .shutDown || failure == .group { continue }
            if case .failure(.heldByAsync) = result, !scenario.blockingLookups.contains(lookup) {
                problems.append("L\(lookup) was refused as blocking, but may wait")
            } else if case .failure(.heldByAsync) = result, scenario.neverRefused.contains(lookup) {
                problems.append("L\(lookup) was refused for a group that is published as soon as it is complete")
            } else if case .failure(let failure) = result, failure != .heldByAsync, !scenario.failureExpected {
                problems.append("L\(lookup) failed with \(failure) in a registry where nothing fails")
            }
            if case .success(let instance) = result {
                if run.rejectedAlone.contains(instance) {
                    problems.append(
                        "L\(lookup) was served #\(instance), torn down when its publication found its generation released"
                    )
                }
                let registration = run.instances[instance].registration
                // With releasers, what a lookup returned may have been released (and torn down) since: it
                // must have been published (or have landed in a released generation), nothing else.
                let published =
                    scenario.releasers.isEmpty
                    ? run.published[registration] == instance : run.publicationsTried.contains(instance)
                if scenario.registrations[registration].shared, !published {
                    problems.append("L\(lookup) returned #\(instance), not the published \(run.name(registration))")
                }
            }
        }
        // What a shutdown at the end finds: after a shutdown in the schedule, no cell may still serve.
        for (registration, cell) in run.cells.sorted(by: { $0.key < $1.key }) {
            guard completed, let instance = cell.release() else { continue }
            if run.closed {
                problems.append("\(run.name(registration)) #\(instance) still served after shutdown released its cell")
            }
            run.tearDown(instance, by: "the shutdown at the end")
        }
        // Every instance whose publication was tried is torn down exactly once: by the release that found
        // it published, or by its publisher, which found its generation released.
        for instance in run.publicationsTried.sorted() where completed && run.teardowns[instance] != 1 {
            let count = run.teardowns[instance] ?? 0
            let how = count == 0 ? "never torn down" : "torn down \(count) times"
            problems.append("\(run.name(run.instances[instance].registration)) #\(instance) \(how)")
        }
        problems += run.violations.dropFirst(violationsBefore)
        if !problems.isEmpty {
            let path = scheduler.decisions.map { String($0.chosen) }.joined(separator: ",")
            return (
                schedules,
                "\(scenario): \(problems.joined(separator: "; ")) [schedule \(path)]\n"
                    + run.log.joined(separator: "\n"),
                false
            )
        }
        // The next schedule: the last decision that has an untried option, with the one after it.
        var decisions = scheduler.decisions
        while let last = decisions.last, last.chosen + 1 >= last.options { decisions.removeLast() }
        guard let last = decisions.popLast() else { return (schedules, nil, false) }
        forced = decisions.map(\.chosen) + [last.chosen + 1]
    }
    return (schedules, "\(scenario): more than \(limit) schedules", false)
}

struct CreationMachineExplorerTests {
    static let scenarios: [ModelScenario] = [
        ModelScenario(
            name: "two lookups that wait in turn (x slow, c needs x, y needs x then c)",
            registrations: [
                ModelRegistration(name: "x"),
                ModelRegistration(name: "c", initializer: [0]),
                ModelRegistration(name: "y", shared: false, initializer: [0, 1]),
            ],
            lookups: [2, 1]),
        ModelScenario(
            name: "property cycle a ⇄ b entered from both sides",
            registrations: [
                ModelRegistration(name: "a", properties: [1]),
                ModelRegistration(name: "b", properties: [0]),
            ],
            lookups: [0, 1]),
        ModelScenario(
            name: "property cycle a → b → c → a entered from three sides",
            registrations: [
                ModelRegistration(name: "a", properties: [1]),
                ModelRegistration(name: "b", properties: [2]),
                ModelRegistration(name: "c", properties: [0]),
            ],
            lookups: [0, 1, 2], preemptionBound: 2),
        ModelScenario(
            name: "initializer a(b), property b.a, from both sides",
            registrations: [
                ModelRegistration(name: "a", initializer: [1]),
                ModelRegistration(name: "b", properties: [0]),
            ],
            lookups: [0, 1]),
        ModelScenario(
            name: "initializer-only cycle a(b), b(a), from both sides",
            registrations: [
                ModelRegistration(name: "a", initializer: [1]),
                ModelRegistration(name: "b", initializer: [0]),
            ],
            lookups: [0, 1], failureExpected: true),
        ModelScenario(
            name: "property cycle whose second factory fails once",
            registrations: [
                ModelRegistration(name: "a", properties: [1]),
                ModelRegistration(name: "b", properties: [0], failsFirst: true),
                ModelRegistration(name: "d"),
            ],
            lookups: [0, 1, 2], failureExpected: true, preemptionBound: 2),
        ModelScenario(
            name: "property cycle a ⇄ b whose preparation then needs d, which fails once",
            registrations: [
                ModelRegistration(name: "a", properties: [1]),
                ModelRegistration(name: "b", properties: [0, 2]),
                ModelRegistration(name: "d", failsFirst: true),
            ],
            lookups: [0, 1], failureExpected: true),
        ModelScenario(
            name: "transient a whose preparation needs singleton b, whose factory needs a",
            registrations: [
                ModelRegistration(name: "a", shared: false, properties: [1]),
                ModelRegistration(name: "b", initializer: [0]),
            ],
            lookups: [0, 1]),
        ModelScenario(
            name: "diamond of singletons d(b, c), b(a), c(a) from three sides",
            registrations: [
                ModelRegistration(name: "a"),
                ModelRegistration(name: "b", initializer: [0]),
                ModelRegistration(name: "c", initializer: [0]),
                ModelRegistration(name: "d", initializer: [1, 2]),
            ],
            lookups: [3, 1, 2], preemptionBound: 2),
        ModelScenario(
            name: "an async lookup of x waits suspended while lookups that wait in turn build it",
            registrations: [
                ModelRegistration(name: "x"),
                ModelRegistration(name: "c", initializer: [0]),
                ModelRegistration(name: "y", shared: false, initializer: [0, 1]),
            ],
            lookups: [2, 1, 0], preemptionBound: 2, asyncLookups: [2]),
        ModelScenario(
            name: "property cycle a ⇄ b entered from both sides and by an async lookup of a",
            registrations: [
                ModelRegistration(name: "a", properties: [1]),
                ModelRegistration(name: "b", properties: [0]),
            ],
            lookups: [0, 1, 0], preemptionBound: 2, asyncLookups: [2]),
        ModelScenario(
            name: "an async lookup holds b (a(b), property b.a) while a blocking lookup of b is refused or waits",
            registrations: [
                ModelRegistration(name: "a", initializer: [1]),
                ModelRegistration(name: "b", properties: [0]),
            ],
            lookups: [0, 1], asyncLookups: [0], blockingLookups: [1]),
        ModelScenario(
            name: "a blocking lookup of c(b) waits for b, which an async lookup then holds, and is woken to be refused",
            registrations: [
                ModelRegistration(name: "a", initializer: [1]),
                ModelRegistration(name: "b", properties: [0]),
                ModelRegistration(name: "c", shared: false, initializer: [1]),
            ],
            lookups: [0, 2, 2], preemptionBound: 2, asyncLookups: [0], blockingLookups: [1]),
        ModelScenario(
            name: "a's preparation needs o, whose factory makes d(a) in a nested lookup; from a and from d",
            registrations: [
                ModelRegistration(name: "a", properties: [1]),
                ModelRegistration(name: "o", shared: false, initializer: [2], nested: true),
                ModelRegistration(name: "d", initializer: [0]),
            ],
            // From the second side (d first, then a, whose preparation reaches d through the nested lookup
            // before d's factory returns) it is an initializer cycle: a nested lookup of another registry
            // cannot defer a preparation to the outer lookup's drain.
            lookups: [0, 2], failureExpected: true),
        ModelScenario(
            name: "a's preparation needs o, whose factory makes e in a nested lookup; e(d), d(a); from a and from e",
            registrations: [
                ModelRegistration(name: "a", properties: [1]),
                ModelRegistration(name: "o", shared: false, initializer: [2], nested: true),
                ModelRegistration(name: "e", initializer: [3]),
                ModelRegistration(name: "d", initializer: [0]),
            ],
            // From the second side (d first, then a, whose preparation reaches d through the nested lookup
            // before d's factory returns) it is an initializer cycle: a nested lookup of another registry
            // cannot defer a preparation to the outer lookup's drain.
            lookups: [0, 2], failureExpected: true),
        ModelScenario(
            name: "a group completed while its lookup continues: an async t(s, g), s ⇄ w; a blocking lookup of s",
            registrations: [
                ModelRegistration(name: "s", properties: [1]),
                ModelRegistration(name: "w", properties: [0]),
                ModelRegistration(name: "t", shared: false, initializer: [0, 3]),
                ModelRegistration(name: "g"),
            ],
            // The blocking lookup waits while the group is built, then gets it: once complete, the group is
            // published, so no suspension of t's lookup can hold it.
            lookups: [2, 0], asyncLookups: [0], blockingLookups: [1], neverRefused: [1]),
    ]

    /// Failures where something is held, provisional or waited for: what they leave must be forgotten,
    /// not published, and every lookup must still end.
    static let failureScenarios: [ModelScenario] = [
        ModelScenario(
            name: "a(b, f) holds b, whose preparation needs a, when f fails once; from a and from b",
            registrations: [
                ModelRegistration(name: "a", initializer: [1, 2]),
                ModelRegistration(name: "b", properties: [0]),
                ModelRegistration(name: "f", failsFirst: true),
            ],
            lookups: [0, 1], failureExpected: true),
        ModelScenario(
            name: "o looks a up in a nested lookup; a(b, f) holds b, whose preparation needs a, when f fails once",
            registrations: [
                ModelRegistration(name: "o", shared: false, initializer: [1], nested: true),
                ModelRegistration(name: "a", initializer: [2, 3]),
                ModelRegistration(name: "b", properties: [1]),
                ModelRegistration(name: "f", failsFirst: true),
            ],
            lookups: [0, 2], failureExpected: true),
        ModelScenario(
            name:
                "a's preparation needs o, which makes d(a) in a nested lookup, then f, which fails once; from a and from d",
            registrations: [
                ModelRegistration(name: "a", properties: [1, 3]),
                ModelRegistration(name: "o", shared: false, initializer: [2], nested: true),
                ModelRegistration(name: "d", initializer: [0]),
                ModelRegistration(name: "f", failsFirst: true),
            ],
            lookups: [0, 2], failureExpected: true),
        ModelScenario(
            name:
                "a's preparation needs o, which makes e(d, f) in a nested lookup; d(a); f fails once; from a and from d",
            registrations: [
                ModelRegistration(name: "a", properties: [1]),
                ModelRegistration(name: "o", shared: false, initializer: [2], nested: true),
                ModelRegistration(name: "e", initializer: [3, 4]),
                ModelRegistration(name: "d", initializer: [0]),
                ModelRegistration(name: "f", failsFirst: true),
            ],
            lookups: [0, 3], failureExpected: true),
        ModelScenario(
            name: "property cycle a ⇄ b whose b's preparation fails once, from both sides",
            registrations: [
                ModelRegistration(name: "a", properties: [1]),
                ModelRegistration(name: "b", properties: [0], preparationFailsFirst: true),
            ],
            lookups: [0, 1], failureExpected: true),
        ModelScenario(
            name: "property cycle a → b → c → a from three sides; a and b then need x(y), c needs f, which fails once",
            registrations: [
                ModelRegistration(name: "a", properties: [1, 3]),
                ModelRegistration(name: "b", properties: [2, 3]),
                ModelRegistration(name: "c", properties: [0, 4]),
                ModelRegistration(name: "x", initializer: [5]),
                ModelRegistration(name: "f", failsFirst: true),
                ModelRegistration(name: "y"),
            ],
            lookups: [0, 1, 2], failureExpected: true, preemptionBound: 2),
        ModelScenario(
            name: "a failed lookup after a completed cycle: t(b, f), b ⇄ c, f fails once; from t and from c",
            registrations: [
                ModelRegistration(name: "t", shared: false, initializer: [1, 3]),
                ModelRegistration(name: "b", properties: [2]),
                ModelRegistration(name: "c", properties: [1]),
                ModelRegistration(name: "f", failsFirst: true),
            ],
            // The group b ⇄ c is complete before f fails: it is kept whole, never half published.
            lookups: [0, 2], failureExpected: true),
        ModelScenario(
            name:
                "t(b) swallows the failure of b's build, after c (inside it) closed b ⇄ c; b then needs f, which fails once",
            registrations: [
                ModelRegistration(name: "t", shared: false, initializer: [1], swallowsFailures: true),
                ModelRegistration(name: "b", properties: [2, 3]),
                ModelRegistration(name: "c", properties: [1]),
                ModelRegistration(name: "f", failsFirst: true),
            ],
            // The group never completed: what was held inside b's failed build is dropped with it, even
            // though t's lookup goes on and succeeds.
            lookups: [0, 2], failureExpected: true),
    ]

    /// Resets, shutdowns and scope ends at every point of the lookups: each instance whose publication was
    /// tried is torn down exactly once (by the release that found it published, or by its publisher, which
    /// found its generation released), nothing is served after its teardown began, nothing is published
    /// into a released generation, and after a shutdown nothing is served. A lookup whose instance,
    /// published alone, landed in a released generation, or whose claim (made before a reset, held through
    /// a wait) is of a released cell, claims again in the current generation, as the engine's client says
    /// (`SharedCreation.landed`, `SharedCreation.generationReleased`): it is never served what its
    /// publisher tore down, and a reset or two never make it fail.
    static let releaseScenarios: [ModelScenario] = [
        ModelScenario(
            name: "shutdown while a's preparation (a.b) runs",
            registrations: [
                ModelRegistration(name: "a", properties: [1]),
                ModelRegistration(name: "b"),
            ],
            lookups: [0], releasers: [[.shutdown]]),
        ModelScenario(
            name: "shutdown while a's factory (a(b)) runs, so that it returns after shutdown began (a late teardown)",
            registrations: [
                ModelRegistration(name: "a", initializer: [1]),
                ModelRegistration(name: "b"),
            ],
            lookups: [0, 1], preemptionBound: 2, releasers: [[.shutdown]]),
        ModelScenario(
            name: "a reset while a(b) is built, from two lookups of a",
            registrations: [
                ModelRegistration(name: "a", initializer: [1]),
                ModelRegistration(name: "b"),
            ],
            lookups: [0, 0], preemptionBound: 2, releasers: [[.reset]]),
        ModelScenario(
            name: "two resets while a(b) is built, so that it is built in three generations",
            registrations: [
                ModelRegistration(name: "a", initializer: [1]),
                ModelRegistration(name: "b"),
            ],
            lookups: [0], preemptionBound: 3, releasers: [[.reset, .reset]]),
        ModelScenario(
            name: "a reset during shutdown, while a(b) is built",
            registrations: [
                ModelRegistration(name: "a", initializer: [1]),
                ModelRegistration(name: "b"),
            ],
            lookups: [0], preemptionBound: 3, releasers: [[.shutdown], [.reset]]),
        ModelScenario(
            name: "a cycle a(b), b.a built across a reset",
            registrations: [
                ModelRegistration(name: "a", initializer: [1]),
                ModelRegistration(name: "b", properties: [0]),
            ],
            lookups: [0], releasers: [[.reset]]),
        ModelScenario(
            name: "a property cycle a ⇄ b built across two resets, from both sides",
            registrations: [
                ModelRegistration(name: "a", properties: [1]),
                ModelRegistration(name: "b", properties: [0]),
            ],
            lookups: [0, 1], preemptionBound: 2, releasers: [[.reset, .reset]]),
        ModelScenario(
            name: "a scope ends while a ⇄ b is built from both sides",
            registrations: [
                ModelRegistration(name: "a", properties: [1]),
                ModelRegistration(name: "b", properties: [0]),
            ],
            lookups: [0, 1], preemptionBound: 2, releasers: [[.endScope]]),
    ]

    /// Set by the mutation check (`scripts/mutate-creation-machine.sh`), which only needs to know whether a
    /// mutant fails: once one scenario found a violation, the others stop exploring.
    static let stopAtFirstViolation =
        ProcessInfo.processInfo.environment["ROUTER_EXPLORER_STOP_AT_FIRST_VIOLATION"] != nil
    static let violationFound = Locked(false)

    static func check(_ scenario: ModelScenario) {
        let (schedules, violation, stopped) = explore(scenario, preemptionBound: scenario.preemptionBound) {
            stopAtFirstViolation && violationFound.withLock { $0 }
        }
        if violation != nil { violationFound.withLock { $0 = true } }
        if stopped {
            print("stopped after \(schedules) schedules (another scenario found a violation): \(scenario)")
            return
        }
        print("explored \(schedules) schedules: \(scenario)")
        #expect(violation == nil, "\(violation ?? "")")
        #expect(schedules > 1)
    }

    @Test(arguments: scenarios)
    func everyScheduleEndsWithEachInstanceBuiltOnceAndNothingLeftBehind(_ scenario: ModelScenario) {
        Self.check(scenario)
    }

    @Test(arguments: failureScenarios)
    func everyScheduleOfAFailureForgetsWhatWasNotPreparedWakesEveryWaiterAndBuildsEachInstanceOnce(
        _ scenario: ModelScenario
    ) {
        Self.check(scenario)
    }

    @Test(arguments: releaseScenarios)
    func everyScheduleOfAReleaseTearsEachInstanceDownOnceAndServesNothingTornDown(_ scenario: ModelScenario) {
        Self.check(scenario)
    }
}
