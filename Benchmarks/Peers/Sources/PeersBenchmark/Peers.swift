import DITranquillity
import FactoryKit

// Factory 3 and DITranquillity 6 registrations of RouterBenchmarks' services (Services.swift). Each peer
// is written as its documentation shows: Factory as computed `Factory` properties of its `Container`,
// DITranquillity as initializers registered in a `DIContainer` and exposed `as` their protocols.

extension FactoryKit.Container {
    var engine: Factory<any Engine> { self { V8() } }
    var settings: Factory<any Settings> { self { SettingsImpl() }.singleton }
    var treeRoot: Factory<any TreeRoot> {
        self { TreeRootImpl(a: self.treeA(), b: self.treeB(), c: self.treeC()) }
    }
    var treeA: Factory<any TreeA> { self { TreeAImpl(first: self.leaf1(), second: self.leaf2()) } }
    var treeB: Factory<any TreeB> { self { TreeBImpl(first: self.leaf3(), second: self.leaf4()) } }
    var treeC: Factory<any TreeC> { self { TreeCImpl(first: self.leaf5(), second: self.leaf6()) } }
    var leaf1: Factory<any Leaf1> { self { Leaf1Impl() } }
    var leaf2: Factory<any Leaf2> { self { Leaf2Impl() } }
    var leaf3: Factory<any Leaf3> { self { Leaf3Impl() } }
    var leaf4: Factory<any Leaf4> { self { Leaf4Impl() } }
    var leaf5: Factory<any Leaf5> { self { Leaf5Impl() } }
    var leaf6: Factory<any Leaf6> { self { Leaf6Impl() } }
}

/// A DITranquillity container with every scenario's services: s1's engine, s3's singleton, s2's tree and
/// s6's cycle (A takes B in its initializer, B gets A by a cycle-marked property injection, one A per graph).
func makeDITranquillityContainer() -> DIContainer {
    let container = DIContainer()
    container.register(V8.init).as((any Engine).self)
    container.register(SettingsImpl.init).as((any Settings).self).lifetime(.single)
    container.register(TreeRootImpl.init(a:b:c:)).as((any TreeRoot).self)
    container.register(TreeAImpl.init(first:second:)).as((any TreeA).self)
    container.register(TreeBImpl.init(first:second:)).as((any TreeB).self)
    container.register(TreeCImpl.init(first:second:)).as((any TreeC).self)
    container.register(Leaf1Impl.init).as((any Leaf1).self)
    container.register(Leaf2Impl.init).as((any Leaf2).self)
    container.register(Leaf3Impl.init).as((any Leaf3).self)
    container.register(Leaf4Impl.init).as((any Leaf4).self)
    container.register(Leaf5Impl.init).as((any Leaf5).self)
    container.register(Leaf6Impl.init).as((any Leaf6).self)
    container.register(CycleAImpl.init(b:)).as((any CycleA).self).lifetime(.objectGraph)
    container.register(CycleBImpl.init).as((any CycleB).self)
        .injection(cycle: true) { (b: CycleBImpl, a: any CycleA) in b.a = a }
    return container
}
