// swift-tools-version: 6.2
import PackageDescription

// Every peer in one run: hand-wired code, Router, Swinject, Factory and DITranquillity on the same services
// (RouterBenchmarks' Services.swift, linked in) with the same harness. A package of its own, which CI does
// not build: Factory and DITranquillity are not in this machine's package mirrors, so SwiftPM is pointed at
// local clones first (see "Every peer in one run" in ../BENCHMARKS.md for the commands).
//   swift run -c release --package-path Benchmarks/Peers PeersBenchmark [--quick]
//   swift run -c release --package-path Benchmarks/Peers PeersBenchmark --profile <s1|s2|s3|s6|s14> <variant> N
//   Benchmarks/Peers/.build/release/PeersBenchmark --launch <variant>   # one s14 launch in a fresh process

let package = Package(
    name: "RouterPeers",
    dependencies: [
        .package(name: "Router", path: "../.."),
        .package(url: "https://github.com/Swinject/Swinject", from: "2.10.0"),
        .package(url: "https://github.com/hmlongco/Factory", from: "3.2.1"),
        .package(url: "https://github.com/ivlevAstef/DITranquillity", from: "6.0.0"),
    ],
    targets: [
        .executableTarget(
            name: "PeersBenchmark",
            dependencies: [
                .product(name: "Router", package: "Router"),
                .product(name: "Swinject", package: "Swinject"),
                .product(name: "FactoryKit", package: "Factory"),
                .product(name: "DITranquillity", package: "DITranquillity"),
            ],
            plugins: [.plugin(name: "GenerateBenchmarkSources")]),
        // RouterBenchmarks' generator and plugin (linked in): they write s14's app of 1,000 services with
        // every peer's registrations into this target at build time.
        .executableTarget(name: "ServiceGenerator"),
        .plugin(
            name: "GenerateBenchmarkSources", capability: .buildTool(),
            dependencies: [.target(name: "ServiceGenerator")]),
    ],
    swiftLanguageModes: [.v6]
)
