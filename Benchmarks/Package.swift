// swift-tools-version: 6.2
import PackageDescription

// A separate package, so the root package stays dependency-free.
//   swift build -c release --package-path Benchmarks --product RouterBenchmarks
//   swift run -c release --package-path Benchmarks RouterBenchmarks [--quick]
//   swift run -c release --package-path Benchmarks DependenciesPeer [--quick]   # swift-dependencies, not in CI

/// The modules whose sources the GenerateBenchmarkSources plugin writes at build time (10,000 services for
/// s4/s5, split so they build in parallel; `modules` in Sources/ServiceGenerator must agree).
let generatedModules = (0..<4).map { "GeneratedServices\($0)" }
let generated = Target.PluginUsage.plugin(name: "GenerateBenchmarkSources")

let router = Target.Dependency.product(name: "Router", package: "Router")
let swinject = Target.Dependency.product(name: "Swinject", package: "Swinject")

let package = Package(
    name: "RouterBenchmarks",
    dependencies: [
        // Named, so the target dependencies below do not depend on the checkout's folder name.
        .package(name: "Router", path: ".."),
        .package(url: "https://github.com/Swinject/Swinject", from: "2.10.0"),
        // Only the `Dependencies` product, which needs no macro, so swift-syntax is not built.
        .package(url: "https://github.com/pointfreeco/swift-dependencies", from: "1.17.1"),
    ],
    targets: generatedModules.map { .target(name: $0, dependencies: [router, swinject], plugins: [generated]) } + [
        .executableTarget(
            name: "RouterBenchmarks",
            dependencies: generatedModules.map { .target(name: $0) } + [router, swinject],
            plugins: [generated]),
        // Writes the generated sources; built for the host and run by the plugin.
        .executableTarget(name: "ServiceGenerator"),
        .plugin(
            name: "GenerateBenchmarkSources", capability: .buildTool(),
            dependencies: [.target(name: "ServiceGenerator")]),
        // A peer of its own, so that building RouterBenchmarks (what CI runs) does not build it.
        .executableTarget(
            name: "DependenciesPeer",
            dependencies: [router, .product(name: "Dependencies", package: "swift-dependencies")]),
    ],
    swiftLanguageModes: [.v6]
)
