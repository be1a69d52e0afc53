import Foundation

/// Monotonic time in nanoseconds.
@inline(__always)
func nanos() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// Folds an object's address into a checksum, so the optimizer must keep every object a variant makes.
/// (Not `ObjectIdentifier.hashValue`: that runs SipHash, about 90 instructions, on every lookup.)
@inline(__always)
func mix(_ checksum: UInt, _ object: AnyObject) -> UInt {
    (checksum &* 31) &+ UInt(bitPattern: ObjectIdentifier(object))
}

enum BenchmarkError: Error, CustomStringConvertible {
    case unexpected(String)
    var description: String {
        switch self {
        case .unexpected(let message): return message
        }
    }
}

/// One way of doing a scenario's lookup: `run(n)` does it `n` times and returns a checksum of what it made.
struct Variant {
    enum Name: String, CaseIterable {
        case handwired, router, swinject
    }
    let name: Name
    let run: (Int) throws -> UInt
}

/// Median, min and max of the per-run figures.
struct Stats {
    let median: Double
    let min: Double
    let max: Double

    init(_ samples: [Double]) {
        let sorted = samples.sorted()
        let count = sorted.count
        if count == 0 {
            median = .nan
            min = .nan
            max = .nan
            return
        }
        median = count % 2 == 1 ? sorted[count / 2] : (sorted[count / 2 - 1] + sorted[count / 2]) / 2
        min = sorted[0]
        max = sorted[count - 1]
    }
}

struct RunSettings {
    /// Timed runs per variant (the median is taken over these).
    let runs: Int
    /// The wall time one timed run of one variant should last.
    let batchNanos: UInt64
    /// Whether this is the short `--quick` run.
    let quick: Bool
}

/// Runs the variants of one scenario interleaved: calibrate (which also warms up), then `runs` rounds in
/// which every variant runs one batch, the starting variant rotating each round.
func measure(_ variants: [Variant], settings: RunSettings, checksum: inout UInt) throws -> [Variant.Name: Stats] {
    var iterations: [Int] = []
    for variant in variants {
        iterations.append(try calibrate(variant, targetNanos: settings.batchNanos, checksum: &checksum))
    }
    var samples = Array(repeating: [Double](), count: variants.count)
    for round in 0..<settings.runs {
        for offset in 0..<variants.count {
            let index = (round + offset) % variants.count
            let count = iterations[index]
            let start = nanos()
            let sum = try variants[index].run(count)
            let elapsed = nanos() - start
            checksum = checksum &+ sum
            samples[index].append(Double(elapsed) / Double(count))
        }
    }
    var result: [Variant.Name: Stats] = [:]
    for (index, variant) in variants.enumerated() {
        result[variant.name] = Stats(samples[index])
    }
    return result
}

/// Finds how many iterations fill `targetNanos`, running the variant a few times on the way (warm-up).
func calibrate(_ variant: Variant, targetNanos: UInt64, checksum: inout UInt) throws -> Int {
    var count = 1
    while true {
        let start = nanos()
        checksum = checksum &+ (try variant.run(count))
        let elapsed = max(nanos() - start, 1)
        if elapsed >= targetNanos / 4 || count >= 1 << 30 {
            let scaled = Double(count) * Double(targetNanos) / Double(elapsed)
            let final = max(1, Int(scaled.rounded()))
            // One more warm-up batch at the final size.
            checksum = checksum &+ (try variant.run(final))
            return final
        }
        count *= elapsed < targetNanos / 64 ? 8 : 2
    }
}
