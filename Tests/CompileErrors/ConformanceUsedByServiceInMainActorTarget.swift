// expected-error: main actor-isolated conformance of 'APIKeyPlugin' to 'RequestPlugin' cannot be used in nonisolated context [#IsolatedConformances]
// expected-errors: 1
// swiftc-flags: -default-isolation MainActor
//
// In a target whose default isolation is the main actor, a struct that adopts a nonisolated protocol
// adopts it on the main actor, so a nonisolated service cannot use it as that protocol.

import Router

nonisolated protocol RequestPlugin {
    func prepare(_ headers: inout [String: String])
}

struct APIKeyPlugin: RequestPlugin {
    let key: String
    func prepare(_ headers: inout [String: String]) { headers["X-API-Key"] = key }
}

nonisolated final class APIClient {
    let plugins: [any RequestPlugin]
    init(key: String) { plugins = [APIKeyPlugin(key: key)] }
}
