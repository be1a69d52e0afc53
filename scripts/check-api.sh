#!/usr/bin/env bash
# Fails when the public API of the Router module differs from api/Router.api.txt, so that every API
# change is a reviewed diff of that file.
#
# The file holds one sorted line per public symbol (path, kind, declaration, restricted availability)
# and per conformance of a public type, printed from the compiler's symbol graph by
# scripts/api-from-symbol-graph.py: no file paths, lines or USRs, so it changes only with the API.
#
#     bash scripts/check-api.sh          # compare
#     bash scripts/check-api.sh record   # rewrite api/Router.api.txt from the current sources
set -euo pipefail
cd "$(dirname "$0")/.."

file=api/Router.api.txt
symbols=$(mktemp -d)
current=$(mktemp)
trap 'rm -rf "$symbols" "$current"' EXIT

swift build --target Router -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$symbols" > /dev/null
python3 scripts/api-from-symbol-graph.py "$symbols" Router > "$current"

if [ "${1:-}" = "record" ]; then
    mkdir -p api
    cp "$current" "$file"
    echo "recorded $(wc -l < "$file" | tr -d ' ') lines of public API in $file; review its diff before committing"
    exit 0
fi

if ! diff -u "$file" "$current" --label "$file (recorded)" --label "Router's public API now"; then
    echo
    echo "The public API of Router differs from $file (lines with - are gone, + are new)."
    echo "If the change is meant, re-record it with 'bash scripts/check-api.sh record' and commit the file:"
    echo "its diff is how the API change is reviewed (see CONTRIBUTING.md)."
    exit 1
fi
echo "public API unchanged ($(wc -l < "$file" | tr -d ' ') lines in $file)"
