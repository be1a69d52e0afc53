/// One lookup's making of one shared instance (a singleton's, a weak singleton's, a custom or request
/// scope's, a `Lazy`'s value), written once as a state machine with no effects of its own, in the manner of
/// swift-nio's state machines: each method takes what its driver just saw (a claim, a build that returned
/// or threw, a publication that landed or found its generation released) and returns what the driver does
/// next. It decides; the drivers act, each on its own storage and in its own way of waiting.
///
/// Its drivers: `Resolver.createShared` (synchronous lookups, `createInCurrentGeneration` for a resettable
/// singleton), `Resolver.createSharedAsync` (async lookups) and `Resolver.buildOnce` (a `Lazy`). The
/// creation explorer (`Tests/CreationExplorerTests`) drives this same type for its simulated lookups, so
/// the routes it explores after a build or a failure are these, and `scripts/mutate-creation-machine.py`
/// mutates them here.
@usableFromInline
struct SharedCreation {
    /// Whether this lookup owns the cell and builds the instance, with a claim made by one exchange on the
    /// cell's state word, outside the creation machine (`CreationTransaction.claimUncontended`): then its
    /// publication or abandonment tries the word first. False before the claim, after a claim through the
    /// machine, and once the build ended (the only part of where the creation is that a step reads).
    @usableFromInline
    var buildingOnWord: Bool

    /// How many instances this lookup built in a generation a reset released before they were published
    /// (each torn down since): bounded by ``RouteError/generationAttempts``.
    @usableFromInline
    var releasedBuilds: Int

    @inlinable @inline(__always)
    init() {
        buildingOnWord = false
        releasedBuilds = 0
    }

    // MARK: Claim

    /// What the driver does after a claim that made this lookup the cell's owner.
    @usableFromInline
    enum AfterClaim: Equatable {
        /// Build the instance.
        case build
        /// Give the claim up: the cell's generation was released (a reset, a shutdown, a scope's end)
        /// before anything was built in it. Then ask ``generationReleased(built:)`` after a reset.
        case giveUp
    }

    /// The driver owns the cell now. `onWord`: the claim was an exchange on the cell's word; `released`:
    /// the cell's generation was released already (only a claim through the machine, which may wait, can
    /// find one: an uncontended claim is made only on a free, open cell).
    @inlinable @inline(__always)
    mutating func claimed(onWord: Bool, released: Bool) -> AfterClaim {
        if released && !onWord {
            buildingOnWord = false
            return .giveUp
        }
        buildingOnWord = onWord
        return .build
    }

    // MARK: Build

    /// What a build reached, as the lookup's graph saw it when the instance's factory and the preparations
    /// it could run returned.
    @usableFromInline
    struct Shape {
        /// Some of its preparations wait for an object an enclosing factory is still building: they run in
        /// the enclosing lookup's drain.
        @usableFromInline var deferred: Bool
        /// It reached an unfinished object: an ancestor still being built or prepared, or an unpublished
        /// instance of its transaction.
        @usableFromInline var reachedUnfinished: Bool
        /// In a nested lookup: it reached an unpublished instance of the transaction the outer lookups hold.
        @usableFromInline var reachedOuter: Bool
        /// The graph node its build began at (-1: the lookup keeps no graph nodes).
        @usableFromInline var node: Int
        /// The lowest node of the unfinished objects it reached (`PreparationQueue.lowestReached`; -1 or
        /// lower: one this drain did not build).
        @usableFromInline var lowest: Int

        /// A build that reached nothing unfinished and deferred nothing.
        @inlinable @inline(__always)
        static var finished: Shape {
            Shape(deferred: false, reachedUnfinished: false, reachedOuter: false, node: -1, lowest: .max)
        }

        @inlinable @inline(__always)
        init(deferred: Bool, reachedUnfinished: Bool, reachedOuter: Bool, node: Int, lowest: Int) {
            self.deferred = deferred
            self.reachedUnfinished = reachedUnfinished
            self.reachedOuter = reachedOuter
            self.node = node
            self.lowest = lowest
        }
    }

    /// How the driver publishes an instance that was built.
    @usableFromInline
    enum Publication: Equatable {
        /// Now, alone. `onWordFirst`: with one releasing exchange on the cell's word first, which answers
        /// whether it must go through the machine after all (the lookup entered it meanwhile).
        case now(onWordFirst: Bool)
        /// Now, with its group: whatever unfinished it reached was built inside it (from graph node `order`
        /// on) and every preparation of it ran, so the group is complete and published whole, whatever the
        /// lookup does next.
        case group(order: Int)
        /// Held until the enclosing lookup has run the preparations it waits for, and published after them;
        /// `handToOutermost`: a nested lookup hands it to the outermost lookup of its transaction, whose end
        /// publishes it.
        case held(order: Int, handToOutermost: Bool)
    }

    /// The instance's factory, and the preparations it could run, returned: how to publish it.
    @inlinable @inline(__always)
    mutating func built(_ shape: Shape) -> Publication {
        guard shape.deferred || shape.reachedUnfinished else { return .now(onWordFirst: leaveBuilding()) }
        buildingOnWord = false
        if !shape.deferred && !shape.reachedOuter && shape.node >= 0 && shape.lowest >= shape.node {
            return .group(order: shape.node)
        }
        return .held(order: shape.node, handToOutermost: shape.reachedOuter)
    }

    /// The instance's factory returned and every preparation it queued ran (an async build drains all it
    /// queues): it is published now, alone, as ``Publication/now(onWordFirst:)``. Returns `onWordFirst`.
    @inlinable @inline(__always)
    mutating func drained() -> Bool { leaveBuilding() }

    /// Ends the build phase; returns whether the claim was one on the cell's word.
    @inlinable @inline(__always)
    mutating func leaveBuilding() -> Bool {
        defer { buildingOnWord = false }
        return buildingOnWord
    }

    // MARK: Failure

    /// How the driver gives up a claim whose build failed.
    @usableFromInline
    struct Abandonment: Equatable {
        /// Give it up on the cell's word first; through the machine when that answers it must.
        @usableFromInline var onWordFirst: Bool
        /// Drop, with the claim, what the lookup holds from this graph node on (what was held inside the
        /// failed build goes with it: a group is dropped whole); nil when the lookup keeps no graph nodes.
        @usableFromInline var dropFrom: Int?

        @inlinable @inline(__always)
        init(onWordFirst: Bool, dropFrom: Int?) {
            self.onWordFirst = onWordFirst
            self.dropFrom = dropFrom
        }
    }

    /// The factory or a preparation threw, in the build that began at graph node `node` (-1: none).
    @inlinable @inline(__always)
    mutating func failed(node: Int) -> Abandonment {
        return Abandonment(onWordFirst: leaveBuilding(), dropFrom: node >= 0 ? node : nil)
    }

    // MARK: After publication

    /// What the driver does with an instance once its publication was tried.
    @usableFromInline
    enum Landing: Equatable {
        /// Return it.
        case serve
        /// Its generation was released while it was built, and its registration has a teardown: tear it
        /// down now, once, and ask ``generationReleased(built:)`` (after a reset) or fail (after a shutdown).
        case tearDown
    }

    /// The publication was tried: `rejected` when the cell's generation was released while the instance
    /// was built (nothing serves it); `tearsDown` when its registration has a teardown. One without a
    /// teardown keeps what it built: nothing else serves the old generation's instance.
    @inlinable @inline(__always)
    func landed(rejected: Bool, tearsDown: Bool) -> Landing {
        rejected && tearsDown ? .tearDown : .serve
    }

    // MARK: Generations

    /// What the driver does after a reset released the generation it claimed or built in.
    @usableFromInline
    enum AfterRelease: Equatable {
        /// Read, or claim and build, the current generation's instance.
        case claimCurrent
        /// A reset during each of ``RouteError/generationAttempts`` builds in a row: fail the lookup
        /// (``RouteError/releasedDuringEveryBuild(_:path:)``).
        case giveUp
    }

    /// A reset released the generation this lookup claimed in; `built`: it had built an instance there
    /// (torn down since). Only such builds count toward the bound: a claim of a cell released before
    /// anything was built in it costs nothing, and each one follows another reset, so a lookup racing many
    /// resets on other threads is not refused.
    @inlinable @inline(__always)
    mutating func generationReleased(built: Bool) -> AfterRelease {
        buildingOnWord = false
        if built { releasedBuilds += 1 }
        return releasedBuilds < RouteError.generationAttempts ? .claimCurrent : .giveUp
    }
}
