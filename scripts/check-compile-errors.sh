#!/usr/bin/env bash
# Pins the compiler's messages for common misuses of Router's API.
#
# Each file in Tests/CompileErrors is a complete program that must NOT compile. Its first lines say what
# the compiler prints for it:
#
#     // expected-error: <the first error message, verbatim>
#     // expected-errors: <how many errors the compiler reports>
#
# A snippet may add a third line, `// swiftc-flags: <flags>`, for the compiler flags its target would have:
# `-default-isolation MainActor` for code written as in an app target built with
# `.defaultIsolation(MainActor.self)`.
#
# The script builds the Router module once, type-checks each snippet against it in the Swift 6 language
# mode, and fails when a snippet compiles, when its first error or its error count drifts, or when one of
# the pages that quote compiler messages (CommonCompilerErrors.md, and AppsIsolatedToTheMainActor.md for
# app targets isolated to the main actor, both in Sources/Router/Router.docc) quotes a message (a line
# starting `error: `) that no snippet pins, or when no page quotes a pinned one: the pages show what the
# compiler really says.
#
# `--record` rewrites the two lines of every snippet from what the compiler prints now; read the diff, and
# update the pages, before committing it.
set -euo pipefail
cd "$(dirname "$0")/.."

record=false
[ "${1:-}" = "--record" ] && record=true

snippets=Tests/CompileErrors
pages=(Sources/Router/Router.docc/CommonCompilerErrors.md Sources/Router/Router.docc/AppsIsolatedToTheMainActor.md)

swift build --target Router > /dev/null
modules="$(swift build --show-bin-path)/Modules"

failures=0
pinned=$(mktemp)
trap 'rm -f "$pinned"' EXIT

for snippet in "$snippets"/*.swift; do
    name=$(basename "$snippet" .swift)
    # Word-split on purpose: the line holds separate flags.
    read -r -a flags <<< "$(sed -n '3s|^// swiftc-flags: ||p' "$snippet")"
    if output=$(swiftc -typecheck -swift-version 6 -diagnostic-style=llvm ${flags[@]+"${flags[@]}"} -I "$modules" "$snippet" 2>&1); then
        echo "FAIL $name: compiles, but it is kept here because it must not"
        failures=$((failures + 1))
        continue
    fi
    actual=$(grep -m1 ': error: ' <<< "$output" | sed 's/^.*: error: //' || true)
    count=$(grep -c ': error: ' <<< "$output" || true)
    if $record; then
        python3 - "$snippet" "$actual" "$count" << 'EOF'
import sys
path, message, count = sys.argv[1], sys.argv[2], sys.argv[3]
lines = open(path).read().split("\n")
lines[0] = "// expected-error: " + message
lines[1] = "// expected-errors: " + count
open(path, "w").write("\n".join(lines))
EOF
        echo "recorded $name: $actual ($count)"
        printf '%s\n' "$actual" >> "$pinned"
        continue
    fi
    expected=$(sed -n '1s|^// expected-error: ||p' "$snippet")
    expected_count=$(sed -n '2s|^// expected-errors: ||p' "$snippet")
    printf '%s\n' "$expected" >> "$pinned"
    if [ "$actual" != "$expected" ] || [ "$count" != "$expected_count" ]; then
        echo "FAIL $name"
        echo "  expected ($expected_count errors): $expected"
        echo "  actual   ($count errors): $actual"
        failures=$((failures + 1))
    else
        echo "ok   $name ($count)"
    fi
done

# A page quotes each message on a line of its own, starting `error: `; every page's quotes must be pinned,
# and every pinned message quoted by some page.
quoted=""
for page in "${pages[@]}"; do
    page_quotes=$(sed -n 's/^error: //p' "$page" | sort -u)
    while IFS= read -r message; do
        [ -z "$message" ] && continue
        if ! grep -qxF -- "$message" "$pinned"; then
            echo "FAIL $page quotes a message no snippet pins: $message"
            failures=$((failures + 1))
        fi
    done <<< "$page_quotes"
    quoted+="$page_quotes"$'\n'
done
while IFS= read -r message; do
    if ! grep -qxF -- "$message" <<< "$quoted"; then
        echo "FAIL no page quotes the pinned message: $message (${pages[*]})"
        failures=$((failures + 1))
    fi
done < <(sort -u "$pinned")

if [ "$failures" -gt 0 ]; then
    echo "$failures compile-error check(s) failed"
    exit 1
fi
echo "every snippet fails with its pinned message, and the pages quote exactly those"
