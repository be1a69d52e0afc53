import Router
import Swinject

// The services the scenarios build. Every one is a class-bound protocol with a final class behind it,
// looked up by the protocol, as an app would.

/// Unwraps a Swinject lookup inside a Swinject factory (which cannot throw).
func required<T>(_ value: T?, file: StaticString = #file, line: UInt = #line) -> T {
    guard let value else { fatalError("Swinject returned nil for \(T.self)", file: file, line: line) }
    return value
}

// MARK: s1 / s4: one transient service without dependencies

protocol Engine: AnyObject {}
final class V8: Engine {}
extension RoutableService where Destination == any Engine {
    static var engine: Self { Self(declaring: (any Engine).self) }
}

@inline(never)
func makeEngineByHand() -> any Engine { V8() }

// MARK: s2 / s7: a transient tree of 10 objects (root → 3 → 2 each)

protocol TreeRoot: AnyObject {}
protocol TreeA: AnyObject {}
protocol TreeB: AnyObject {}
protocol TreeC: AnyObject {}
protocol Leaf1: AnyObject {}
protocol Leaf2: AnyObject {}
protocol Leaf3: AnyObject {}
protocol Leaf4: AnyObject {}
protocol Leaf5: AnyObject {}
protocol Leaf6: AnyObject {}

final class TreeRootImpl: TreeRoot {
    let a: any TreeA
    let b: any TreeB
    let c: any TreeC
    init(a: any TreeA, b: any TreeB, c: any TreeC) {
        self.a = a
        self.b = b
        self.c = c
    }
}
final class TreeAImpl: TreeA {
    let first: any Leaf1
    let second: any Leaf2
    init(first: any Leaf1, second: any Leaf2) {
        self.first = first
        self.second = second
    }
}
final class TreeBImpl: TreeB {
    let first: any Leaf3
    let second: any Leaf4
    init(first: any Leaf3, second: any Leaf4) {
        self.first = first
        self.second = second
    }
}
final class TreeCImpl: TreeC {
    let first: any Leaf5
    let second: any Leaf6
    init(first: any Leaf5, second: any Leaf6) {
        self.first = first
        self.second = second
    }
}
final class Leaf1Impl: Leaf1 {}
final class Leaf2Impl: Leaf2 {}
final class Leaf3Impl: Leaf3 {}
final class Leaf4Impl: Leaf4 {}
final class Leaf5Impl: Leaf5 {}
final class Leaf6Impl: Leaf6 {}

extension RoutableService where Destination == any TreeRoot {
    static var treeRoot: Self { Self(declaring: (any TreeRoot).self) }
}
extension RoutableService where Destination == any TreeA {
    static var treeA: Self { Self(declaring: (any TreeA).self) }
}
extension RoutableService where Destination == any TreeB {
    static var treeB: Self { Self(declaring: (any TreeB).self) }
}
extension RoutableService where Destination == any TreeC {
    static var treeC: Self { Self(declaring: (any TreeC).self) }
}
extension RoutableService where Destination == any Leaf1 {
    static var leaf1: Self { Self(declaring: (any Leaf1).self) }
}
extension RoutableService where Destination == any Leaf2 {
    static var leaf2: Self { Self(declaring: (any Leaf2).self) }
}
extension RoutableService where Destination == any Leaf3 {
    static var leaf3: Self { Self(declaring: (any Leaf3).self) }
}
extension RoutableService where Destination == any Leaf4 {
    static var leaf4: Self { Self(declaring: (any Leaf4).self) }
}
extension RoutableService where Destination == any Leaf5 {
    static var leaf5: Self { Self(declaring: (any Leaf5).self) }
}
extension RoutableService where Destination == any Leaf6 {
    static var leaf6: Self { Self(declaring: (any Leaf6).self) }
}

@inline(never)
func makeTreeByHand() -> any TreeRoot {
    TreeRootImpl(
        a: TreeAImpl(first: Leaf1Impl(), second: Leaf2Impl()),
        b: TreeBImpl(first: Leaf3Impl(), second: Leaf4Impl()),
        c: TreeCImpl(first: Leaf5Impl(), second: Leaf6Impl()))
}

func registerTree(in registry: RouteRegistry) throws {
    try registry.register(.treeRoot) { r in
        TreeRootImpl(a: try r.resolve(.treeA), b: try r.resolve(.treeB), c: try r.resolve(.treeC))
    }
    try registry.register(.treeA) { r in TreeAImpl(first: try r.resolve(.leaf1), second: try r.resolve(.leaf2)) }
    try registry.register(.treeB) { r in TreeBImpl(first: try r.resolve(.leaf3), second: try r.resolve(.leaf4)) }
    try registry.register(.treeC) { r in TreeCImpl(first: try r.resolve(.leaf5), second: try r.resolve(.leaf6)) }
    try registry.register(.leaf1) { _ in Leaf1Impl() }
    try registry.register(.leaf2) { _ in Leaf2Impl() }
    try registry.register(.leaf3) { _ in Leaf3Impl() }
    try registry.register(.leaf4) { _ in Leaf4Impl() }
    try registry.register(.leaf5) { _ in Leaf5Impl() }
    try registry.register(.leaf6) { _ in Leaf6Impl() }
}

func registerTree(in container: Container) {
    container.register((any TreeRoot).self) { r in
        TreeRootImpl(
            a: required(r.resolve((any TreeA).self)), b: required(r.resolve((any TreeB).self)),
            c: required(r.resolve((any TreeC).self)))
    }
    container.register((any TreeA).self) { r in
        TreeAImpl(first: required(r.resolve((any Leaf1).self)), second: required(r.resolve((any Leaf2).self)))
    }
    container.register((any TreeB).self) { r in
        TreeBImpl(first: required(r.resolve((any Leaf3).self)), second: required(r.resolve((any Leaf4).self)))
    }
    container.register((any TreeC).self) { r in
        TreeCImpl(first: required(r.resolve((any Leaf5).self)), second: required(r.resolve((any Leaf6).self)))
    }
    container.register((any Leaf1).self) { _ in Leaf1Impl() }
    container.register((any Leaf2).self) { _ in Leaf2Impl() }
    container.register((any Leaf3).self) { _ in Leaf3Impl() }
    container.register((any Leaf4).self) { _ in Leaf4Impl() }
    container.register((any Leaf5).self) { _ in Leaf5Impl() }
    container.register((any Leaf6).self) { _ in Leaf6Impl() }
}

// MARK: s10: s2's tree, auto-wired from the initializers

/// s2's tree registered with `initializer:`: each parameter is resolved by its type's registration, and
/// the edges are recorded for sealing. Its lookup should cost what the closure form's does.
func registerTreeAutoWired(in registry: RouteRegistry) throws {
    try registry.register(.treeRoot, initializer: TreeRootImpl.init)
    try registry.register(.treeA, initializer: TreeAImpl.init)
    try registry.register(.treeB, initializer: TreeBImpl.init)
    try registry.register(.treeC, initializer: TreeCImpl.init)
    try registry.register(.leaf1, initializer: Leaf1Impl.init)
    try registry.register(.leaf2, initializer: Leaf2Impl.init)
    try registry.register(.leaf3, initializer: Leaf3Impl.init)
    try registry.register(.leaf4, initializer: Leaf4Impl.init)
    try registry.register(.leaf5, initializer: Leaf5Impl.init)
    try registry.register(.leaf6, initializer: Leaf6Impl.init)
}

// MARK: s11: a main-actor destination, looked up on the main actor

protocol Screen: AnyObject {}
/// A view model as apps write them: main-actor isolated, made on the main actor.
@MainActor final class ScreenModel: Screen {
    var title = "Home"
}
extension RoutableService where Destination == any Screen {
    nonisolated static var screen: Self { Self(declaring: (any Screen).self) }
}

@MainActor @inline(never)
func makeScreenByHand() -> any Screen { ScreenModel() }

// MARK: s3: a singleton that is already built

protocol Settings: AnyObject {}
final class SettingsImpl: Settings {}
extension RoutableService where Destination == any Settings {
    static var settings: Self { Self(declaring: (any Settings).self) }
}

/// Hand-wired singleton: the app keeps the one instance in a stored property and hands it out.
final class SettingsHolder: Sendable {
    let settings: any Settings & Sendable
    init(_ settings: any Settings & Sendable) { self.settings = settings }
}

/// Two holders of one instance, for ``settingsByHand(_:_:)``.
func makeSettingsHolders() -> [SettingsHolder] {
    let shared = SettingsImpl()
    return [SettingsHolder(shared), SettingsHolder(shared)]
}
extension SettingsImpl: Sendable {}

/// Reads the instance from one of two holders of the same instance: the varying index stops the optimizer
/// from hoisting the read out of the benchmark loop (it did, measuring 0.8 ns for nothing).
@inline(never)
func settingsByHand(_ holders: [SettingsHolder], _ index: Int) -> any Settings { holders[index & 1].settings }

// MARK: s6: a cycle. A takes B in its initializer; B gets A by property; one A per graph

protocol CycleA: AnyObject {
    var b: any CycleB { get }
}
protocol CycleB: AnyObject {
    var a: (any CycleA)? { get set }
}
final class CycleAImpl: CycleA {
    let b: any CycleB
    init(b: any CycleB) { self.b = b }
}
final class CycleBImpl: CycleB {
    /// Weak: A owns B, so the back reference must not keep A alive (hand-wired code would leak otherwise).
    weak var a: (any CycleA)?
}
extension RoutableService where Destination == any CycleA {
    static var cycleA: Self { Self(declaring: (any CycleA).self) }
}
extension RoutableService where Destination == any CycleB {
    static var cycleB: Self { Self(declaring: (any CycleB).self) }
}

@inline(never)
func makeCycleByHand() -> any CycleA {
    let b = CycleBImpl()
    let a = CycleAImpl(b: b)
    b.a = a
    return a
}

/// - Parameters:
///   - byClosure: B gets A from a `preparing` closure instead of a key-path injection (`--profile s6p`):
///     the same graph, without the key-path runtime a write through `\.a` of an existential pays.
///   - onMakeA: Called each time A's factory runs (verification only; nil when timing).
func registerCycle(in registry: RouteRegistry, byClosure: Bool = false, onMakeA: (@Sendable () -> Void)? = nil) throws {
    if let onMakeA {
        try registry.register(.cycleA) { r in
            onMakeA()
            return CycleAImpl(b: try r.resolve(.cycleB))
        }.scope(.graph)
    } else {
        try registry.register(.cycleA) { r in CycleAImpl(b: try r.resolve(.cycleB)) }.scope(.graph)
    }
    if byClosure {
        try registry.register(.cycleB) { _ in CycleBImpl() }
            .preparing(declaring: .property(.cycleA)) { b, r in b.a = try r.resolve(.cycleA) }
    } else {
        try registry.register(.cycleB) { _ in CycleBImpl() }.injecting(\.a, .cycleA)
    }
}

func registerCycle(in container: Container, onMakeA: (() -> Void)? = nil) {
    container.register((any CycleA).self) { r in
        onMakeA?()
        return CycleAImpl(b: required(r.resolve((any CycleB).self)))
    }
    .inObjectScope(.graph)
    container.register((any CycleB).self) { _ in CycleBImpl() }
        .initCompleted { r, b in b.a = r.resolve((any CycleA).self) }
        .inObjectScope(.graph)
}

// MARK: s15: runtime arguments (s15n: the same destination without them)

protocol Clock: AnyObject {}
final class ClockImpl: Clock {}
/// s15's destination: a transient with one singleton dependency and values given at the lookup.
protocol Greeting: AnyObject {}
/// s15's destination, registered with one argument.
protocol GreetingFor: AnyObject {}
/// s15b's destination, registered with two arguments.
protocol GreetingForTimes: AnyObject {}
final class GreetingImpl: Greeting, GreetingFor, GreetingForTimes {
    let clock: any Clock
    let name: String
    let times: Int
    init(clock: any Clock, name: String, times: Int) {
        self.clock = clock
        self.name = name
        self.times = times
    }
}
extension RoutableService where Destination == any Clock {
    static var clock: Self { Self(declaring: (any Clock).self) }
}
extension RoutableService where Destination == any Greeting {
    static var greeting: Self { Self(declaring: (any Greeting).self) }
}
extension RoutableService where Destination == any GreetingFor {
    static var greetingFor: Self { Self(declaring: (any GreetingFor).self) }
}
extension RoutableService where Destination == any GreetingForTimes {
    static var greetingForTimes: Self { Self(declaring: (any GreetingForTimes).self) }
}

/// s15n, s15 and s15b's registrations: the same factory taking no, one and two runtime arguments.
func registerGreetings(in registry: RouteRegistry) throws {
    try registry.register(.clock) { _ in ClockImpl() }.scope(.singleton)
    try registry.register(.greeting) { r in GreetingImpl(clock: try r.resolve(.clock), name: "Ann", times: 1) }
    try registry.register(.greetingFor, arguments: Int.self) { r, times in
        GreetingImpl(clock: try r.resolve(.clock), name: "Ann", times: times)
    }
    try registry.register(.greetingForTimes, arguments: String.self, Int.self) { r, name, times in
        GreetingImpl(clock: try r.resolve(.clock), name: name, times: times)
    }
}

/// Hand-wired: the singleton kept in a stored property, the greeting made with the values.
@inline(never)
func makeGreetingByHand(_ clock: any Clock, _ name: String, _ times: Int) -> GreetingImpl {
    GreetingImpl(clock: clock, name: name, times: times)
}
