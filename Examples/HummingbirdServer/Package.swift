// swift-tools-version: 6.2
import PackageDescription

// A real service that uses Router: its own package, so the root package stays dependency-free.
//   swift run --package-path Examples/HummingbirdServer Server     # serves on 127.0.0.1:8080
//   swift test --package-path Examples/HummingbirdServer           # the service's tests
//
// The library's module is named `Router`, and Hummingbird has a type `Router<Context>`: in a file that imports
// both, `Router` names Hummingbird's type, so `Router.RouteRegistry` does not compile. The sources write the
// library's names unqualified (`RouteRegistry`) and Hummingbird's type as `Router<Context>`; see README.md for
// why `moduleAliases` does not help here.
let router = Target.Dependency.product(name: "Router", package: "Router")
let routerTesting = Target.Dependency.product(name: "RouterTesting", package: "Router")

let package = Package(
    name: "HummingbirdServer",
    platforms: [.macOS(.v15)],
    dependencies: [
        // Named, so the target dependencies below do not depend on the checkout's folder name.
        .package(name: "Router", path: "../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", exact: "2.13.0"),
        // Hummingbird's own dependencies, named for the tests' `HTTPField.Name` and for the server's
        // `Channel` (whose address tells a test the port the server took).
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.0.0"),
    ],
    targets: [
        // The service: its modules, request scope, routes and lifecycle; a library, so that the tests see it.
        .target(
            name: "App",
            dependencies: [
                router,
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]),
        .executableTarget(name: "Server", dependencies: [.target(name: "App")]),
        .testTarget(
            name: "AppTests",
            dependencies: [
                .target(name: "App"), router, routerTesting,
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
