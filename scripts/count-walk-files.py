#!/usr/bin/env python3
"""Counts the source files of Sources/Router that have instructions in a callgrind profile, inlined code
included: the walk counts of ARCHITECTURE.md ("How many files a walk touches").

    valgrind --tool=callgrind --toggle-collect='*walkLookup*' --callgrind-out-file=walk.out \\
        Benchmarks/.build-walk/release/RouterBenchmarks --profile walk singleton 50
    python3 scripts/count-walk-files.py walk.out

The benchmark must be built with `-Xswiftc -g` (a separate scratch path keeps the gate's build apart).
Costs of `calls=` lines are the callee's, so they are not added to the calling file.
"""
import re
import sys
from collections import defaultdict

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
skip_next = False
with open(sys.argv[1]) as f:
    for line in f:
        line = line.rstrip("\n")
        if line.startswith("fl="):
            function_file = current = name("fl", line[3:])
        elif line.startswith(("fi=", "fe=")):
            current = name("fl", line[3:])
        elif line.startswith("fn="):
            current = function_file
        elif line.startswith(("cfi=", "cfl=")):
            name("fl", line[4:])  # names a file the first time it is mentioned, even as a callee's
        elif line.startswith("calls="):
            skip_next = True
        elif line and (line[0].isdigit() or line[0] in "+-*"):
            if skip_next:
                skip_next = False
                continue
            parts = line.split()
            if len(parts) >= 2 and current:
                cost[current] += int(parts[1])
router = sorted((path, ir) for path, ir in cost.items() if "/Sources/Router/" in path and ir > 0)
for path, ir in router:
    print(f"{ir:>10}  {path.split('/Sources/Router/')[1]}")
print(f"{len(router)} files of Sources/Router have instructions")
