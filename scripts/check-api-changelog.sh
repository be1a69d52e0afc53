#!/usr/bin/env bash
# Fails when a declaration of the last release's public API is gone or changed and CHANGELOG.md's next
# section does not say so.
#
# api/released/<Module>.api.txt is the released API (printed by scripts/api-from-symbol-graph.py at the
# release's commit; replace it at each release). Each of its lines that is not in api/<Module>.api.txt,
# a removed declaration or a changed one (same path, other declaration), must have its path, the text
# before " [", in backticks in the `## [Unreleased]` section of CHANGELOG.md (up to the next `## [`):
#     `RouteRegistry.makeDestination(to:preparation:)`   for a method, property, type...
#     `Injection: Swift.Sendable` or `Injection: Sendable`   for a conformance (or superclass) line
# Overloads share a path: one mention covers them all. A type that is gone (no line of it in
# api/<Module>.api.txt) and named in backticks on a CHANGELOG line containing "removed" covers its
# members and conformances too.
# To fix a failure: add a line to `## [Unreleased]` naming each printed path, with its replacement.
#
#     bash scripts/check-api-changelog.sh [--root DIR]   # DIR: a copy of the repository (default: this one)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
if [ "${1:-}" = "--root" ]; then root=$2; fi

python3 - "$root" <<'PY'
import glob, os, re, sys

root = sys.argv[1]
text = open(os.path.join(root, "CHANGELOG.md")).read()
match = re.search(r"^## \[Unreleased\]\n(.*?)(?=^## \[|\Z)", text, re.S | re.M)
section = match.group(1) if match else ""
mentioned = set(re.findall(r"`([^`\n]+)`", section))
removed_types = {name for line in section.splitlines() if "removed" in line.lower()
                 for name in re.findall(r"`([^`\n]+)`", line)}

def path_of(line):
    path, _, rest = line.partition(" [")
    kind = rest.partition("]")[0]
    if kind in ("conformsTo", "inheritsFrom"):  # "Type [conformsTo] Swift.Sendable where ..." -> "Type: Swift.Sendable"
        protocol = rest.partition("] ")[2].split(" where ")[0]
        return path, [f"{path}: {protocol}", f"{path}: {protocol.split('.')[-1]}"]
    return path, [path]

changed, missing = 0, {}
files = sorted(glob.glob(os.path.join(root, "api", "released", "*.api.txt")))
if not files:
    sys.exit(f"no released API in {root}/api/released/*.api.txt: nothing to compare with")
for released in files:
    module = os.path.basename(released)
    current_file = os.path.join(root, "api", module)
    current = set(open(current_file).read().splitlines()) if os.path.exists(current_file) else set()
    current_paths = {line.partition(" [")[0] for line in current}
    for line in open(released).read().splitlines():
        if not line or line.startswith("#") or line in current:
            continue
        changed += 1
        owner, spellings = path_of(line)
        if any(s in mentioned for s in spellings):
            continue
        # A type that is gone and named on a line saying "removed" covers its members and conformances.
        parts = owner.split(".")
        if any(".".join(parts[:i]) in removed_types and ".".join(parts[:i]) not in current_paths
               for i in range(1, len(parts) + 1)):
            continue
        if spellings[0] != owner:
            reason = "conformance removed"
        elif owner in current_paths:
            reason = "changed (same path, other declaration)"
        else:
            reason = "removed"
        missing.setdefault(spellings[0], f"{reason} in api/{module}, not named in CHANGELOG.md's [Unreleased]")

for path, reason in sorted(missing.items()):
    print(f"`{path}`: {reason}")
if missing:
    print(f"{len(missing)} removed or changed API paths since the release are not in CHANGELOG.md's "
          "## [Unreleased]: add a line naming each, in backticks, with its replacement")
    sys.exit(1)
print(f"{changed} removed or changed declarations since the released API "
      f"({len(files)} file(s) in api/released/), all named in CHANGELOG.md's [Unreleased]")
PY
