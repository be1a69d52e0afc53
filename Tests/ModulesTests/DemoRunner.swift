import Foundation
import Testing

/// Runs the built `Demo` executable with scripted standard input, the way a user pipes commands in.
enum DemoRunner {
    struct Run: Sendable {
        let output: String
        let errors: String
        let status: Int32
    }

    /// The `Demo` next to the running test bundle, or else the newest of the package's build folders.
    static func executable() throws -> URL {
        let files = FileManager.default
        let besideTests = URL(fileURLWithPath: CommandLine.arguments.first ?? "")
            .deletingLastPathComponent().appendingPathComponent("Demo")
        if files.isExecutableFile(atPath: besideTests.path) { return besideTests }
        var root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !files.fileExists(atPath: root.appendingPathComponent("Package.swift").path), root.path != "/" {
            root.deleteLastPathComponent()
        }
        let candidates = [".build-demo/debug/Demo", ".build/debug/Demo"]
            .map { root.appendingPathComponent($0) }
            .filter { files.isExecutableFile(atPath: $0.path) }
        let newest = candidates.max { modified($0) < modified($1) }
        return try #require(newest, "Build the Demo executable first: swift build")
    }

    private static func modified(_ url: URL) -> Date {
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        return attributes?[.modificationDate] as? Date ?? .distantPast
    }

    /// Runs `Demo` with `arguments`, feeding it `lines` on standard input (then end of input).
    ///
    /// The blocking reads run on a thread of their own, not on the cooperative pool: on a 2-core machine a
    /// blocked pool thread is half the pool, and async tests running meanwhile waited for it (a CI run's
    /// hang detector fired for that reason).
    ///
    /// Plugins are off unless `plugins` names a directory: the pinned sessions are the demo's own features.
    static func run(_ lines: [String], arguments: [String] = [], plugins: String = "off") async throws -> Run {
        // Found here, in the test's task, so that a missing executable is recorded against the test.
        let demo = try executable()
        return try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(
                    with: Result { try runBlocking(demo, lines, arguments: arguments, plugins: plugins) })
            }.start()
        }
    }

    private static func runBlocking(_ demo: URL, _ lines: [String], arguments: [String], plugins: String) throws
        -> Run
    {
        let process = Process()
        process.executableURL = demo
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["SHOP_PLUGINS": plugins]) { $1 }
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let script = lines.map { $0 + "\n" }.joined()
        input.fileHandleForWriting.write(Data(script.utf8))
        try input.fileHandleForWriting.close()
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        let errData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            output: String(decoding: outData, as: UTF8.self), errors: String(decoding: errData, as: UTF8.self),
            status: process.terminationStatus)
    }
}
