// Writes the benchmark sources that are too long to keep in git, at build time (run by the
// GenerateBenchmarkSources plugin; see BENCHMARKS.md):
//
//   ServiceGenerator services <module> <output>   one of the `GeneratedServices<module>` libraries (s4/s5)
//   ServiceGenerator index <output>               GeneratedIndex.swift: registers every generated service
//   ServiceGenerator chain <output>               Chain.swift: the linear chain of scenario s8
//   ServiceGenerator launch <router|peers> <output>  Launch.swift: s14's app of 100 modules, hand-wired and
//                                                 Router (RouterBenchmarks), or every peer (Benchmarks/Peers)
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

/// s14: how many modules the app has, each registering one root screen and the 9 services under it.
let launchModules = 100

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

/// s14, an app's launch: `launchModules` modules of 10 services each, a root screen `LaunchM_0` taking three
/// services that take two leaves each (s2's tree), 1,000 distinct types in all. `peers` adds Swinject
/// assemblies, Factory properties and DITranquillity parts of the same services (Benchmarks/Peers only, so
/// that CI's build of RouterBenchmarks compiles the hand-wired and Router code alone).
func launch(peers: Bool) -> String {
    var lines = [header, "import Router"]
    if peers { lines += ["import DITranquillity", "import FactoryKit", "import Swinject"] }
    lines += [
        "", "/// The number of modules s14's app has, one root screen each.",
        "let launchModuleCount = \(launchModules)", "",
    ]
    // The services each service of a module takes: the root takes 1, 2 and 3; 1 takes 4 and 5; and so on.
    let children: [Int: [Int]] = [0: [1, 2, 3], 1: [4, 5], 2: [6, 7], 3: [8, 9]]
    func labels(_ j: Int) -> [String] {
        switch children[j]?.count {
        case 3: ["a", "b", "c"]
        case 2: ["first", "second"]
        default: []
        }
    }
    func name(_ m: Int, _ j: Int) -> String { "Launch\(m)_\(j)" }
    for m in 0..<launchModules {
        for j in 0..<10 {
            let p = name(m, j)
            lines.append("protocol \(p): AnyObject {}")
            let kids = children[j] ?? []
            if kids.isEmpty {
                lines.append("final class \(p)Impl: \(p) {}")
            } else {
                let fields = zip(labels(j), kids).map { "\($0): any \(name(m, $1))" }
                lines.append("final class \(p)Impl: \(p) {")
                for field in fields { lines.append("    let \(field)") }
                let assign = labels(j).map { "self.\($0) = \($0)" }.joined(separator: "; ")
                lines.append("    init(\(fields.joined(separator: ", "))) { \(assign) }")
                lines.append("}")
            }
            lines.append(
                "extension RoutableService where Destination == any \(p) { "
                    + "static var launch\(m)_\(j): Self { Self(declaring: (any \(p)).self) } }")
        }
    }
    // How service j of module m is made, given how its children are.
    func construct(_ m: Int, _ j: Int, _ child: (Int) -> String) -> String {
        let arguments = zip(labels(j), children[j] ?? []).map { "\($0): \(child($1))" }
        return "\(name(m, j))Impl(\(arguments.joined(separator: ", ")))"
    }
    func byHand(_ m: Int, _ j: Int) -> String { construct(m, j) { byHand(m, $0) } }
    func list(_ items: [String]) -> [String] {
        stride(from: 0, to: items.count, by: 10).map {
            "        " + items[$0..<min($0 + 10, items.count)].joined(separator: ", ") + ","
        }
    }
    let start = ["    var roots: [AnyObject] = []", "    roots.reserveCapacity(launchModuleCount)"]

    lines += ["", "/// s14 by hand: the root screens made by direct initializer calls, nothing registered."]
    lines += ["@inline(never)", "func launchByHand() -> [AnyObject] {"] + start
    for m in 0..<launchModules { lines.append("    roots.append(\(byHand(m, 0)))") }
    lines += ["    return roots", "}", ""]

    for m in 0..<launchModules {
        lines += ["struct LaunchModule\(m): RouteModule {", "    func register(in registry: RouteRegistry) throws {"]
        for j in 0..<10 {
            let made = construct(m, j) { "try r.resolve(.launch\(m)_\($0))" }
            let r = children[j] == nil ? "_" : "r"
            lines.append("        try registry.register(.launch\(m)_\(j)) { \(r) in \(made) }")
        }
        lines += ["    }", "}"]
    }
    lines += ["", "/// s14 with Router: a registry made of the modules and sealed, then each root screen looked up."]
    lines += [
        "@inline(never)", "func launchRouter() throws -> [AnyObject] {",
        "    let registry = try RouteRegistry(modules: [",
    ]
    lines += list((0..<launchModules).map { "LaunchModule\($0)()" })
    lines += ["    ])"] + start
    for m in 0..<launchModules { lines.append("    roots.append(try registry.makeDestination(to: .launch\(m)_0))") }
    lines += ["    return roots", "}", ""]
    guard peers else { return lines.joined(separator: "\n") }

    // Swinject: one Assembly per module, put together by an Assembler.
    for m in 0..<launchModules {
        lines += ["struct LaunchAssembly\(m): Assembly {", "    func assemble(container: Swinject.Container) {"]
        for j in 0..<10 {
            let made = construct(m, j) { "required(r.resolve((any \(name(m, $0))).self))" }
            let r = children[j] == nil ? "_" : "r"
            lines.append("        container.register((any \(name(m, j))).self) { \(r) in \(made) }")
        }
        lines += ["    }", "}"]
    }
    lines += ["", "/// s14 with Swinject: an Assembler of the assemblies, then each root screen resolved."]
    lines += ["@inline(never)", "func launchSwinject() -> [AnyObject] {", "    let assembler = Assembler(["]
    lines += list((0..<launchModules).map { "LaunchAssembly\($0)()" })
    lines += ["    ])", "    let resolver = assembler.resolver"] + start
    for m in 0..<launchModules {
        lines.append("    roots.append(required(resolver.resolve((any \(name(m, 0))).self)))")
    }
    lines += ["    return roots", "}", ""]

    // Factory: computed `Factory` properties on its Container; nothing is registered ahead.
    lines.append("extension FactoryKit.Container {")
    for m in 0..<launchModules {
        for j in 0..<10 {
            let made = construct(m, j) { "self.launch\(m)_\($0)()" }
            lines.append("    var launch\(m)_\(j): Factory<any \(name(m, j))> { self { \(made) } }")
        }
    }
    lines += ["}", "", "/// s14 with Factory: a new container, then each root screen made."]
    lines += ["@inline(never)", "func launchFactory() -> [AnyObject] {", "    let container = FactoryKit.Container()"]
    lines += start
    for m in 0..<launchModules { lines.append("    roots.append(container.launch\(m)_0())") }
    lines += ["    return roots", "}", ""]

    // DITranquillity: one DIPart per module, initializers registered `as` their protocols.
    for m in 0..<launchModules {
        lines += ["final class LaunchPart\(m): DIPart {", "    static func load(container: DIContainer) {"]
        for j in 0..<10 {
            let initializer = labels(j).isEmpty ? "init" : "init(\(labels(j).map { "\($0):" }.joined()))"
            lines.append("        container.register(\(name(m, j))Impl.\(initializer)).as((any \(name(m, j))).self)")
        }
        lines += ["    }", "}"]
    }
    lines += ["", "/// s14 with DITranquillity: a container with the parts appended, then each root screen resolved."]
    lines += ["@inline(never)", "func launchDITranquillity() -> [AnyObject] {", "    let container = DIContainer()"]
    for m in 0..<launchModules { lines.append("    container.append(part: LaunchPart\(m).self)") }
    lines += start
    for m in 0..<launchModules {
        lines.append("    roots.append({ () -> any \(name(m, 0)) in container.resolve() }())")
    }
    lines += ["    return roots", "}", ""]
    return lines.joined(separator: "\n")
}

let arguments = Array(CommandLine.arguments.dropFirst())
let text: String?
switch (arguments.first, arguments.count) {
case ("services", 3): text = Int(arguments[1]).map(services(module:))
case ("index", 2): text = index()
case ("chain", 2): text = chain()
case ("launch", 3) where ["router", "peers"].contains(arguments[1]): text = launch(peers: arguments[1] == "peers")
default: text = nil
}
guard let text, let output = arguments.last else {
    FileHandle.standardError.write(
        Data(
            "usage: ServiceGenerator services <module> <output> | index <output> | chain <output> | launch <router|peers> <output>\n"
                .utf8))
    exit(2)
}
// Written only when its text changed: SwiftPM relinks this tool on the second build of a fresh build
// folder (and whenever it changes), which reruns every command of the plugin; a file rewritten with the
// same text would still be newer, and its module (minutes each in release) would be compiled again.
let url = URL(fileURLWithPath: output)
let data = Data(text.utf8)
do {
    if (try? Data(contentsOf: url)) != data {
        try data.write(to: url, options: .atomic)
    }
} catch {
    FileHandle.standardError.write(Data("ServiceGenerator: cannot write \(output): \(error)\n".utf8))
    exit(1)
}
