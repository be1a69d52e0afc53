#!/usr/bin/env bash
# Keeps ARCHITECTURE.md true to the code: each file it names exists, and each symbol it names in backticks
# is declared in the file the document places it in, with the argument labels it gives (the rules are at
# the top of scripts/check-architecture.py). Every problem prints the document's line, the claim and where
# the symbol really is.
#
#   bash scripts/check-architecture.sh [DOC]     # DOC: ARCHITECTURE.md, or a copy
set -euo pipefail
cd "$(dirname "$0")/.."
python3 scripts/check-architecture.py "${1:-ARCHITECTURE.md}"
