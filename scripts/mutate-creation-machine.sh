#!/usr/bin/env bash
# Applies, one at a time, mutations of the creation protocol (lost wake-ups, early publication, failure
# paths that publish what is not prepared, a missing merge, missing rollbacks) to a copy of
# CreationMachine.swift, and of a shared cell's life (lost or double teardowns) to a copy of
# CreationCell.swift, and checks that the explorer's tests fail on each. Exits non-zero and names any
# mutation that survives. The mutations and how they are applied: scripts/mutate-creation-machine.py.
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 scripts/mutate-creation-machine.py "$@"
