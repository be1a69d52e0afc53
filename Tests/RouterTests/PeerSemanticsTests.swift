import Router
import Testing

// Graph semantics Swinject and DITranquillity users rely on.

protocol Employer: AnyObject {
    var employee: any Employee { get }
    var lazyEmployee: Lazy<any Employee> { get }
}
protocol Employee: AnyObject { var employer: (any Employer)? { get set } }
final class EmployerImpl: Employer {
    let employee: any Employee
    let lazyEmployee: Lazy<any Employee>
    init(employee: any Employee, lazyEmployee: Lazy<any Employee>) {
        self.employee = employee
        self.lazyEmployee = lazyEmployee
    }
}
final class EmployeeImpl: Employee { weak var employer: (any Employer)? }
extension RoutableService where Destination == any Employer {
    static var employer: Self { Self(declaring: (any Employer).self) }
}
extension RoutableService where Destination == any Employee {
    static var employee: Self { Self(declaring: (any Employee).self) }
}

struct PeerSemanticsTests {
    // MARK: Post-init order (DITranquillity)

    @Test func anObjectIsFullyPreparedBeforeADependentsSetterReceivesIt() throws {
        let log = EventLog()
        let registry = try sealedRegistry { registry in
            try registry.register(
                .nodeA, didFinishPrepare: { _, _ in log.record("A post-init") }
            ) { r in AImpl(b: try r.resolve(.nodeB)) }
            try registry.register(
                .nodeB,
                injections: [
                    .run(declaring: .property(.nodeA)) { b, r in
                        b.a = try r.resolve(.nodeA)
                        log.record("B setter")
                    }
                ],
                didFinishPrepare: { _, _ in log.record("B post-init") }
            ) { _ in BImpl() }
        }
        let b = try registry.makeDestination(to: .nodeB)
        #expect(log.events == ["A post-init", "B setter", "B post-init"])
        #expect(b.a?.b === b)
        breakCycles(b.a)
    }

    @Test func aCallersPreparationStillRunsBeforeTheRegistrationsOwnInsideAPreparation() throws {
        let log = EventLog()
        let registry = try sealedRegistry { registry in
            try registry.register(.radio) { _ in RadioImpl() }
            try registry.register(.engine, didFinishPrepare: { _, _ in log.record("engine prepared") }) { _ in V8() }
            try registry.register(
                .car,
                injections: [
                    .run { car, r in
                        _ = try r.resolve(.engine) { _ in log.record("caller's preparation") }
                        log.record("car setter")
                    }
                ]
            ) { _ in CarImpl(engine: V8()) }
        }
        _ = try registry.makeDestination(to: .car)
        #expect(log.events == ["caller's preparation", "engine prepared", "car setter"])
    }
}
