import Router
import Testing

// Async singletons: a cycle raced from two tasks is a typed error, never a hang; a built one is shared
// inside `withOverrides` like a synchronous singleton.

protocol AsyncNode: AnyObject, Sendable { var name: String { get } }
final class AsyncNodeImpl: AsyncNode {
    let name: String
    init(_ name: String) { self.name = name }
}
extension RoutableService where Destination == any AsyncNode {
    static var asyncNode: Self { Self(declaring: (any AsyncNode).self) }
}

struct AsyncGuaranteeTests {
    @Test func twoTasksRacingACycleOfAsyncSingletonsGetTypedErrorsNotAHang() async throws {
        for _ in 0..<10 {
            let left = RoutableService.asyncNode.named("left")
            let right = RoutableService.asyncNode.named("right")
            let started = Counter()
            let registry = try sealedRegistry { registry in
                for (key, other) in [(left, right), (right, left)] {
                    try registry.registerAsync(key) { r async throws in
                        // Both factories start before either asks for the other.
                        started.increment()
                        for _ in 0..<1_000 where started.value < 2 { await Task.yield() }
                        return AsyncNodeImpl(try await r.resolveAsync(other).name + "!")
                    }.scope(.singleton)
                }
            }
            let codes = TestLocked<[RouteError.Code]>([])
            await withTaskGroup(of: Void.self) { group in
                for key in [left, right] {
                    group.addTask {
                        do {
                            _ = try await registry.makeDestinationAsync(to: key)
                        } catch let error as RouteError {
                            codes.withLock { $0.append(error.code) }
                        } catch {}
                    }
                }
            }
            #expect(codes.withLock { $0 } == [.circularDependency, .circularDependency])
        }
    }

    @Test func aBuiltAsyncSingletonIsSharedInsideWithOverrides() async throws {
        let built = Counter()
        let registry = try sealedRegistry { registry in
            try registry.registerAsync(.asyncNode) { _ async throws in
                built.increment()
                return AsyncNodeImpl("real")
            }.scope(.singleton)
            try registry.register(.engine) { _ in V8() }
        }
        let outside = try await registry.makeDestinationAsync(to: .asyncNode)
        let inside = try await registry.withOverrides { overrides in
            try overrides.register(.engine) { _ in V8(horsepower: 1) }
        } operation: {
            try await registry.makeDestinationAsync(to: .asyncNode)
        }
        #expect(inside === outside)
        #expect(built.value == 1)
    }
}
