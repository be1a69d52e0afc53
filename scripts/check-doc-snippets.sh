#!/usr/bin/env bash
# Compiles and runs every ```swift block of README.md and of the DocC articles, and compares the output each
# article shows with what its code prints (scripts/doc-snippets.py says how a document becomes a program).
# One SwiftPM package, one executable per document, one build: the package depends on this repository by
# path. Set SNIPPETS_SCRATCH to keep the build between runs (default: a fresh one under .build).
set -euo pipefail
cd "$(dirname "$0")/.."

package=$(mktemp -d)
trap 'rm -rf "$package"' EXIT
scratch=${SNIPPETS_SCRATCH:-$PWD/.build/doc-snippets}

python3 scripts/doc-snippets.py generate "$package"
swift build --package-path "$package" --scratch-path "$scratch" 2>&1 \
    | grep -v '^\[[0-9]*/[0-9]*\] \(Compiling\|Emitting\|Linking\|Write\|Applying\)' || true
if [ "${PIPESTATUS[0]}" != 0 ]; then
    echo "a documentation snippet does not compile (the generated package was $package)"
    trap - EXIT
    exit 1
fi
python3 scripts/doc-snippets.py check "$package" "$(swift build --package-path "$package" --scratch-path "$scratch" --show-bin-path)"
