// What the creation machine records and answers: its outcomes, and the records of cells, transactions and
// groups it keeps (see `CreationMachine`).
extension CreationMachine {
    /// What a claim found.
    enum ClaimOutcome {
        /// The instance is published: read it from the cell.
        case published
        /// The caller owns the cell now: build the instance, then ``finish(_:_:drain:queuedAfter:handTo:payload:)``
        /// or ``abandon(_:_:)`` it.
        case build
        /// The caller's group is building it and its factory returned: use the provisional instance.
        case provisional
        /// An initializer-only cycle: the caller's group is building it, its factory has not returned,
        /// and it cannot (the builder waits for the caller). `otherSide` is the builder when it is another
        /// transaction.
        case cycle(otherSide: Txn?)
        /// Another transaction builds it: wait for a wake-up, then claim again.
        case wait
        /// The caller's group failed.
        case failed(Failure)
        /// A blocking claim of an instance that `owner`'s group, which has an async member, holds back
        /// unpublished: the holder may be suspended, so the caller must not block waiting for it.
        case heldAcrossSuspension(owner: Txn)
    }

    /// What ending a build found.
    enum FinishOutcome {
        /// Publish the instance now.
        case publish(Payload)
        /// Keep it unpublished; the machine publishes or forgets it later.
        case held
        /// Forget the instance: the caller's group failed.
        case discard(Payload)
    }

    /// What ending a transaction found.
    enum EndOutcome {
        /// The transaction ended: publish and forget these.
        case ended(publish: [Payload], discard: [Payload], release: [Cell], failure: Failure?)
        /// Other members of the group are still running: wait for a wake-up, then ask ``outcome(of:)``.
        case waitForGroup
    }

    /// An instance built but not published yet.
    struct Held {
        var cell: Cell
        var payload: Payload
        /// How many preparations of `drain` must have run before it may be published; nil when only the
        /// group's end publishes it.
        var queuedAfter: Int
        var drain: Drain
        /// The outermost drain that must end before it is published, when `drain` is a nested lookup's
        /// and the instance reached one of the outer lookup's unfinished instances.
        var handTo: Drain?
        /// Where its build began among `drain`'s builds (the engine: its node in the lookup's graph), for
        /// ``publishGroup(_:by:from:)``; `Int.min` once it waits for another drain.
        var order = Int.min
    }

    struct CellRecord {
        var owner: Txn
        var hasProvisional = false
        /// Whether its instance is finished and held back (see ``Held``), not being built.
        var isHeld = false
        /// The transactions waiting for it (each with `waitingFor` this cell), so that the event that ends
        /// their waits finds them here instead of among every transaction.
        var waiters: [Txn] = []
    }

    struct TxnRecord {
        var group: Int
        /// The cell this transaction waits for; nil when it is not waiting (or its wait has ended).
        var waitingFor: Cell?
        var held: [Held] = []
        /// The cells it claimed, outermost first (for messages, and for its end: what it still owns is among
        /// them, so that ending it releases only its own cells).
        var claims: [Cell] = []
        var finished = false
        /// Whether it committed and waits for the rest of its group.
        var waitsForGroup = false
        /// Set when its group ended while it waited for it.
        var outcome: GroupEnd?
        /// Whether it belongs to an async lookup, which may suspend between its events.
        var isAsync = false
        /// Whether its wait blocks a thread that tasks may need (see ``claim(_:_:isPublished:blocking:isAsync:)``):
        /// such a wait ends when the instance becomes held by a group with an async member.
        var waitBlocks = false
    }

    /// What a group's end left for a member that waited for it. A reference, not a tuple: every event copies
    /// the records it changes, and an optional tuple of generic arrays is copied through a runtime call
    /// where a reference is one retain.
    final class GroupEnd {
        let publish: [Payload]
        let discard: [Payload]
        let release: [Cell]
        let failure: Failure?

        init(publish: [Payload], discard: [Payload], release: [Cell], failure: Failure?) {
            self.publish = publish
            self.discard = discard
            self.release = release
            self.failure = failure
        }
    }

    struct GroupRecord {
        var members: [Txn]
        var unfinished: Int
        var failure: Failure?
        /// Whether a member belongs to an async lookup (kept as members join, so that no event scans them).
        var hasAsyncMember = false
    }
}
