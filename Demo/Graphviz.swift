import Glibc

/// Draws the dependency graph with Graphviz's `dot`, for `Demo graph --svg FILE`.
enum Graphviz {
    /// Runs `dot -Tsvg -o file`, feeding it `dot` on standard input.
    /// - Parameters:
    ///   - dot: The graph in DOT.
    ///   - file: Where to write the SVG.
    /// - Returns: Nil once the file is written, or else a sentence saying what went wrong.
    static func renderSVG(_ dot: String, to file: String) -> String? {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return "Could not open a pipe to dot: \(String(cString: strerror(errno)))." }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends[0], 0)
        posix_spawn_file_actions_addclose(&actions, ends[0])
        posix_spawn_file_actions_addclose(&actions, ends[1])
        let arguments: [String] = ["dot", "-Tsvg", "-o", file]
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var child: pid_t = 0
        let spawned = posix_spawnp(&child, "dot", &actions, nil, argv, environ)
        close(ends[0])
        guard spawned == 0 else {
            close(ends[1])
            return
                "Could not run dot (\(String(cString: strerror(spawned)))). Install Graphviz: apt-get install graphviz."
        }
        // dot may stop reading early (a bad output path); its exit status says so, not a SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        var text = dot
        text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return }
            var offset = 0
            while offset < bytes.count {
                let written = write(ends[1], base + offset, bytes.count - offset)
                if written <= 0 { break }
                offset += written
            }
        }
        close(ends[1])
        var status: Int32 = 0
        while waitpid(child, &status, 0) == -1 && errno == EINTR {}
        return status == 0 ? nil : "dot could not draw the graph into \(file) (wait status \(status))."
    }
}
