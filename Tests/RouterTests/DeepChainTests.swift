import Router
import Testing

struct DeepChainTests {
    /// `length` transient services, each resolving the next in its initializer.
    func chain(length: Int, maxDepth: Int = 1_000) throws -> (RouteRegistry, RoutableService<any Engine>) {
        let keys = (0..<length).map { RoutableService.engine.named("link\($0)") }
        let registry = try sealedRegistry(maxDepth: maxDepth) { registry in
            for index in 0..<length {
                if index == length - 1 {
                    try registry.register(keys[index]) { _ in V8(horsepower: index) }
                } else {
                    let next = keys[index + 1]
                    try registry.register(keys[index]) { r in try r.resolve(next) }
                }
            }
        }
        return (registry, keys[0])
    }

    @Test func aChainOfTenThousandFailsWithATypedErrorInsteadOfOverflowingTheStack() throws {
        let (registry, first) = try chain(length: 10_000)
        let error = #expect(throws: RouteError.self) { try registry.makeDestination(to: first) }
        #expect(error?.code == .resolutionTooDeep)
        #expect(
            error?.reason == "Resolving RoutableService<Engine>[\"link1000\"] went deeper than 1000 nested lookups.")
        #expect(error?.path.count == 7)
        // The registry still works afterwards.
        #expect(throws: Never.self) { try registry.makeDestination(to: RoutableService.engine.named("link9990")) }
    }

    @Test func aChainJustUnderTheLimitResolvesOnATestThread() throws {
        let (registry, first) = try chain(length: 1_000)
        #expect(try registry.makeDestination(to: first).horsepower == 999)
    }

    @Test func theLimitIsConfigurable() throws {
        let (registry, first) = try chain(length: 1_500, maxDepth: 1_500)
        // On a thread with room for 1,500 links in every build: a debug build under ThreadSanitizer takes
        // about 5.5 KiB a link, more than a test thread's 8 MiB holds (the stack guard then stops the lookup
        // with a typed error, which `aChainOfTenThousandFailsWithATypedErrorInsteadOfOverflowingTheStack` pins).
        let horsepower = TestLocked<Int?>(nil)
        finishesOnItsOwnThread(stackSize: 32 << 20, bound: 60) {
            horsepower.withLock { $0 = try? registry.makeDestination(to: first).horsepower }
        }
        #expect(horsepower.withLock { $0 } == 1_499)
    }
}
