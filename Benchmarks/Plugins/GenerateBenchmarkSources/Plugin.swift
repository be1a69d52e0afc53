import Foundation
import PackagePlugin

/// Generates, at build time, the benchmark sources too long to keep in git: each `GeneratedServices<n>`
/// library's 2,500 services, the RouterBenchmarks executable's index of them, its s8 chain and its s14 app
/// (and Benchmarks/Peers' s14 app, with every peer). The
/// generator is the `ServiceGenerator` executable of this package; its output is the same on every run.
/// SwiftPM reruns it whenever it relinks the generator, which it does on the second build of a fresh build
/// folder too (as CI builds Benchmarks more than once); the generator then leaves each file whose text
/// is unchanged untouched, so the targets that compile them are not compiled again.
@main
struct GenerateBenchmarkSources: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let generator = try context.tool(named: "ServiceGenerator").url
        func command(_ arguments: [String], writing file: String) -> Command {
            let output = context.pluginWorkDirectoryURL.appending(path: file)
            return .buildCommand(
                displayName: "Generating \(file) for \(target.name)", executable: generator,
                arguments: arguments + [output.path], inputFiles: [generator], outputFiles: [output])
        }
        let prefix = "GeneratedServices"
        if target.name.hasPrefix(prefix), let module = Int(target.name.dropFirst(prefix.count)) {
            return [command(["services", String(module)], writing: "\(target.name).swift")]
        }
        if target.name == "RouterBenchmarks" {
            return [
                command(["index"], writing: "GeneratedIndex.swift"),
                command(["chain"], writing: "Chain.swift"),
                command(["launch", "router"], writing: "Launch.swift"),
            ]
        }
        // Benchmarks/Peers links this plugin and the generator in: s14 with every peer.
        if target.name == "PeersBenchmark" {
            return [command(["launch", "peers"], writing: "Launch.swift")]
        }
        return []
    }
}
