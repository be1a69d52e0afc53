import Glibc
import Router
import ShopApp

// The bookshop: load the modules into a registry, seal it, and route every command by key.

let arguments = Array(CommandLine.arguments.dropFirst())

/// Prints `text` with the control characters input may have put in it escaped: a search or path typed (or
/// piped) in must not be able to clear the terminal or set its title.
func printSafely(_ text: String) {
    print(RouteError.displayable(text, keepingNewlines: true))
}

@Sendable func printError(_ message: String) {
    var text = RouteError.displayable(message, keepingNewlines: true) + "\n"
    text.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
}

func fail(_ message: String) -> Never {
    printError(message)
    exit(1)
}

/// The directories the demo loads plugins from: those `SHOP_PLUGINS` names, separated by colons as in
/// `PATH` (`off` for none), or else `plugins` next to its own executable when that exists. Never one
/// relative to the working directory: `loadPlugins(from:)` refuses a relative path.
func pluginDirectories() -> [String] {
    if let named = getenv("SHOP_PLUGINS") {
        let list = String(cString: named)
        return list == "off" ? [] : list.split(separator: ":").map(String.init)
    }
    var buffer = [CChar](repeating: 0, count: 4096)
    let count = buffer.withUnsafeMutableBufferPointer { buffer in
        guard let start = buffer.baseAddress else { return -1 }
        return readlink("/proc/self/exe", start, buffer.count - 1)
    }
    guard count > 0 else { return [] }
    let executable = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    guard let slash = executable.lastIndex(of: "/") else { return [] }
    let directory = String(executable[..<slash]) + "/plugins"
    return access(directory, F_OK) == 0 ? [directory] : []
}

// The features find themselves: each declares a record (see `ModuleDiscovery`), so the app names only its
// wiring. A plugin built into the plugin directory joins them. Discovery's problems are reported, never
// fatal: the app goes on with what it found.
var discovery = ModuleDiscovery.loadedImages()
for directory in pluginDirectories() { discovery.loadPlugins(from: directory) }
for problem in discovery.problems { printError("Discovery: \(problem.description)") }

let registry: RouteRegistry
do {
    registry = try RouteRegistry(discovering: discovery, modules: ShopModules.wiring)
} catch let error as RouteError {
    fail("The app's modules do not fit together: \(error.description)")
} catch {
    fail("The app's modules do not fit together: \(error)")
}

switch arguments.first {
case nil:
    break
case "--help", "-h", "help":
    print(Help.usage)
    exit(0)
case "graph":
    do {
        let graph = try registry.dependencyGraph()
        if let option = arguments.firstIndex(of: "--svg") {
            guard arguments.indices.contains(option + 1) else {
                fail("graph --svg needs a file: graph --svg graph.svg")
            }
            if let problem = Graphviz.renderSVG(graph.dot, to: arguments[option + 1]) { fail(problem) }
            print("Wrote \(arguments[option + 1]).")
            exit(0)
        }
        print(arguments.contains("--dot") ? graph.dot : graph.textTree, terminator: "")
        exit(0)
    } catch let error as RouteError {
        fail("The graph could not be made: \(error.description)")
    } catch {
        fail("The graph could not be made: \(error)")
    }
case "validate":
    do {
        let report = try registry.validate()
        print(report.description)
        exit(report.isValid ? 0 : 1)
    } catch {
        fail("Validation failed: \(error)")
    }
case let unknown?:
    fail("Unknown argument \"\(RouteError.displayable(unknown))\".\n\(Help.usage)")
}

// Screens are watched after they are removed: one still alive a moment later is reported as a leak.
registry.leakCheckDelay = .milliseconds(250)
registry.errorHandler = { error in
    if error.code == .destinationLeaked { printError("Leak: \(error.description)") }
}

/// Reads commands until quit or end of input; the shell and every screen it showed are released on return,
/// so a leak checker sees nothing of the session left behind.
func runSession(interactive: Bool) {
    let shell = Shell(registry: registry) { printSafely($0) }
    defer { shell.close() }
    if interactive {
        print("Bookshop demo. Type help to see the commands, quit or Ctrl-D to leave.")
    }
    while true {
        if interactive {
            print("> ", terminator: "")
            fflush(nil)
        }
        guard let line = readLine() else {
            if interactive { print("\nBye.") }
            return
        }
        if !shell.run(line) { return }
    }
}

runSession(interactive: isatty(0) != 0)
exit(0)
