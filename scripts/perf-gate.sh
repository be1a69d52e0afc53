#!/usr/bin/env bash
# The performance gate: instructions and heap allocations per lookup, counted with callgrind on the
# benchmarks' release build, against the committed baseline in Benchmarks/perf-baseline.tsv.
#
#   bash scripts/perf-gate.sh            # check: fails when a scenario is more than 5 % worse
#   bash scripts/perf-gate.sh record     # rewrite the baseline (commit it with the change that moved it, and say why)
#   PERF_GATE_JOBS=1 bash scripts/perf-gate.sh   # one callgrind run at a time (default: one per core)
#
# Counts, not timings: the same binary and input give the same instruction count on a noisy machine.
# Each figure is (count at N2 lookups - count at N1 lookups) / (N2 - N1), so start-up and one-time costs
# (sealing, the first lookup on a thread) cancel out.
#
# Then one check that is wall-clock, s17 (requests in flight, `RouterBenchmarks --load --check`, about 20
# seconds): ratios, so the machine's speed cancels out, each the median over 7 rounds in which every variant
# runs at 2 and then at 256 in flight, back to back. It fails when the request scope with 256 requests in
# flight keeps less than 0.7 of its rate with 2 (0.12 when walks over every lookup in flight collapsed it,
# 0.65 when every async lookup scanned one list of them), or serves less than 0.9 of a child registry's rate
# at either level: floors a little below issue 44's targets (0.8, and at least the child registry's rate),
# which it prints as met or not, so that a CI machine busy with other work does not fail it.
set -euo pipefail
cd "$(dirname "$0")/.."

mode="${1:-check}"
binary="Benchmarks/.build/release/RouterBenchmarks"
baseline="Benchmarks/perf-baseline.tsv"
tolerance="${PERF_GATE_TOLERANCE:-0.05}"

if ! command -v valgrind >/dev/null 2>&1; then
    echo "valgrind is not installed: apt-get install valgrind" >&2
    exit 1
fi
# Always (incrementally) built: a binary left from before a change to Sources/Router would measure the old
# engine and pass the gate whatever the change did.
swift build -c release --package-path Benchmarks --product RouterBenchmarks >/dev/null

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One callgrind run: prints "instructions mallocs" for `--profile <scenario> router <count>`.
measure() {
    local out="$work/cg.$1.$2"
    valgrind --tool=callgrind --compress-strings=no --compress-pos=no --callgrind-out-file="$out" \
        "$binary" --profile "$1" router "$2" >/dev/null 2>&1
    python3 - "$out" <<'PY'
import sys
total = 0
mallocs = 0
allocators = {"malloc", "calloc", "realloc", "posix_memalign", "aligned_alloc"}
pending = False
with open(sys.argv[1]) as f:
    for line in f:
        if line.startswith("summary:"):
            total = int(line.split()[1])
        elif line.startswith("cfn="):
            pending = line[4:].strip() in allocators
        elif pending and line.startswith("calls="):
            mallocs += int(line.split()[0][6:])
            pending = False
print(total, mallocs)
PY
}

# scenario, first count, second count: the lookups (or, for s5, registries; for s14, whole launches: a fresh
# registry of 100 modules sealed and its 100 root screens looked up; for s16, whole requests: a request scope
# opened, its context supplied, its request-scoped service made, the scope ended; for s17, s16's request in
# s17's shape: four request-scoped instances, the root from an async factory, which here does not suspend)
# measured.
scenarios=("s1 2000 12000" "s2 200 1200" "s3 2000 12000" "s6 200 1200" "s6p 200 1200" "s8 20 120" "s10 200 1200" "s11 2000 12000" "s5 1 3"
    "s12 2000 12000" "s12s 2000 12000" "s13 2000 12000" "s14 1 3" "s15n 2000 12000" "s15 2000 12000" "s15b 2000 12000"
    "s16 200 1200" "s17 200 1200")

# The runs are independent single-threaded processes whose counts do not depend on what else runs, so
# PERF_GATE_JOBS of them (the machine's cores by default) run at once; the figures are read in order after.
jobs_at_once="${PERF_GATE_JOBS:-$(nproc 2>/dev/null || echo 1)}"
running=()
failed_run() {
    kill "${running[@]}" 2>/dev/null || true
    echo "perf gate: a run of $binary under callgrind failed" >&2
    exit 1
}
for line in "${scenarios[@]}"; do
    read -r name first second <<<"$line"
    for count in "$first" "$second"; do
        if [ "${#running[@]}" -ge "$jobs_at_once" ]; then
            wait "${running[0]}" || failed_run
            running=("${running[@]:1}")
        fi
        measure "$name" "$count" >"$work/figures.$name.$count" &
        running+=("$!")
    done
done
for pid in "${running[@]}"; do
    wait "$pid" || failed_run
done

results="$work/results.tsv"
for line in "${scenarios[@]}"; do
    read -r name first second <<<"$line"
    read -r ir1 m1 <"$work/figures.$name.$first"
    read -r ir2 m2 <"$work/figures.$name.$second"
    python3 -c "
n = $second - $first
print('$name\t%.1f\t%.2f' % (($ir2 - $ir1) / n, ($m2 - $m1) / n))" >>"$results"
done

if [ "$mode" = "record" ]; then
    { printf 'scenario\tinstructions\tmallocs\n'; cat "$results"; } >"$baseline"
    echo "Recorded $baseline:"
    cat "$baseline"
    exit 0
fi

failed=0
python3 - "$baseline" "$results" "$tolerance" <<'PY' || failed=1
import sys
baseline = {}
with open(sys.argv[1]) as f:
    next(f)
    for line in f:
        name, ir, mallocs = line.split()
        baseline[name] = (float(ir), float(mallocs))
tolerance = float(sys.argv[3])
failed = False
print(f"{'scenario':<9}{'instructions':>14}{'baseline':>12}{'change':>9}{'mallocs':>10}{'baseline':>10}")
with open(sys.argv[2]) as f:
    for line in f:
        name, ir, mallocs = line.split()
        ir, mallocs = float(ir), float(mallocs)
        base_ir, base_m = baseline.get(name, (ir, mallocs))
        change = (ir - base_ir) / base_ir if base_ir else 0.0
        worse = change > tolerance or mallocs > base_m * (1 + tolerance) + 0.01
        failed |= worse
        mark = "  WORSE" if worse else ""
        print(f"{name:<9}{ir:>14.1f}{base_ir:>12.1f}{change:>+9.1%}{mallocs:>10.2f}{base_m:>10.2f}{mark}")
if failed:
    print(f"perf gate: a scenario is more than {tolerance:.0%} worse than {sys.argv[1]}.")
    print("If the cost is intended, run `bash scripts/perf-gate.sh record` and commit the baseline with the reason.")
    sys.exit(1)
print("perf gate: 0 failed")
PY

# s17: throughput with requests in flight, as ratios (see the top of this file).
"$binary" --load --check || failed=1
exit "$failed"
