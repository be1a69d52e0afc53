#!/usr/bin/env bash
# Runs the demo's scripted session under valgrind and fails if any block is definitely lost.
# Usage: bash scripts/leak-check.sh
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product Demo
printf 'login ann\nsearch swift\nadd 1\nopen books/3\nback\ncart\ncheckout\nbadge\nchat\nback\nlogout\nquit\n' \
    | valgrind --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=1 \
        --suppressions=scripts/valgrind-swift-runtime.supp .build/debug/Demo \
        > /dev/null 2> .build/leak-check.log \
    || { grep -E 'definitely lost|ERROR SUMMARY' .build/leak-check.log; exit 1; }
grep -E 'definitely lost|ERROR SUMMARY' .build/leak-check.log
