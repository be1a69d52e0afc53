#!/usr/bin/env bash
# The walk counts of ARCHITECTURE.md ("How many files a walk touches") against a measurement: how many, and
# which, files of Sources/Router have instructions in each walk of Benchmarks/Sources/RouterWalks, with
# callgrind on a release build with debug information (the rule and the flags: scripts/count-walk-files.py).
#
#   bash scripts/check-walks.sh [DOC]                       # build, measure, compare (DOC: ARCHITECTURE.md)
#   bash scripts/check-walks.sh --measured FILE [DOC]       # compare with an earlier measurement only
#
# A measurement is left in Benchmarks/.build-walk/walks.tsv. Fails when a count or a file list differs;
# each problem names the document's line.
set -euo pipefail
cd "$(dirname "$0")/.."

measured=""
if [ "${1:-}" = "--measured" ]; then
    measured="$2"
    shift 2
fi
doc="${1:-ARCHITECTURE.md}"
walks=(transient built-singleton first-singleton property-cycle async)
lookups=20

if [ -z "$measured" ]; then
    if ! command -v valgrind >/dev/null 2>&1; then
        echo "valgrind is not installed: apt-get install valgrind" >&2
        exit 1
    fi
    scratch="Benchmarks/.build-walk"
    # Its own scratch path: these flags would otherwise rebuild the perf gate's binary.
    swift build -c release --package-path Benchmarks --product RouterWalks --scratch-path "$scratch" \
        -Xswiftc -g -Xswiftc -Xfrontend -Xswiftc -disable-llvm-merge-functions-pass \
        -Xswiftc -Xfrontend -Xswiftc -experimental-serialize-debug-info >/dev/null
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    measured="$scratch/walks.tsv"
    : >"$measured"
    for walk in "${walks[@]}"; do
        valgrind --tool=callgrind --toggle-collect='*walkLookup*' --callgrind-out-file="$work/$walk.out" \
            "$scratch/release/RouterWalks" "$walk" "$lookups" >"$work/$walk.log" 2>&1 \
            || { cat "$work/$walk.log"; echo "RouterWalks $walk failed under callgrind" >&2; exit 1; }
        files=$(python3 scripts/count-walk-files.py --list "$work/$walk.out")
        if [ -z "$files" ]; then
            printf '%s\t\n' "$walk" >>"$measured"
        else
            printf '%s\n' "$files" | sed "s/^/$walk\t/" >>"$measured"
        fi
    done
fi
python3 scripts/walk_counts.py compare "$doc" "$measured"
