import Router
import Testing

// Thread pools often give their threads small stacks (64 KiB is common). A lookup that fits must run
// there; one that does not must stop with `resolutionTooDeep`, never overflow the stack.

extension DepthGuardTests {
    @Test(arguments: [ChainKind.transient, .singleton, .injectedSingleton, .registry])
    func aShallowLookupRunsOnA64KiBThread(kind: ChainKind) throws {
        for length in [1, 3] {
            let registry = try chain(kind, length: length)
            let error = resolvesOrStops(registry, length: length, stackSize: 64 * 1_024)
            #expect(error == nil, "\(length) levels: \(String(describing: error))")
        }
    }

    @Test(arguments: [ChainKind.transient, .injectedSingleton])
    func aDeepChainOnA64KiBThreadStopsWithATypedError(kind: ChainKind) throws {
        let registry = try chain(kind, length: 5_000, maxDepth: 1_000_000)
        let error = resolvesOrStops(registry, length: 5_000, stackSize: 64 * 1_024)
        // The message names the stack the thread really has: the C library may hand a new thread a
        // larger cached stack than it asked for (ThreadSanitizer's runs show it), so the size is not
        // pinned here; `aChainFarPastTheStackStopsWithATypedErrorNamingTheStack` pins the wording.
        #expect(error?.code == .resolutionTooDeep, "\(String(describing: error))")
    }
}
