import Router
import Testing

// A singleton A whose preparation looks something up through the registry itself (a nested lookup, on the
// same thread), where what it looks up needs a singleton D whose factory needs A. D is built inside A's
// preparation, around an A that is not prepared yet: another thread must not get D before A's preparation
// has run.

private protocol HeldA: AnyObject, Sendable {
    var label: String? { get set }
}
private protocol HeldO: AnyObject, Sendable {}
private protocol HeldD: AnyObject, Sendable {
    var a: any HeldA { get }
}

private final class HeldAImpl: HeldA, @unchecked Sendable {
    // @unchecked: written once by its preparation, before the lookup that built it publishes it.
    var label: String?
}
private final class HeldOImpl: HeldO {
    let d: any HeldD
    init(d: any HeldD) { self.d = d }
}
private final class HeldDImpl: HeldD {
    let a: any HeldA
    init(a: any HeldA) { self.a = a }
}

extension RoutableService where Destination == any HeldA {
    fileprivate static var heldA: Self { Self(declaring: (any HeldA).self) }
}
extension RoutableService where Destination == any HeldO {
    fileprivate static var heldO: Self { Self(declaring: (any HeldO).self) }
}
extension RoutableService where Destination == any HeldD {
    fileprivate static var heldD: Self { Self(declaring: (any HeldD).self) }
}

@Suite struct NestedLookupPublicationTests {
    /// What the second thread saw: D's A, and whether its preparation had run.
    private final class Seen: Sendable {
        let value = TestLocked<String?>(nil)
    }

    @Test(arguments: [false, true])
    func aSingletonBuiltInANestedLookupAroundAnUnpreparedInstanceIsNotPublishedBeforeIt(otherRegistry: Bool) throws {
        let dMade = Signal()
        let otherLooked = Signal()
        let seen = Seen()
        let registry = RouteRegistry()
        // The nested lookup goes through this registry, or through a second one whose O needs D from the first.
        let second = RouteRegistry()
        let nested = otherRegistry ? second : registry
        let oFactory: @Sendable (inout Resolver) throws -> any HeldO = { r in
            let d: any HeldD = otherRegistry ? try registry.makeDestination(to: .heldD) : try r.resolve(.heldD)
            // D exists now, around an A whose preparation is still running (it is this one's caller).
            dMade.fire()
            // Give the other thread time to look D up; it must wait for A's lookup rather than get D now.
            _ = otherLooked.wait(seconds: 0.5)
            return HeldOImpl(d: d)
        }
        try registry.register(.heldA) { _ in HeldAImpl() }
            .scope(.singleton)
            .preparing(declaring: otherRegistry ? nil : .property(.heldO)) { a, _ in
                _ = try nested.makeDestination(to: .heldO)
                a.label = "prepared"
            }
        try registry.register(.heldD) { r in HeldDImpl(a: try r.resolve(.heldA)) }.scope(.singleton)
        if otherRegistry {
            try second.register(.heldO, factory: oFactory)
            try second.seal()
        } else {
            try registry.register(.heldO, factory: oFactory)
        }
        try registry.seal()

        finishesOnItsOwnThread(bound: 30) {
            startThread {
                guard dMade.wait(seconds: 10) else { return }
                let d = try? registry.makeDestination(to: .heldD)
                seen.value.withLock { $0 = d.map { $0.a.label ?? "unprepared" } ?? "failed" }
                otherLooked.fire()
            }
            let a = try? registry.makeDestination(to: .heldA)
            #expect(a?.label == "prepared")
            // The other thread ends once A's lookup has published D.
            _ = otherLooked.wait(seconds: 10)
        }
        #expect(seen.value.withLock { $0 } == "prepared")
    }
}
