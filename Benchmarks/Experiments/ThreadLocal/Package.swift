// swift-tools-version: 6.2
// A measurement for issue 28 (see BENCHMARKS.md, "A thread-local read"), not part of any build CI runs.
import PackageDescription
let package = Package(
    name: "TLSBench",
    targets: [
        .target(name: "CTLS"),
        .executableTarget(name: "TLSBench", dependencies: ["CTLS"]),
    ]
)
