#!/usr/bin/env bash
# Enforces the demo's module rule: a feature target (Sources/Modules/<Feature>) depends on, and imports,
# only Router and ShopInterfaces, never another feature; ShopInterfaces and ShopTestSupport see no feature;
# a feature's test target (Tests/Features/<Feature>) sees its own feature only. Only ShopApp (the wiring),
# the Demo executable and ModulesTests may see every feature.
#
# It reads the package as SwiftPM sees it (swift package dump-package) and greps the import lines, so
# it catches a dependency added to Package.swift and an import that relies on one.
set -euo pipefail
cd "$(dirname "$0")/.."

manifest=$(mktemp)
trap 'rm -f "$manifest"' EXIT
swift package dump-package > "$manifest"

python3 - "$manifest" <<'PY'
import json, os, re, sys

with open(sys.argv[1]) as f:
    package = json.load(f)

def path_of(target):
    if target.get("path"):
        return target["path"].rstrip("/")
    base = "Tests" if target["type"] == "test" else "Sources"
    return f"{base}/{target['name']}"

def dependencies_of(target):
    names = []
    for dependency in target.get("dependencies", []):
        for kind in ("byName", "target", "product"):
            if kind in dependency:
                names.append(dependency[kind][0])
    return set(names)

targets = {t["name"]: t for t in package["targets"]}
paths = {name: path_of(t) for name, t in targets.items()}
shared = {"Interfaces", "Wiring"}
features = {}  # module name -> folder name
for name, path in paths.items():
    parts = path.split("/")
    if len(parts) == 3 and parts[:2] == ["Sources", "Modules"] and parts[2] not in shared:
        features[name] = parts[2]

problems = []

# Every folder under Sources/Modules must be a target, so that none escapes the check.
for folder in sorted(os.listdir("Sources/Modules")):
    if os.path.isdir(f"Sources/Modules/{folder}") and f"Sources/Modules/{folder}" not in paths.values():
        problems.append(f"Sources/Modules/{folder} is not a target of the package")

def allow(name, allowed, why):
    if name not in targets:
        problems.append(f"the package has no target {name}")
        return
    extra = dependencies_of(targets[name]) - allowed
    for dependency in sorted(extra):
        problems.append(f"{name} depends on {dependency}: {why}")

IMPORT = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*import\s+(?:(?:struct|class|enum|protocol|typealias|func|let|var|actor)\s+)?([A-Za-z_]\w*)")
def imports_in(folder):
    found = []
    for root, _, files in os.walk(folder):
        for file in sorted(files):
            if not file.endswith(".swift"):
                continue
            with open(os.path.join(root, file)) as source:
                for number, line in enumerate(source, 1):
                    match = IMPORT.match(line)
                    if match:
                        found.append((os.path.join(root, file), number, match.group(1)))
    return found

def no_feature_imports(name, allowed=frozenset()):
    for file, number, module in imports_in(paths[name]):
        if module in features and module not in allowed:
            problems.append(f"{file}:{number} imports {module}: {name} must not see that feature")

allow("Router", set(), "the library has no dependencies")
allow("ShopInterfaces", {"Router"}, "the interfaces see only the library")
no_feature_imports("ShopInterfaces")
if "ShopTestSupport" in targets:
    allow("ShopTestSupport", {"Router", "ShopInterfaces"}, "the test support fakes only the shared interfaces")
    no_feature_imports("ShopTestSupport")

tests_by_folder = {p: n for n, p in paths.items() if targets[n]["type"] == "test"}
for name, folder in sorted(features.items()):
    allow(name, {"Router", "ShopInterfaces"}, "a feature sees only Router and ShopInterfaces, never another feature")
    no_feature_imports(name, {name})
    test = tests_by_folder.get(f"Tests/Features/{folder}")
    if test is None:
        problems.append(f"{name} has no test target in Tests/Features/{folder}")
        continue
    allow(test, {"Router", "RouterTesting", "ShopInterfaces", "ShopTestSupport", name}, f"{name}'s tests build it alone, against fakes")
    no_feature_imports(test, {name})

if problems:
    print("The module rule is broken:")
    for problem in problems:
        print(f"- {problem}")
    sys.exit(1)
print(f"Module rule holds: {len(features)} features ({', '.join(sorted(features))}) and ShopInterfaces "
      "see only Router and ShopInterfaces; each feature's tests see that feature alone.")
PY
