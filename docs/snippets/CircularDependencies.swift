import Router

// Three nodes whose properties let every example of the article close its cycle.
protocol NodeA: AnyObject {
    var b: (any NodeB)? { get }
    var b1: (any NodeB)? { get set }
    var b2: (any NodeB)? { get set }
}
protocol NodeB: AnyObject { var a: (any NodeA)? { get set } }
protocol NodeC: AnyObject { var a: (any NodeA)? { get set } }

extension RoutableService<any NodeA> {
    nonisolated static var nodeA: Self { .init(declaring: Destination.self) }
}
extension RoutableService<any NodeB> {
    nonisolated static var nodeB: Self { .init(declaring: Destination.self) }
}
extension RoutableService<any NodeC> {
    nonisolated static var nodeC: Self { .init(declaring: Destination.self) }
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
    init(c: (any NodeC)? = nil, a: (any NodeA)? = nil) {
        self.c = c
        self.a = a
    }
}
final class CImpl: NodeC {
    var a: (any NodeA)?
}
final class LazyB: NodeB {
    let lazyA: Lazy<any NodeA>
    init(a: Lazy<any NodeA>) { lazyA = a }
    var a: (any NodeA)? {
        get { try? lazyA.value }
        set {}
    }
}

/// The app's modules.
let modules: [any RouteModule] = []
