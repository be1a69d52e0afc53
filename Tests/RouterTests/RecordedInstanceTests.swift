import Router
import Testing

// The graph keeps each object a lookup makes with its registration's static type, in memory it owns
// (chunks of a few kilobytes, and memory of their own for large values), and destroys them when the lookup
// ends. These tests reach that store the ways a user's code does: value types of every size, graph scope,
// many objects in one lookup, and lookups one after another on the same thread.

/// A graph-scoped value with references inside (a string, an array).
struct Label: Equatable, Sendable {
    let text: String
    let tags: [String]
}

/// A graph-scoped value larger than the graph's chunks hand out, so it gets memory of its own.
struct Bulky: Sendable {
    var words = InlineArray<96, Int>(repeating: 7)
    var sum: Int {
        var total = 0
        for index in words.indices { total += words[index] }
        return total
    }
}

/// What the root of these lookups holds.
final class LabelHolder: Sendable {
    let first: Label
    let second: Label
    let bulkySums: [Int]
    init(first: Label, second: Label, bulkySums: [Int]) {
        (self.first, self.second, self.bulkySums) = (first, second, bulkySums)
    }
}

protocol Part: AnyObject, Sendable {}
final class PartImpl: Part {}

/// Holds the parts of one lookup weakly, to see them released when the lookup and its result are gone.
final class WeakParts: @unchecked Sendable {
    // @unchecked: written by the root's factory inside the lookup, read by the test after it returns.
    var parts: [() -> AnyObject?] = []
}

extension RoutableService where Destination == Label {
    static var label: Self { Self(declaring: Label.self) }
}
extension RoutableService where Destination == Bulky {
    static var bulky: Self { Self(declaring: Bulky.self) }
}
extension RoutableService where Destination == LabelHolder {
    static var labelHolder: Self { Self(declaring: LabelHolder.self) }
}
extension RoutableService where Destination == any Part {
    static var part: Self { Self(declaring: (any Part).self) }
}

struct RecordedInstanceTests {
    @Test func graphScopedValuesOfEverySizeAreSharedWithinALookupAndMadeAgainInTheNext() throws {
        let labels = TestLocked(0)
        let bulkies = TestLocked(0)
        let registry = try sealedRegistry { registry in
            try registry.register(.label) { _ in
                labels.withLock { $0 += 1 }
                return Label(text: "graph-scoped \(labels.withLock { $0 })", tags: ["a", "b"])
            }.scope(.graph)
            try registry.register(.bulky) { _ in
                bulkies.withLock { $0 += 1 }
                return Bulky()
            }.scope(.graph)
            try registry.register(.labelHolder) { r in
                LabelHolder(
                    first: try r.resolve(.label), second: try r.resolve(.label),
                    bulkySums: [try r.resolve(.bulky).sum, try r.resolve(.bulky).sum])
            }
        }
        for round in 1...3 {
            let holder = try registry.makeDestination(to: .labelHolder)
            #expect(holder.first == holder.second)
            #expect(holder.first == Label(text: "graph-scoped \(round)", tags: ["a", "b"]))
            #expect(holder.bulkySums == [96 * 7, 96 * 7])
            #expect(labels.withLock { $0 } == round)
            #expect(bulkies.withLock { $0 } == round)
        }
    }

    /// Two hundred objects in one lookup fill more than one of the graph's chunks; every one is released
    /// when the lookup has ended and its result is dropped, lookup after lookup.
    @Test func aLookupThatRecordsManyObjectsReleasesEveryOneWhenItEnds() throws {
        let count = 200
        let seen = WeakParts()
        let registry = try sealedRegistry { registry in
            for index in 0..<count {
                try registry.register(RoutableService.part.named("part\(index)")) { _ in PartImpl() }.scope(.graph)
            }
            try registry.register(.part) { r in
                for index in 0..<count {
                    let part = try r.resolve(RoutableService.part.named("part\(index)"))
                    // Graph scope: the second lookup of a key in the same lookup is the same object.
                    guard try r.resolve(RoutableService.part.named("part\(index)")) === part else {
                        throw RecordedInstanceTestError.notShared(index)
                    }
                    seen.parts.append { [weak part] in part }
                }
                return PartImpl()
            }
        }
        for _ in 0..<3 {
            seen.parts = []
            _ = try registry.makeDestination(to: .part)
            #expect(seen.parts.count == count)
            #expect(seen.parts.allSatisfy { $0() == nil })
        }
    }
}

enum RecordedInstanceTestError: Error {
    case notShared(Int)
}
