// expected-error: main actor-isolated property 'isExpired' can not be referenced from a nonisolated context
// expected-errors: 4
// swiftc-flags: -default-isolation MainActor
//
// In a target whose default isolation is the main actor, a struct declared without `nonisolated` has
// main-actor members and conformances; a nonisolated service that uses it gets one error per use.

import Router

struct Tokens: Equatable {
    let access: String
    let refresh: String

    init(access: String, refresh: String) {
        self.access = access
        self.refresh = refresh
    }

    var isExpired: Bool { access.isEmpty }
    func refreshed(with access: String) -> Tokens { Tokens(access: access, refresh: refresh) }
}

nonisolated protocol TokenStore: AnyObject, Sendable {
    func save(_ tokens: Tokens)
}
extension RoutableService<any TokenStore> {
    nonisolated static var tokenStore: Self { .init(declaring: Destination.self) }
}

final class MemoryTokenStore: TokenStore {
    func save(_ tokens: Tokens) {
        let fresh = tokens.isExpired ? tokens.refreshed(with: "new") : tokens
        if fresh != Tokens(access: "", refresh: "") { print(fresh.access) }
    }
}
