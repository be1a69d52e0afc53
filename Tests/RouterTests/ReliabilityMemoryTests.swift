import Router
import Testing

// Memory guarantees of issue 7: the registry keeps nothing it builds unless the scope says so.

private let graphLeaf = RoutableService.relLeaf.named("graph")

struct ReliabilityMemoryTests {
    /// Transient and graph objects are freed as soon as the caller drops them.
    @Test func transientAndGraphObjectsAreFreedWhenTheCallerDropsThem() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(graphLeaf) { _ in RelLeafImpl(serial: 1) }.scope(.graph)
            try registry.register(.relHolder) { r in RelHolderImpl(payload: try r.resolve(graphLeaf)) }
        }
        func lookUp() throws -> (RelWeak, RelWeak) {
            let holder = try registry.makeDestination(to: .relHolder)
            return (RelWeak(holder), RelWeak(holder.payload))
        }
        let (holder, leaf) = try lookUp()
        #expect(holder.isFreed)
        #expect(leaf.isFreed)
        let direct = try { () throws -> RelWeak in RelWeak(try registry.makeDestination(to: graphLeaf)) }()
        #expect(direct.isFreed)
    }

    /// An owner ⇄ part cycle closed by a property injection, with a weak back-reference, is freed.
    @Test func aPropertyClosedCycleWithAWeakBackReferenceIsFreed() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.relOwner) { _ in RelOwnerImpl() }.injecting(\.part, .relPart)
            try registry.register(.relPart) { _ in RelPartImpl() }.injecting(\.owner, .relOwner)
        }
        func lookUp() throws -> (RelWeak, RelWeak) {
            let owner = try registry.makeDestination(to: .relOwner)
            let part = try #require(owner.part)
            #expect(part.owner === owner)
            return (RelWeak(owner), RelWeak(part))
        }
        let (owner, part) = try lookUp()
        #expect(owner.isFreed)
        #expect(part.isFreed)
    }

    @Test func aWeakSingletonIsRebuiltAfterItsLastHolderLetsGo() throws {
        let made = Counter()
        let registry = try sealedRegistry { registry in
            try registry.register(.radio) { _ in
                made.increment()
                return RadioImpl()
            }.scope(.weakSingleton)
        }
        var held: (any Radio)? = try registry.makeDestination(to: .radio)
        let weakFirst = RelWeak(try #require(held))
        #expect(try registry.makeDestination(to: .radio) === held)
        #expect(made.value == 1)
        held = nil
        #expect(weakFirst.isFreed)
        let second = try registry.makeDestination(to: .radio)
        #expect(made.value == 2)
        #expect(try registry.makeDestination(to: .radio) === second)
    }

    @Test func resettingOrClosingACustomScopeFreesItsInstances() throws {
        let session = CustomScope("rel-memory")
        let registry = try sealedRegistry { registry in
            try registry.register(.relLeaf) { _ in RelLeafImpl(serial: 1) }.scope(.custom(session))
        }
        func lookUp() throws -> RelWeak { RelWeak(try registry.makeDestination(to: .relLeaf)) }
        let first = try lookUp()
        #expect(!first.isFreed)  // the scope keeps it
        #expect(session.count == 1)
        session.reset()
        #expect(first.isFreed)
        #expect(session.count == 0)
        let second = try lookUp()
        #expect(!second.isFreed)
        session.close()
        #expect(second.isFreed)
        #expect(session.count == 0)
    }

    @Test func aDroppedRegistryFreesItsSingletons() throws {
        func makeAndDrop() throws -> (RelWeak, RelWeak, RelWeak) {
            let registry = try sealedRegistry { registry in
                try registry.register(.engine) { _ in V8() }.scope(.singleton)
                try registry.register(.radio) { _ in RadioImpl() }.scope(.eagerSingleton)
            }
            let engine = try registry.makeDestination(to: .engine)
            let radio = try registry.makeDestination(to: .radio)
            return (RelWeak(registry), RelWeak(engine), RelWeak(radio))
        }
        let (registry, engine, radio) = try makeAndDrop()
        #expect(registry.isFreed)
        #expect(engine.isFreed)
        #expect(radio.isFreed)
    }

    /// A Lazy or Provider held by an object keeps neither the lookup's graph nor what it made alive.
    @Test func lazyAndProviderDoNotKeepGraphsAlive() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(graphLeaf) { _ in RelLeafImpl(serial: 1) }.scope(.graph)
            try registry.register(.relLeaf) { _ in RelLeafImpl(serial: 2) }
            try registry.register(.relHolder) { r in
                RelHolderImpl(
                    payload: try r.resolve(graphLeaf), lazyLeaf: try r.lazy(.relLeaf),
                    leafProvider: try r.provider(.relLeaf))
            }
        }
        func lookUp() throws -> [RelWeak] {
            let holder = try registry.makeDestination(to: .relHolder)
            let lazy = try #require(holder.lazyLeaf)
            #expect(!lazy.isBuilt)
            let lazyValue = try lazy.value
            #expect(try lazy.value === lazyValue)
            let provided = try #require(try holder.leafProvider?())
            #expect(try holder.leafProvider?() !== provided)
            return [RelWeak(holder.payload), RelWeak(lazyValue), RelWeak(provided)]
        }
        let leaves = try lookUp()
        #expect(leaves.allSatisfy { $0.isFreed })
    }

    /// Objects built for a lookup that failed half-way are not kept anywhere.
    @Test func objectsOfAFailedLookupAreFreed() throws {
        let made = EventLog()
        final class Tracked: RelLeaf {
            let serial = 0
            let log: EventLog
            init(log: EventLog) { self.log = log }
            deinit { log.record("freed") }
        }
        let registry = try sealedRegistry { registry in
            try registry.register(graphLeaf) { _ in Tracked(log: made) }.scope(.graph)
            try registry.register(.relHolder) { r in
                _ = try r.resolve(graphLeaf)
                throw Boom()
            }
        }
        #expect(throws: RouteError.self) { try registry.makeDestination(to: .relHolder) }
        #expect(made.events == ["freed"])
    }
}
