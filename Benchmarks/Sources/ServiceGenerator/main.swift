// Writes the benchmark sources that are too long to keep in git, at build time (run by the
// GenerateBenchmarkSources plugin; see BENCHMARKS.md):
//
//   ServiceGenerator services <module> <output>   one of the `GeneratedServices<module>` libraries (s4/s5)
//   ServiceGenerator index <output>               GeneratedIndex.swift: registers every generated service
//   ServiceGenerator chain <output>               Chain.swift: the linear chain of scenario s8
//
// Each generated service is one class-bound protocol, one final class with an empty body and one Router
// key, the shape an app's services have. Registration is split into functions of `chunk` services, so no
// function body holds thousands of closures for the type checker, and the services are split over
// `modules` library targets, which build in parallel and keep each module's optimizer pass small (one
// module of 10,000 took 208 s to build in release on 2 cores; four of 2,500, about a third of that).
import Foundation

/// How many services s4/s5 register.
let count = 10_000
/// How many library targets they are split over (`generatedModules` in Package.swift must agree).
let modules = 4
/// How many registrations one function holds.
let chunk = 250
/// How many services the s8 chain links.
let chainLength = 100

let header = "// GENERATED at build time by ServiceGenerator (Benchmarks/Sources/ServiceGenerator); do not edit.\n"

func services(module: Int) -> String {
    let perModule = (count + modules - 1) / modules
    let first = module * perModule
    let end = min((module + 1) * perModule, count)
    var lines = [header, "import Router", "import Swinject", ""]
    for i in first..<end {
        lines.append("public protocol G\(i): AnyObject {}")
        lines.append("final class G\(i)Impl: G\(i) {}")
        lines.append(
            "extension RoutableService where Destination == any G\(i) { "
                + "public static var g\(i): Self { Self(declaring: (any G\(i)).self) } }")
    }
    lines.append("")
    let chunks = stride(from: first, to: end, by: chunk).map { $0..<min($0 + chunk, end) }
    for part in chunks {
        let index = part.lowerBound / chunk
        lines.append("func registerRouterChunk\(index)(_ registry: RouteRegistry) throws {")
        for i in part { lines.append("    try registry.register(.g\(i)) { _ in G\(i)Impl() }") }
        lines.append("}")
        lines.append("")
        lines.append("func registerSwinjectChunk\(index)(_ container: Container) {")
        for i in part { lines.append("    container.register((any G\(i)).self) { _ in G\(i)Impl() }") }
        lines.append("}")
        lines.append("")
    }
    lines.append("/// Registers services G\(first) … G\(end - 1) (transient) in an open registry.")
    lines.append("public func registerGeneratedPart\(module)(in registry: RouteRegistry) throws {")
    for part in chunks { lines.append("    try registerRouterChunk\(part.lowerBound / chunk)(registry)") }
    lines.append("}")
    lines.append("")
    lines.append("/// Registers services G\(first) … G\(end - 1) (transient) in a Swinject container.")
    lines.append("public func registerGeneratedPart\(module)(in container: Container) {")
    for part in chunks { lines.append("    registerSwinjectChunk\(part.lowerBound / chunk)(container)") }
    lines.append("}")
    lines.append("")
    return lines.joined(separator: "\n")
}

func index() -> String {
    var lines = [header, "import Router", "import Swinject"]
    lines += (0..<modules).map { "import GeneratedServices\($0)" }
    lines += [
        "",
        "/// The number of generated services.",
        "let generatedServiceCount = \(count)",
        "",
        "/// Registers every generated service (transient) in an open registry.",
        "func registerGeneratedServices(in registry: RouteRegistry) throws {",
    ]
    lines += (0..<modules).map { "    try registerGeneratedPart\($0)(in: registry)" }
    lines += [
        "}",
        "",
        "/// Registers every generated service (transient) in a Swinject container.",
        "func registerGeneratedServices(in container: Container) {",
    ]
    lines += (0..<modules).map { "    registerGeneratedPart\($0)(in: container)" }
    lines += [
        "}",
        "",
        "/// Looks up the first and the last generated service, to show the table is really populated.",
        "func resolveGeneratedEnds(in registry: RouteRegistry) throws -> (AnyObject, AnyObject) {",
        "    (try registry.makeDestination(to: .g0), try registry.makeDestination(to: .g\(count - 1)))",
        "}",
        "",
    ]
    return lines.joined(separator: "\n")
}

func chain() -> String {
    let last = chainLength - 1
    var lines = [header, "import Router", "import Swinject", "", "let chainLength = \(chainLength)", ""]
    for i in 0..<chainLength {
        lines.append("protocol Chain\(i): AnyObject {}")
        if i < last {
            lines.append("final class Chain\(i)Impl: Chain\(i) {")
            lines.append("    let next: any Chain\(i + 1)")
            lines.append("    init(next: any Chain\(i + 1)) { self.next = next }")
            lines.append("}")
        } else {
            lines.append("final class Chain\(i)Impl: Chain\(i) {}")
        }
        lines.append(
            "extension RoutableService where Destination == any Chain\(i) { "
                + "static var chain\(i): Self { Self(declaring: (any Chain\(i)).self) } }")
    }
    lines.append("")
    lines.append("/// The chain built by hand: direct initializer calls, innermost first.")
    lines.append("@inline(never)")
    lines.append("func makeChainByHand() -> any Chain0 {")
    lines.append("    let c\(last): any Chain\(last) = Chain\(last)Impl()")
    for i in stride(from: last - 1, through: 0, by: -1) {
        lines.append("    let c\(i): any Chain\(i) = Chain\(i)Impl(next: c\(i + 1))")
    }
    lines.append("    return c0")
    lines.append("}")
    lines.append("")
    lines.append("func registerChain(in registry: RouteRegistry) throws {")
    for i in 0..<chainLength {
        if i < last {
            lines.append(
                "    try registry.register(.chain\(i)) { r in Chain\(i)Impl(next: try r.resolve(.chain\(i + 1))) }")
        } else {
            lines.append("    try registry.register(.chain\(i)) { _ in Chain\(i)Impl() }")
        }
    }
    lines.append("}")
    lines.append("")
    lines.append("func registerChain(in container: Container) {")
    for i in 0..<chainLength {
        if i < last {
            lines.append(
                "    container.register((any Chain\(i)).self) { r in "
                    + "Chain\(i)Impl(next: required(r.resolve((any Chain\(i + 1)).self))) }")
        } else {
            lines.append("    container.register((any Chain\(i)).self) { _ in Chain\(i)Impl() }")
        }
    }
    lines.append("}")
    lines.append("")
    return lines.joined(separator: "\n")
}

let arguments = Array(CommandLine.arguments.dropFirst())
let text: String?
switch (arguments.first, arguments.count) {
case ("services", 3): text = Int(arguments[1]).map(services(module:))
case ("index", 2): text = index()
case ("chain", 2): text = chain()
default: text = nil
}
guard let text, let output = arguments.last else {
    FileHandle.standardError.write(
        Data("usage: ServiceGenerator services <module> <output> | index <output> | chain <output>\n".utf8))
    exit(2)
}
do {
    try Data(text.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
} catch {
    FileHandle.standardError.write(Data("ServiceGenerator: cannot write \(output): \(error)\n".utf8))
    exit(1)
}
