#!/usr/bin/env python3
"""Counts the source files of Sources/Router that have instructions in a callgrind profile, inlined code
included: the walk counts of ARCHITECTURE.md ("How many files a walk touches"). scripts/check-walks.sh runs
it for every walk; by hand:

    swift build -c release --package-path Benchmarks --product RouterWalks --scratch-path Benchmarks/.build-walk \\
        -Xswiftc -g -Xswiftc -Xfrontend -Xswiftc -disable-llvm-merge-functions-pass \\
        -Xswiftc -Xfrontend -Xswiftc -experimental-serialize-debug-info
    valgrind --tool=callgrind --toggle-collect='*walkLookup*' --callgrind-out-file=walk.out \\
        Benchmarks/.build-walk/release/RouterWalks first-singleton 20
    python3 scripts/count-walk-files.py walk.out           # instructions per file, and the count
    python3 scripts/count-walk-files.py --list walk.out    # only the files, one a line

The build flags matter: without `-g` no file is known; a merged function (function merging is on in
release builds) carries no line information; and code inlined from Router into the benchmark's
`walkLookup…` functions (everything `@inlinable`: the registry's call, the table probe, the fast cases) is
attributed to its Router file only when the debug scopes of Router's inlinable code are serialized into
its module, else it shows as `<compiler-generated>`.

Costs of `calls=` lines are the callee's, so they are not added to the calling file.
"""
import re
import sys
from collections import defaultdict


def is_standard_library(function: str) -> bool:
    """Whether `function` is the standard library's code specialized for Router's types (`$ss…`, or `$sS` and
    a standard type's letter, e.g. `$sSD…` for Dictionary): its debug information names whichever Router file
    the compiler emitted the specialization into, often one the walk never runs (a dictionary lookup of the
    creation machine was filed under Diagnostics/RegistrationTrials.swift, which merely uses the same type)."""
    return re.match(r"\$s(s|S[a-zA-Z])", function) is not None


def files_with_instructions(profile: str) -> dict[str, int]:
    """Instructions per file of Sources/Router (paths relative to it), for the files that have any."""
    names = {}

    def name(kind, text):
        m = re.match(r"\((\d+)\)(?: (.*))?", text)
        if not m:
            return text
        key = (kind, m.group(1))
        if m.group(2):
            names[key] = m.group(2)
        return names.get(key, text)

    cost = defaultdict(int)
    function_file = current = None
    skip_next = in_library = False
    with open(profile) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("fl="):
                function_file = current = name("fl", line[3:])
            elif line.startswith(("fi=", "fe=")):
                current = name("fl", line[3:])
            elif line.startswith("fn="):
                current = function_file
                in_library = is_standard_library(name("fn", line[3:]))
            elif line.startswith(("cfi=", "cfl=")):
                name("fl", line[4:])  # names a file the first time it is mentioned, even as a callee's
            elif line.startswith("cfn="):
                name("fn", line[4:])  # and a function
            elif line.startswith("calls="):
                skip_next = True
            elif line and (line[0].isdigit() or line[0] in "+-*"):
                if skip_next:
                    skip_next = False
                    continue
                parts = line.split()
                if len(parts) >= 2 and current and not in_library:
                    cost[current] += int(parts[1])
    return {
        path.split("/Sources/Router/")[1]: ir for path, ir in sorted(cost.items()) if "/Sources/Router/" in path and ir > 0
    }


if __name__ == "__main__":
    arguments = sys.argv[1:]
    only_names = "--list" in arguments
    arguments = [a for a in arguments if a != "--list"]
    if len(arguments) != 1:
        sys.exit("usage: count-walk-files.py [--list] CALLGRIND_OUT")
    files = files_with_instructions(arguments[0])
    for path, ir in files.items():
        print(path if only_names else f"{ir:>10}  {path}")
    if not only_names:
        print(f"{len(files)} files of Sources/Router have instructions")
