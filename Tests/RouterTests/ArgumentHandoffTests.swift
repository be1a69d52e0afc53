import Router
import Testing

// Runtime arguments travel from the lookup to the factory through a buffer the lookup owns (on its stack
// when it fits, in an allocation otherwise), read back as the factory's own types once every type was
// compared. These pin what that must keep: every value arrives intact and in order whatever its size,
// alignment and reference counting, each value is released when the lookup ends, and a list the
// registration does not take is a typed error.

protocol Parcel: AnyObject { var summary: String { get } }
extension RoutableService<any Parcel> {
    static var parcel: Self { .init(declaring: (any Parcel).self) }
    static var bigParcel: Self { parcel.named("big") }
    static var alignedParcel: Self { parcel.named("aligned") }
    static var tokenParcel: Self { parcel.named("token") }
}

final class ParcelImpl: Parcel {
    let summary: String
    init(_ summary: String) { self.summary = summary }
}

/// More than the 64 bytes a lookup keeps on its stack.
struct Manifest: Sendable {
    var lines: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int)
    var title: String
    var total: Int { lines.0 + lines.5 + lines.11 }
}

/// A reference-counted argument, to see when the lookup lets it go.
final class Token: @unchecked Sendable {
    let value: Int
    init(_ value: Int) { self.value = value }
}

private func parcels() throws -> RouteRegistry {
    try sealedRegistry { registry in
        try registry.register(.parcel, arguments: Bool.self, String.self, Int8.self) { _, urgent, label, count in
            ParcelImpl("\(urgent) \(label) \(count)")
        }
        try registry.register(.bigParcel, arguments: Manifest.self, String.self) { _, manifest, note in
            ParcelImpl("\(manifest.title) \(manifest.total) \(note)")
        }
        try registry.register(.alignedParcel, arguments: Bool.self, SIMD4<Double>.self) { _, flag, vector in
            ParcelImpl("\(flag) \(vector.x + vector.y + vector.z + vector.w)")
        }
        try registry.register(.tokenParcel, arguments: Token.self) { _, token in
            guard token.value >= 0 else { throw ParcelRefused() }
            return ParcelImpl("token \(token.value)")
        }
    }
}

private struct ParcelRefused: Error {}

private let manifest = Manifest(lines: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12), title: "crate")

@Suite struct ArgumentHandoffTests {
    @Test func threeArgumentsOfDifferentSizesArriveInOrder() throws {
        let made = try parcels().makeDestination(to: .parcel, arguments: true, "fragile", Int8(-3))
        #expect(made.summary == "true fragile -3")
    }

    @Test func anArgumentLargerThanTheStackBufferArrivesIntact() throws {
        let made = try parcels().makeDestination(to: .bigParcel, arguments: manifest, "north")
        #expect(made.summary == "crate 19 north")
    }

    @Test func anOverAlignedArgumentAfterASmallOneArrivesIntact() throws {
        let made = try parcels().makeDestination(
            to: .alignedParcel, arguments: false, SIMD4<Double>(0.5, 1, 2, 4))
        #expect(made.summary == "false 7.5")
    }

    @Test func theAsyncFormsHandOverTheSameValues() async throws {
        let registry = try parcels()
        let big = try await registry.makeDestinationAsync(to: .bigParcel, arguments: manifest, "south")
        #expect(big.summary == "crate 19 south")
        let three = try await registry.makeDestinationAsync(to: .parcel, arguments: false, "light", Int8(9))
        #expect(three.summary == "false light 9")
    }

    @Test func aReferenceArgumentIsReleasedWhenTheLookupEnds() throws {
        let registry = try parcels()
        weak var kept: Token?
        do {
            let token = Token(4)
            kept = token
            let made = try registry.makeDestination(to: .tokenParcel, arguments: token)
            #expect(made.summary == "token 4")
        }
        #expect(kept == nil)
        // Also when the factory throws, and when the lookup fails before any factory runs.
        do {
            let token = Token(-1)
            kept = token
            #expect(throws: RouteError.self) { try registry.makeDestination(to: .tokenParcel, arguments: token) }
        }
        #expect(kept == nil)
        do {
            let token = Token(1)
            kept = token
            #expect(throws: RouteError.self) { try registry.makeDestination(to: .tokenParcel, arguments: token, 2) }
        }
        #expect(kept == nil)
    }

    @Test func moreArgumentsThanAnyRegistrationTakesAreNamedInTheMismatch() throws {
        let error = #expect(throws: RouteError.self) {
            try parcels().makeDestination(to: .tokenParcel, arguments: 1, 2, 3, 4)
        }
        #expect(error?.code == .argumentMismatch)
        #expect(
            error?.reason
                == "RoutableService<Parcel>[\"token\"] takes the arguments (Token), but was given (Int, Int, Int, Int)."
        )
    }
}
