import Router
import Testing

// A top-level lookup with runtime arguments of a plain transient takes a fast path specialised in the
// caller, which writes the values as one tuple `(First, (Rest...))`; every other lookup (nested, under
// overrides, async, of a named key, of a shared registration) writes them one by one with a cursor that
// follows the same layout, and a synchronous factory reads them back as that tuple. These pin that each
// writer fits the readers, with lists whose layout differs from a flat one (a small first value before a
// more aligned rest), that each value is released once, and that the fast path's errors are the general
// path's.

protocol Crate: AnyObject { var summary: String { get } }
extension RoutableService<any Crate> {
    static var smallFirst: Self { .init(declaring: (any Crate).self) }
}
protocol AlignedCrate: AnyObject { var summary: String { get } }
extension RoutableService<any AlignedCrate> {
    static var aligned: Self { .init(declaring: (any AlignedCrate).self) }
}
protocol BigCrate: AnyObject { var summary: String { get } }
extension RoutableService<any BigCrate> {
    static var big: Self { .init(declaring: (any BigCrate).self) }
}
protocol TokenCrate: AnyObject { var summary: String { get } }
extension RoutableService<any TokenCrate> {
    static var token: Self { .init(declaring: (any TokenCrate).self) }
}
protocol CrateShelf: AnyObject { var summary: String { get } }
extension RoutableService<any CrateShelf> {
    static var shelf: Self { .init(declaring: (any CrateShelf).self) }
}

final class CrateImpl: Crate, AlignedCrate, BigCrate, TokenCrate, CrateShelf {
    let summary: String
    init(_ summary: String) { self.summary = summary }
}

/// Over 64 bytes, so the fast path puts it in an allocation, not on its stack.
struct CrateManifest: Sendable {
    var weights: (Int, Int, Int, Int, Int, Int, Int, Int, Int)
    var label: String
}

/// A reference-counted argument, to see that each lookup releases what it was given.
final class CrateToken: @unchecked Sendable {
    let value: Int
    init(_ value: Int) { self.value = value }
}

private struct CrateRefused: Error {}

/// No named registrations, so that every top-level lookup below can take the fast path.
private func crates() throws -> RouteRegistry {
    try sealedRegistry { registry in
        // Flat, these would sit at 0, 1, 8; as `(UInt8, (UInt8, Int))` at 0, 8, 16.
        try registry.register(.smallFirst, arguments: UInt8.self, UInt8.self, Int.self) { _, a, b, c in
            CrateImpl("\(a) \(b) \(c)")
        }
        try registry.register(.aligned, arguments: Bool.self, Int8.self, SIMD4<Double>.self) { _, flag, small, v in
            CrateImpl("\(flag) \(small) \(v.x + v.y + v.z + v.w)")
        }
        try registry.register(.big, arguments: UInt8.self, CrateManifest.self) { _, tag, manifest in
            CrateImpl("\(tag) \(manifest.weights.0 + manifest.weights.8) \(manifest.label)")
        }
        try registry.register(.token, arguments: CrateToken.self) { _, token in
            guard token.value >= 0 else { throw CrateRefused() }
            return CrateImpl("token \(token.value)")
        }
        // Writes the arguments of a nested lookup, which takes the general way.
        try registry.register(.shelf, arguments: UInt8.self) { r, first in
            let nested = try r.resolve(.smallFirst, arguments: first, UInt8(2), 300)
            let aligned = try r.resolve(.aligned, arguments: true, Int8(-4), SIMD4<Double>(1, 2, 3, 4))
            return CrateImpl(nested.summary + " / " + aligned.summary)
        }
    }
}

private let manifest = CrateManifest(weights: (5, 0, 0, 0, 0, 0, 0, 0, 9), label: "fragile")

@Suite struct ArgumentFastPathTests {
    @Test func topLevelLookupsHandOverEveryValueIntact() throws {
        let registry = try crates()
        #expect(
            try registry.makeDestination(to: .smallFirst, arguments: UInt8(7), UInt8(250), -12).summary == "7 250 -12")
        #expect(
            try registry.makeDestination(to: .aligned, arguments: false, Int8(3), SIMD4<Double>(0.5, 1, 2, 4)).summary
                == "false 3 7.5")
        #expect(try registry.makeDestination(to: .big, arguments: UInt8(1), manifest).summary == "1 14 fragile")
    }

    @Test func theGeneralWaysWriteTheLayoutTheFactoriesRead() async throws {
        let registry = try crates()
        // Nested in a factory.
        #expect(try registry.makeDestination(to: .shelf, arguments: UInt8(9)).summary == "9 2 300 / true -4 10.0")
        // Under overrides, which send every lookup of the registry the general way.
        let overridden = try registry.withOverrides { overrides in
            try overrides.register(.token, arguments: CrateToken.self) { _, token in CrateImpl("fake \(token.value)") }
        } operation: {
            (
                try registry.makeDestination(to: .smallFirst, arguments: UInt8(1), UInt8(2), 3).summary,
                try registry.makeDestination(to: .token, arguments: CrateToken(6)).summary
            )
        }
        #expect(overridden.0 == "1 2 3")
        #expect(overridden.1 == "fake 6")
        // An async lookup of a synchronous factory.
        let async = try await registry.makeDestinationAsync(to: .smallFirst, arguments: UInt8(4), UInt8(5), 6)
        #expect(async.summary == "4 5 6")
        let big = try await registry.makeDestinationAsync(to: .big, arguments: UInt8(2), manifest)
        #expect(big.summary == "2 14 fragile")
    }

    @Test func theFastPathReleasesEachValueOnce() throws {
        let registry = try crates()
        weak var kept: CrateToken?
        do {
            let token = CrateToken(3)
            kept = token
            #expect(try registry.makeDestination(to: .token, arguments: token).summary == "token 3")
            #expect(try registry.makeDestination(to: .token, arguments: token).summary == "token 3")
        }
        #expect(kept == nil)
        // Also when the factory throws.
        do {
            let token = CrateToken(-1)
            kept = token
            #expect(throws: RouteError.self) { try registry.makeDestination(to: .token, arguments: token) }
        }
        #expect(kept == nil)
    }

    @Test func aLookupWhoseTypesTheRegistrationDoesNotTakeFailsAsBefore() throws {
        let registry = try crates()
        let wrongType = #expect(throws: RouteError.self) {
            try registry.makeDestination(to: .smallFirst, arguments: 7, UInt8(250), -12)
        }
        #expect(wrongType?.code == .argumentMismatch)
        #expect(
            wrongType?.reason
                == "RoutableService<Crate> takes the arguments (UInt8, UInt8, Int), but was given (Int, UInt8, Int).")
        let tooFew = #expect(throws: RouteError.self) {
            try registry.makeDestination(to: .aligned, arguments: true)
        }
        #expect(tooFew?.code == .argumentMismatch)
        #expect(
            tooFew?.reason
                == "RoutableService<AlignedCrate> takes the arguments (Bool, Int8, SIMD4<Double>), but was given (Bool)."
        )
    }
}
