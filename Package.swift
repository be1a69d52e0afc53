// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "Router",
    products: [
        .library(name: "Router", targets: ["Router"])
    ],
    targets: [
        .target(name: "Router"),
        .target(name: "Modules", dependencies: ["Router"]),
        .executableTarget(name: "Demo", dependencies: ["Router", "Modules"], path: "Demo"),
        .testTarget(name: "RouterTests", dependencies: ["Router"]),
        .testTarget(name: "ModulesTests", dependencies: ["Router", "Modules"]),
    ],
    swiftLanguageModes: [.v6]
)

// Every target gets the same upcoming features, so the whole package reads as one dialect.
for target in package.targets {
    var settings = target.swiftSettings ?? []
    settings.append(contentsOf: [
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("MemberImportVisibility"),
        .enableUpcomingFeature("InferIsolatedConformances"),
    ])
    target.swiftSettings = settings
}
