#!/usr/bin/env bash
# An app's first launch (s14: a registry of 100 modules made, sealed, its 100 root screens looked up, and
# freed) asks the Swift runtime for no protocol conformance from Router's code.
#
# A conformance the runtime has not cached yet is found by scanning every conformance record of every image
# in the process: about 700,000 instructions each in RouterBenchmarks' binary, paid once per process, at the
# first launch, which the gate's s14 (later launches) does not see. Router's own code asked for three (a
# `Set<ReportedEdge>`'s metadata in the registry's initializer, a `[ObjectIdentifier: String]` of loaded
# modules, an `Atomic<Borrowed<…>?>` in the unspecialised deinit of a generic class), none of which its code
# needed; this check stops the next one. It stops the benchmark under gdb at each conformance lookup and fails
# when a frame of the lookup's stack is Router's (the benchmark's Swinject container makes one of its own).
#
#   bash scripts/check-first-launch.sh          (after the benchmarks' release build, as the perf gate does it)
set -euo pipefail
cd "$(dirname "$0")/.."

binary="Benchmarks/.build/release/RouterBenchmarks"
if ! command -v gdb >/dev/null 2>&1; then
    echo "gdb is not installed: apt-get install gdb" >&2
    exit 1
fi
[ -x "$binary" ] || { echo "no $binary: build the benchmarks first (swift build -c release --package-path Benchmarks)" >&2; exit 1; }

# Up to 40 stops; at each, gdb prints the stack (60 frames at most), then the run goes on.
commands=(-batch -ex "set pagination off" -ex "set breakpoint pending on"
    -ex "break swift_conformsToProtocolWithExecutionContext" -ex "break swift_conformsToProtocolCommon"
    -ex "run --profile s14 router 1 > /dev/null")
for _ in $(seq 1 40); do commands+=(-ex "echo ==stop==\n" -ex "bt 60" -ex "continue"); done
log=$(gdb "${commands[@]}" "$binary" 2>&1) || true

if ! grep -q "exited normally" <<<"$log"; then
    echo "the run under gdb did not finish (more than 40 conformance lookups, or a failure):" >&2
    tail -20 <<<"$log" >&2
    exit 1
fi
# Each stop's stack, on one line, then the stops with a Router frame ($s6Router…).
# (Echoes after the program exited head no stack and are not stops.)
stops=$(awk '/^==stop==/ { if (stack ~ /\|/) print stack; stack = "stop"; next } /^#/ { stack = stack " | " $0 } END { if (stack ~ /\|/) print stack }' <<<"$log")
total=$(grep -c '^stop' <<<"$stops" || true)
routers=$(grep '\$s6Router' <<<"$stops" || true)
if [ -n "$routers" ]; then
    echo "the first launch asks the runtime for a conformance from Router's code (each scans every conformance record):"
    sed -E 's/ \| /\n    /g' <<<"$routers" | grep -E '^stop|\$s6Router' | cut -c1-200
    exit 1
fi
echo "the first launch asks for $total conformance(s), none from Router's code"
