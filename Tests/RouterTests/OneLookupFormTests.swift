import Router
import Testing

// A service key has one lookup form per receiver and terminal: `makeDestination(to:arguments:…preparation:)`,
// its async twin, the request scope's two, and `resolve`/`resolveAsync` in a factory. Arguments and a
// caller's preparation are parts of that one form, so they combine: these pin the combinations the
// separate forms never allowed (arguments with a preparation, a preparation in a request scope), and the
// order a caller's preparation keeps there: after the factory, before the registration's own preparation.

final class Ticket: @unchecked Sendable {
    // @unchecked: each ticket is made, prepared and read by one test's lookup on one thread at a time.
    let seat: Int
    let row: String
    var steps: [String] = []
    init(seat: Int, row: String) {
        self.seat = seat
        self.row = row
    }
}

extension RoutableService<Ticket> {
    static var ticket: Self { .init(declaring: Ticket.self) }
    static var ticketHolder: Self { ticket.named("holder") }
    static var scopedTicket: Self { ticket.named("scoped") }
}

private func tickets(async: Bool = false) throws -> RouteRegistry {
    try sealedRegistry { registry in
        if async {
            try registry.registerAsync(.ticket, arguments: Int.self, String.self) { _, seat, row in
                await Task.yield()
                let made = Ticket(seat: seat, row: row)
                made.steps.append("factory")
                return made
            }.preparing { ticket, _ in ticket.steps.append("registration") }
        } else {
            try registry.register(.ticket, arguments: Int.self, String.self) { _, seat, row in
                let made = Ticket(seat: seat, row: row)
                made.steps.append("factory")
                return made
            }.preparing { ticket, _ in ticket.steps.append("registration") }
        }
        try registry.register(.scopedTicket) { _ in
            let made = Ticket(seat: 0, row: "scoped")
            made.steps.append("factory")
            return made
        }.scope(.request)
        try registry.register(.ticketHolder) { r in
            try r.resolve(.ticket, arguments: 7, "G") { $0.steps.append("caller") }
        }
    }
}

struct OneLookupFormTests {
    @Test func aLookupWithArgumentsRunsTheCallersPreparationAfterTheFactoryAndBeforeTheRegistrations() throws {
        let ticket = try tickets().makeDestination(to: .ticket, arguments: 12, "C") { $0.steps.append("caller") }
        #expect((ticket.seat, ticket.row) == (12, "C"))
        #expect(ticket.steps == ["factory", "caller", "registration"])
    }

    @Test func aFactoryResolvesWithArgumentsAndAPreparationInOneCall() throws {
        let ticket = try tickets().makeDestination(to: .ticketHolder)
        #expect((ticket.seat, ticket.row) == (7, "G"))
        #expect(ticket.steps == ["factory", "caller", "registration"])
    }

    @Test func anAsyncLookupWithArgumentsRunsTheCallersPreparation() async throws {
        let registry = try tickets(async: true)
        let ticket = try await registry.makeDestinationAsync(to: .ticket, arguments: 3, "A") {
            $0.steps.append("caller")
        }
        #expect((ticket.seat, ticket.row) == (3, "A"))
        #expect(ticket.steps == ["factory", "caller", "registration"])
    }

    @Test func anAsyncFactoryResolvesWithArgumentsAndAPreparation() async throws {
        let registry = try sealedRegistry { registry in
            try registry.registerAsync(.ticket, arguments: Int.self, String.self) { _, seat, row in
                Ticket(seat: seat, row: row)
            }
            try registry.registerAsync(.ticketHolder) { r in
                try await r.resolveAsync(.ticket, arguments: 9, "J") { $0.steps.append("caller") }
            }
        }
        let ticket = try await registry.makeDestinationAsync(to: .ticketHolder)
        #expect((ticket.seat, ticket.row) == (9, "J"))
        #expect(ticket.steps == ["caller"])
    }

    @Test func aRequestScopeLookupTakesArgumentsAndAPreparation() async throws {
        let registry = try tickets()
        let scope = registry.openRequestScope()
        defer { scope.end() }
        let ticket = try scope.makeDestination(to: .ticket, arguments: 1, "B") { $0.steps.append("caller") }
        #expect(ticket.steps == ["factory", "caller", "registration"])
        let scoped = try scope.makeDestination(to: .scopedTicket) { $0.steps.append("caller") }
        // The scope's instance is prepared by the lookup that made it; the next lookup in the scope gets it.
        #expect(try scope.makeDestination(to: .scopedTicket) === scoped)
        #expect(scoped.steps == ["factory", "caller"])
        let later = try await scope.makeDestinationAsync(to: .ticket, arguments: 2, "D") {
            $0.steps.append("caller")
        }
        #expect((later.seat, later.row) == (2, "D"))
        #expect(later.steps == ["factory", "caller", "registration"])
    }

    @Test func aCallersPreparationThatThrowsWithArgumentsFailsTheLookupAsFactoryFailed() throws {
        let error = try #require(throws: RouteError.self) {
            try tickets().makeDestination(to: .ticket, arguments: 5, "E") { _ in throw Boom() }
        }
        #expect(error.code == .factoryFailed)
        #expect(error.description.contains("caller's preparation"))
    }

    @Test func argumentsOfTheWrongTypesWithAPreparationAreStillAnArgumentMismatch() throws {
        var prepared = false
        let error = try #require(throws: RouteError.self) {
            try tickets().makeDestination(to: .ticket, arguments: "12", "C") { _ in prepared = true }
        }
        #expect(error.code == .argumentMismatch)
        #expect(!prepared)
    }
}
