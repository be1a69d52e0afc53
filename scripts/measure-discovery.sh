#!/usr/bin/env bash
# Measures module discovery at start: the first ModuleDiscovery.loadedImages() of a process, its median
# over 301 further calls, and RouteRegistry(discovering:) against RouteRegistry(modules:) for the same
# eight empty modules. A release executable built in a package of its own that depends on this one by path
# (its build is kept in .build/measure-discovery).
# Usage: bash scripts/measure-discovery.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
package=$(mktemp -d)
trap 'rm -rf "$package"' EXIT
mkdir -p "$package/Sources/MeasureDiscovery"
cat > "$package/Package.swift" <<MANIFEST
// swift-tools-version: 6.2
import PackageDescription
let package = Package(
    name: "MeasureDiscovery",
    dependencies: [.package(path: "$root")],
    targets: [
        .executableTarget(
            name: "MeasureDiscovery", dependencies: [.product(name: "Router", package: "$(basename "$root")")])
    ],
    swiftLanguageModes: [.v6])
MANIFEST
{
    echo 'import Router'
    for i in 1 2 3 4 5 6 7 8; do
        echo "struct Module$i: RouteModule { func register(in registry: RouteRegistry) throws {} }"
        echo "@used @section(\"router_modules\")"
        echo "let record$i: RouteModuleRecord = (1, $i, { ModuleDiscovery.export(Module$i()) })"
    done
    cat <<'SWIFT'
let clock = ContinuousClock()
func median(_ body: () throws -> Void) rethrows -> Duration {
    var samples: [Duration] = []
    for _ in 0..<301 { samples.append(try clock.measure(body)) }
    return samples.sorted()[150]
}
var first = ModuleDiscovery()
let cold = clock.measure { first = ModuleDiscovery.loadedImages() }
precondition(first.modules.count == 8 && first.problems.isEmpty, "\(first.problems)")
let again = median { precondition(ModuleDiscovery.loadedImages().modules.count == 8) }
let discovered = try median { _ = try RouteRegistry(discovering: .loadedImages()) }
let explicit = try median {
    _ = try RouteRegistry(modules: [
        Module1(), Module2(), Module3(), Module4(), Module5(), Module6(), Module7(), Module8(),
    ])
}
print("first ModuleDiscovery.loadedImages(), 8 records: \(cold)")
print("ModuleDiscovery.loadedImages(), median of 301: \(again)")
print("RouteRegistry(discovering: .loadedImages()), 8 empty modules, median: \(discovered)")
print("RouteRegistry(modules:), the same 8 modules, median: \(explicit)")
SWIFT
} > "$package/Sources/MeasureDiscovery/main.swift"
scratch=$root/.build/measure-discovery
swift build -c release --package-path "$package" --scratch-path "$scratch" > "$package/build.log" 2>&1 \
    || { tail -30 "$package/build.log"; exit 1; }
"$(swift build -c release --package-path "$package" --scratch-path "$scratch" --show-bin-path)/MeasureDiscovery"
