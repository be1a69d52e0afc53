#!/usr/bin/env bash
# Compiles and runs every ```swift block of README.md, CONTRIBUTING.md and the DocC articles, and compares
# the output each document shows with what its code prints (scripts/doc-snippets.py says how a document becomes a program).
# One SwiftPM package, one executable per document, one build: the package depends on this repository by
# path. Its build is kept in .build/doc-snippets (or $SNIPPETS_SCRATCH), so a second run rebuilds only what changed.
set -euo pipefail
cd "$(dirname "$0")/.."

package=$(mktemp -d)
trap 'rm -rf "$package"' EXIT
scratch=${SNIPPETS_SCRATCH:-$PWD/.build/doc-snippets}

python3 scripts/doc-snippets.py generate "$package"
if ! swift build --package-path "$package" --scratch-path "$scratch" > "$package/build.log" 2>&1; then
    grep -v '^\[[0-9]*/[0-9]*\] ' "$package/build.log" | head -80
    echo "a documentation snippet does not compile (the generated package is kept in $package)"
    trap - EXIT
    exit 1
fi
tail -1 "$package/build.log"
python3 scripts/doc-snippets.py check "$package" "$(swift build --package-path "$package" --scratch-path "$scratch" --show-bin-path)"
