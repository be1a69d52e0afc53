import Router

// A(init B), B.a by property; C.a for the three-object loop; D with two B properties.

protocol NodeA: AnyObject {
    var b: (any NodeB)? { get }
    var b1: (any NodeB)? { get set }
    var b2: (any NodeB)? { get set }
}
protocol NodeB: AnyObject {
    var a: (any NodeA)? { get set }
    var c: (any NodeC)? { get }
}
protocol NodeC: AnyObject { var a: (any NodeA)? { get set } }

extension RoutableService where Destination == any NodeA {
    static var nodeA: Self { Self(declaring: (any NodeA).self) }
}
extension RoutableService where Destination == any NodeB {
    static var nodeB: Self { Self(declaring: (any NodeB).self) }
}
extension RoutableService where Destination == any NodeC {
    static var nodeC: Self { Self(declaring: (any NodeC).self) }
}

final class AImpl: NodeA {
    let b: (any NodeB)?
    var b1: (any NodeB)?
    var b2: (any NodeB)?
    init(b: (any NodeB)?) { self.b = b }
}
final class BImpl: NodeB {
    var a: (any NodeA)?
    let c: (any NodeC)?
    init(a: (any NodeA)? = nil, c: (any NodeC)? = nil) {
        self.a = a
        self.c = c
    }
}
final class CImpl: NodeC { var a: (any NodeA)? }

/// Factory and hook call counts for one registry.
final class Calls: Sendable {
    let a = Counter()
    let b = Counter()
    let c = Counter()
    let log = EventLog()
}

/// Breaks the reference cycles a test built, so that leak checks stay quiet.
func breakCycles(_ a: (any NodeA)?) {
    guard let a else { return }
    a.b?.a = nil
    a.b?.c?.a = nil
    a.b1?.a = nil
    a.b2?.a = nil
}
