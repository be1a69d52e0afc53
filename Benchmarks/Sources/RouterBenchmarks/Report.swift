import Foundation
import Synchronization

/// Counts factory runs in the s6 check.
final class Counter: Sendable {
    private let count = Atomic<Int>(0)
    func add() { count.add(1, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
}

/// One scenario's figures for every variant, and how they compare with the target.
struct ScenarioResult {
    let id: String
    let title: String
    let stats: [Variant.Name: Stats]
    /// s4: the Router's s1 median, which s4 must stay within 5 % of; s10: s2's Router median.
    var reference: Double?
    /// For s4: s1's own router figure, measured before the large registries existed.
    var earlierReference: Double?
    var isRatio = false
    var note: String?
    /// s6: whether the Router built exactly one A with b.a === a.
    var routerCorrect = true

    init(
        id: String, title: String, stats: [Variant.Name: Stats], reference: Double? = nil,
        earlierReference: Double? = nil, isRatio: Bool = false,
        note: String? = nil, routerCorrect: Bool = true
    ) {
        self.id = id
        self.title = title
        self.stats = stats
        self.reference = reference
        self.earlierReference = earlierReference
        self.isRatio = isRatio
        self.note = note
        self.routerCorrect = routerCorrect
    }

    var target: String {
        switch id {
        case "s1": return "<= 1.5x hand-wired"
        case "s2", "s8": return id == "s2" ? "<= 1.4x hand-wired" : "<= 1.5x hand-wired"
        case "s3": return "<= 8 ns"
        case "s4": return "within 5% of s1"
        case "s5": return "<= 1.5 ms"
        case "s6": return "<= 2x hand-wired, one A"
        case "s7": return ">= 1.9x"
        case "s9": return "~1 ms wall, not 8 ms"
        case "s10": return "s2's router +-5%"
        case "s11": return "<= 1.5x hand-wired"
        default: return ""
        }
    }

    /// Whether the Router meets the target, from this run's figures (the issue's targets, round three).
    var met: Bool? {
        guard let router = stats[.router]?.median else { return nil }
        let hand = stats[.handwired]?.median
        switch id {
        case "s1", "s8", "s11": return hand.map { router <= 1.5 * $0 }
        case "s2": return hand.map { router <= 1.4 * $0 }
        case "s3": return router <= 8
        case "s4": return reference.map { router <= 1.05 * $0 }
        case "s5": return router <= 1_500_000
        case "s6": return hand.map { router <= 2 * $0 && routerCorrect }
        case "s7": return router >= 1.9
        case "s9": return router <= 3_000_000
        case "s10": return reference.map { abs(router - $0) <= 0.05 * $0 }
        default: return nil
        }
    }
}

func formatNanos(_ value: Double) -> String {
    if value.isNaN { return "-" }
    if value >= 1_000_000 { return String(format: "%.2f ms", value / 1_000_000) }
    if value >= 1_000 { return grouped(Int(value.rounded())) + " ns" }
    if value >= 100 { return String(format: "%.0f ns", value) }
    return String(format: "%.1f ns", value)
}

func grouped(_ value: Int) -> String {
    let digits = String(value)
    var out = ""
    for (index, character) in digits.enumerated() {
        if index > 0 && (digits.count - index) % 3 == 0 { out.append(",") }
        out.append(character)
    }
    return out
}

func formatRatio(_ value: Double) -> String {
    if value.isNaN { return "-" }
    return value >= 10 ? String(format: "%.0fx", value) : String(format: "%.2fx", value)
}

func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
    let count = text.count
    if count >= width { return text }
    let fill = String(repeating: " ", count: width - count)
    return right ? fill + text : text + fill
}

func printReport(_ results: [ScenarioResult], quick: Bool, seconds: Double, checksum: UInt) {
    print(
        "Router benchmarks\(quick ? " (--quick: figures are rough)" : ""): median per lookup, x = ratio to hand-wired")
    print("")
    let header =
        pad("scenario", 52) + pad("hand-wired", 12, right: true) + pad("router", 24, right: true)
        + pad("swinject", 24, right: true) + "  " + pad("target", 24) + "met"
    print(header)
    print(String(repeating: "-", count: header.count))
    for result in results {
        let hand = result.stats[.handwired]?.median
        func cell(_ name: Variant.Name) -> String {
            guard let value = result.stats[name]?.median else { return "-" }
            if result.isRatio { return formatRatio(value) }
            guard let hand else { return formatNanos(value) }
            return "\(formatNanos(value)) (\(formatRatio(value / hand)))"
        }
        let handCell = hand.map { result.isRatio ? formatRatio($0) : formatNanos($0) } ?? "-"
        let metCell = result.met.map { $0 ? "yes" : "NO" } ?? "?"
        print(
            pad("\(result.id) \(result.title)", 52) + pad(handCell, 12, right: true)
                + pad(cell(.router), 24, right: true) + pad(cell(.swinject), 24, right: true) + "  "
                + pad(result.target, 24) + metCell)
    }
    for result in results {
        if let note = result.note { print("\(result.id): \(note)") }
        if let reference = result.reference, let router = result.stats[.router]?.median {
            let ratio = formatRatio(router / reference)
            let earlier = result.earlierReference.map { "; s1's own run, before them: \(formatNanos($0))" } ?? ""
            let against = result.id == "s10" ? "s2's router (closures)" : "the s1 registry measured right after it"
            print(
                "\(result.id): router \(formatNanos(router)) vs \(against) "
                    + "\(formatNanos(reference)) (\(ratio))\(earlier)")
        }
    }
    print("")
    for result in results {
        for name in Variant.Name.allCases {
            guard let stats = result.stats[name] else { continue }
            if result.isRatio {
                print(
                    "scenario=\(result.id) variant=\(name.rawValue) ratio=\(String(format: "%.3f", stats.median)) min_ratio=\(String(format: "%.3f", stats.min)) max_ratio=\(String(format: "%.3f", stats.max))"
                )
            } else {
                print(
                    "scenario=\(result.id) variant=\(name.rawValue) median_ns=\(String(format: "%.1f", stats.median)) min_ns=\(String(format: "%.1f", stats.min)) max_ns=\(String(format: "%.1f", stats.max))"
                )
            }
        }
    }
    print("")
    print("checksum=\(checksum) wall_seconds=\(String(format: "%.1f", seconds))")
}
