// swift-tools-version: 6.2
import PackageDescription

/// The demo's feature modules. Each is one target under `Sources/Modules/<Feature>`, named `<Feature>Feature`,
/// that depends only on `Router` and `ShopInterfaces`, never on another feature (scripts/check-module-deps.sh
/// enforces it), with its own test target under `Tests/Features/<Feature>`. `ShopApp` (the wiring) and the
/// `Demo` executable are the only targets that see every feature.
let features = ["Account", "Catalog", "Cart", "Payments", "Checkout", "Notifications", "Chat"]

let featureTargets: [Target] = features.flatMap { feature -> [Target] in
    [
        .target(
            name: "\(feature)Feature", dependencies: ["Router", "ShopInterfaces"], path: "Sources/Modules/\(feature)"),
        .testTarget(
            name: "\(feature)FeatureTests",
            dependencies: [
                "Router", "RouterTesting", "ShopInterfaces", .target(name: "\(feature)Feature"), "ShopTestSupport",
            ],
            path: "Tests/Features/\(feature)"),
    ]
}

let everyFeature: [Target.Dependency] = features.map { .target(name: "\($0)Feature") }

let package = Package(
    name: "Router",
    // The library's lock-free reads use `Synchronization.Atomic`, which Apple platforms have from these
    // versions on; Linux has it with every Swift 6 toolchain.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Router", targets: ["Router"]),
        // A Swift Testing trait that runs a test with registrations replaced: a product of its own, so that
        // Router itself never imports Testing.
        .library(name: "RouterTesting", targets: ["RouterTesting"]),
    ],
    targets: [
        .target(name: "Router", swiftSettings: [.strictMemorySafety()]),
        .target(name: "RouterTesting", dependencies: ["Router"]),
        // What the features share: the protocols, keys and values more than one feature needs.
        .target(name: "ShopInterfaces", dependencies: ["Router"], path: "Sources/Modules/Interfaces"),
        // The app wiring: loads every feature and joins what one requires to what another provides.
        .target(
            name: "ShopApp", dependencies: ["Router", "ShopInterfaces"] + everyFeature, path: "Sources/Modules/Wiring"),
        // The demo exports its symbols (Router's and ShopInterfaces' among them) to the libraries it loads:
        // a plugin is linked without a copy of either and binds to the demo's, so there is one copy of
        // Router at run time (see "Modules that find themselves").
        .executableTarget(
            name: "Demo", dependencies: ["Router", "ShopInterfaces", "ShopApp"] + everyFeature, path: "Demo",
            linkerSettings: [.unsafeFlags(["-Xlinker", "--export-dynamic"], .when(platforms: [.linux]))]),
        // The optional feature the demo loads as a plugin: compiled here like any target, linked by
        // scripts/build-plugin.sh into a library of its own objects only. Nothing links it statically.
        .target(
            name: "GiftCardsFeature", dependencies: ["Router", "ShopInterfaces"], path: "Sources/Modules/GiftCards"),
        .testTarget(
            name: "GiftCardsFeatureTests",
            dependencies: ["Router", "ShopInterfaces", "GiftCardsFeature", "ShopTestSupport"],
            path: "Tests/Features/GiftCards"),
        // Fakes of the shared protocols and a small test registry, for testing one feature alone.
        .target(name: "ShopTestSupport", dependencies: ["Router", "ShopInterfaces"], path: "Tests/Support"),
        .testTarget(name: "RouterTests", dependencies: ["Router"]),
        .testTarget(name: "RouterTestingTests", dependencies: ["Router", "RouterTesting"]),
        // The creation protocol's state machine, explored schedule by schedule (it is internal, hence a
        // target of its own with a testable import).
        .testTarget(name: "CreationExplorerTests", dependencies: ["Router"]),
        // Built as new app targets are, with the main actor as default isolation: the README's example
        // must compile and run there unchanged.
        .testTarget(
            name: "MainActorAppTests", dependencies: ["Router"],
            swiftSettings: [.defaultIsolation(MainActor.self)]),
        .testTarget(
            name: "ModulesTests",
            dependencies: ["Router", "RouterTesting", "ShopInterfaces", "ShopApp", "ShopTestSupport"] + everyFeature),
    ] + featureTargets,
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
