#!/usr/bin/env bash
# Every guarantee the README and the DocC articles state cites the tests that pin it, as "pinned by `testName`"
# (a test function or a suite under Tests/); this checks that each cited test exists and passed in a swift test
# log. CI runs it on .build-test.log after the swift test step, then on a copy with a cited test renamed, where
# it must fail. The citation form and the checks: scripts/check-guarantees.py.
#
#   bash scripts/check-guarantees.sh [--root DIR] LOG
set -euo pipefail
python3 "$(dirname "$0")/check-guarantees.py" "$@"
