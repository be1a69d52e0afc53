import Router
import Testing

final class RecordingRadio: Radio {}

protocol Parent: AnyObject { var child: (any Child)? { get set } }
protocol Child: AnyObject { var parent: (any Parent)? { get set } }

extension RoutableService where Destination == any Parent {
    static var parent: Self { Self(declaring: (any Parent).self) }
}
extension RoutableService where Destination == any Child {
    static var child: Self { Self(declaring: (any Child).self) }
}

/// Keeps the parent alive past the lookup, as a screen stack would.
final class ParentHolder: @unchecked Sendable {
    // @unchecked: written and read by one test on one thread.
    var parent: (any Parent)?
}

final class ParentImpl: Parent { var child: (any Child)? }
final class ChildImpl: Child { weak var parent: (any Parent)? }

let hookLog = EventLog()
let childLookups = Counter()

final class CarRouter: ServiceRouter<any Car, ModuleConfiguration<any Car>> {
    override func makeDestination(
        configuration: ModuleConfiguration<any Car>, resolver: inout Resolver
    ) throws -> any Car {
        hookLog.record("make")
        return CarImpl(engine: try resolver.resolve(.engine))
    }

    override func prepareDestination(
        _ destination: any Car, configuration: ModuleConfiguration<any Car>, resolver: inout Resolver
    ) throws {
        hookLog.record("router prepare, radio already set: \(destination.radio != nil)")
        if destination.radio == nil { destination.radio = try resolver.resolve(.radio) }
    }

    override func didFinishPrepareDestination(
        _ destination: any Car, configuration: ModuleConfiguration<any Car>, resolver: inout Resolver
    ) throws {
        hookLog.record("did finish")
    }
}

/// ZIKRouter's documented pattern: the parent's router makes the child with a preparation that sets
/// `child.parent`; the child's router looks the parent up only when it is still unset.
final class ParentRouter: ServiceRouter<any Parent, ModuleConfiguration<any Parent>> {
    override func makeDestination(
        configuration: ModuleConfiguration<any Parent>, resolver: inout Resolver
    ) throws -> any Parent { ParentImpl() }

    override func prepareDestination(
        _ destination: any Parent, configuration: ModuleConfiguration<any Parent>, resolver: inout Resolver
    ) throws {
        if destination.child == nil {
            destination.child = try resolver.resolve(.child) { child in child.parent = destination }
        }
    }
}

final class ChildRouter: ServiceRouter<any Child, ModuleConfiguration<any Child>> {
    override func makeDestination(
        configuration: ModuleConfiguration<any Child>, resolver: inout Resolver
    ) throws -> any Child { ChildImpl() }

    override func prepareDestination(
        _ destination: any Child, configuration: ModuleConfiguration<any Child>, resolver: inout Resolver
    ) throws {
        if destination.parent == nil {
            childLookups.increment()
            destination.parent = try resolver.resolve(.parent)
        }
    }
}

@Suite(.serialized)
struct RouterHookTests {
    @Test func hooksRunInZIKRouterOrderCallerPreparationFirst() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8() }
            try registry.register(.radio) { _ in RadioImpl() }
            try registry.register(router: CarRouter.self, for: .car)
        }
        let callerRadio = RecordingRadio()
        let car = try registry.makeDestination(to: .car) { car in
            hookLog.record("caller preparation")
            car.radio = callerRadio
        }
        #expect(car.radio === callerRadio)
        #expect(
            hookLog.events.suffix(4)
                == ["make", "caller preparation", "router prepare, radio already set: true", "did finish"])
    }

    @Test func closureRegistrationsRunInjectionsThenPrepareThenDidFinish() throws {
        let log = EventLog()
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8() }
            try registry.register(.radio) { _ in RadioImpl() }
            try registry.register(.car) { r in CarImpl(engine: try r.resolve(.engine)) }.injecting(\.radio, .radio)
                .preparing { _, _ in log.record("second injection") }.preparing { car, _ in
                    log.record("prepare sees radio: \(car.radio != nil)")
                }.didFinishPrepare { _, _ in log.record("did finish") }
        }
        _ = try registry.makeDestination(to: .car) { _ in log.record("caller") }
        #expect(log.events == ["caller", "second injection", "prepare sees radio: true", "did finish"])
    }

    @Test func zikRouterCircularPatternLinksParentAndChildOnce() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(router: ParentRouter.self, for: .parent)
            try registry.register(router: ChildRouter.self, for: .child)
        }
        let before = childLookups.value
        let parent = try registry.makeDestination(to: .parent)
        #expect(parent.child?.parent === parent)
        #expect(childLookups.value == before)  // the child router saw the parent set and skipped its lookup

        // From the child's side, the child router looks the parent up; the parent's router then finds the
        // child that is being prepared and links to it instead of making a second one.
        let child = try registry.makeDestination(to: .child) { _ in }
        #expect(childLookups.value == before + 1)
        #expect(child.parent == nil)  // the back-reference is weak, and nothing else holds the parent
        let holder = ParentHolder()
        let linked = try sealedRegistry { registry in
            try registry.register(router: ParentRouter.self, for: .parent)
            try registry.register(.child) { _ in ChildImpl() }.preparing { child, r in
                if child.parent == nil {
                    let parent = try r.resolve(.parent)
                    // Its preparation ran before it was handed over: it found this child being prepared
                    // and linked to it, so the pair is closed without a second child.
                    #expect(parent.child === child)
                    child.parent = parent
                    holder.parent = parent
                }
            }
        }
        let second = try linked.makeDestination(to: .child)
        #expect(holder.parent?.child === second)
        #expect(second.parent === holder.parent)
        holder.parent = nil
    }
}
