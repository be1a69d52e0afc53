#!/usr/bin/env bash
# Proves the architecture checks can fail: makes a copy of ARCHITECTURE.md with deliberate false statements
# (scripts/drift-architecture.py: a renamed symbol, a symbol in the wrong file, a wrong signature, a file
# that does not exist, a claim no file places), runs a check on it, and fails unless the check fails and
# reports every drift meant for it.
#
#   bash scripts/check-architecture-drift.sh names   # scripts/check-architecture.sh on the copy
set -euo pipefail
cd "$(dirname "$0")/.."

check="${1:?usage: check-architecture-drift.sh names}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
drifted="$work/ARCHITECTURE.md"
python3 scripts/drift-architecture.py "$drifted" >"$work/expected.tsv"

case "$check" in
    names) command=(bash scripts/check-architecture.sh "$drifted") ;;
    *) echo "usage: check-architecture-drift.sh names" >&2; exit 2 ;;
esac

if "${command[@]}" >"$work/report.txt" 2>&1; then
    cat "$work/report.txt"
    echo "the $check check passed a drifted copy of ARCHITECTURE.md: it cannot catch drift" >&2
    exit 1
fi
missed=0
expected=0
while IFS=$'\t' read -r for_check fragment; do
    [ "$for_check" = "$check" ] || continue
    expected=$((expected + 1))
    if grep -qF -- "$fragment" "$work/report.txt"; then
        echo "reported: $fragment"
    else
        echo "NOT reported: $fragment"
        missed=$((missed + 1))
    fi
done <"$work/expected.tsv"
if [ "$expected" = 0 ] || [ "$missed" != 0 ]; then
    cat "$work/report.txt"
    echo "the $check check on a drifted ARCHITECTURE.md missed $missed of its $expected drifts" >&2
    exit 1
fi
echo "the $check check failed on the drifted copy, as it must, and reported all $expected drifts"
