#!/usr/bin/env bash
# Fails when the public API of a library module (Router, RouterTesting) differs from its recorded file,
# api/<Module>.api.txt, so that every API change is a reviewed diff of that file.
#
# Each file holds one sorted line per public symbol (path, kind, declaration, restricted availability)
# and per conformance of a public type, printed from the compiler's symbol graph by
# scripts/api-from-symbol-graph.py: no file paths, lines or USRs, so it changes only with the API.
#
#     bash scripts/check-api.sh          # compare
#     bash scripts/check-api.sh record   # rewrite api/*.api.txt from the current sources
set -euo pipefail
cd "$(dirname "$0")/.."

modules=(Router RouterTesting)
failed=0
for module in "${modules[@]}"; do
    file=api/$module.api.txt
    symbols=$(mktemp -d)
    current=$(mktemp)
    swift build --target "$module" -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir \
        -Xswiftc "$symbols" > /dev/null
    python3 scripts/api-from-symbol-graph.py "$symbols" "$module" > "$current"

    if [ "${1:-}" = "record" ]; then
        mkdir -p api
        cp "$current" "$file"
        echo "recorded $(wc -l < "$file" | tr -d ' ') lines of public API in $file; review its diff before committing"
    elif ! diff -u "$file" "$current" --label "$file (recorded)" --label "$module's public API now"; then
        echo
        echo "The public API of $module differs from $file (lines with - are gone, + are new)."
        echo "If the change is meant, re-record it with 'bash scripts/check-api.sh record' and commit the file:"
        echo "its diff is how the API change is reviewed (see CONTRIBUTING.md)."
        failed=1
    else
        echo "public API of $module unchanged ($(wc -l < "$file" | tr -d ' ') lines in $file)"
    fi
    rm -rf "$symbols" "$current"
done
exit "$failed"
