#!/usr/bin/env bash
# Keeps ARCHITECTURE.md true to the code: every file it names (`Dir/File.swift`) exists (from the
# repository's root, or under Sources/Router), and every type, member or function it names in backticks
# (`Type`, `Type.member`, `camelCaseFunction`) is declared in Sources/Router or Tests. A rename or a removal that the document does not follow fails CI.
set -euo pipefail
cd "$(dirname "$0")/.."
doc="${1:-ARCHITECTURE.md}"
python3 - "$doc" <<'PY'
import re, sys, pathlib
doc = pathlib.Path(sys.argv[1]).read_text()
sources = {p: p.read_text() for p in pathlib.Path("Sources/Router").rglob("*.swift")}
tests = {p: p.read_text() for p in pathlib.Path("Tests").rglob("*.swift")}
# Names the document may use that the library does not declare: the module, the standard library's.
outside = {"Router", "init", "_withUnprotectedUnsafeMutablePointer", "unsafeDowncast", "Unmanaged",
           "pthread_getspecific", "pthread_getattr_np"}
names = set()
decl = re.compile(r"\b(?:func|var|let|class|struct|enum|protocol|typealias|case|actor|init|subscript)\s+`?([A-Za-z_]\w*)")
for text in list(sources.values()) + list(tests.values()):
    names.update(decl.findall(text))
    # enum cases declared in a list: `case a, b`
    for line in re.findall(r"\bcase\s+([^\n:=(]+)", text):
        names.update(n.strip() for n in line.split(",") if re.fullmatch(r"\s*[A-Za-z_]\w*\s*", n))
problems, checked = [], 0
for token in re.findall(r"`([^`\n]+)`", doc):
    if token.endswith(".swift"):
        checked += 1
        parts = [t.strip() for t in re.split(r",", token)]
        for part in parts:
            if pathlib.Path(part).exists():
                continue
            # A path under Sources/Router, or a bare file name found there.
            if not any(str(p) == "Sources/Router/" + part or str(p).endswith("/" + part) for p in sources):
                problems.append(f"file `{part}` is neither a path from the repository's root nor under Sources/Router")
        continue
    bare = re.sub(r"\(.*\)$", "", token)
    if not re.fullmatch(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*", bare):
        continue
    components = bare.split(".")
    # Only what reads as a name of this library: a capitalised type, or a camelCase function or member.
    if not (components[0][0].isupper() or re.search(r"[a-z][A-Z]", components[0])):
        continue
    if components[0] in {"RoutableService", "ReferenceWritableKeyPath", "Sendable", "Any", "AnyObject", "Unmanaged",
                         "MainActor", "Int", "String", "Array", "Mutex", "Atomic", "TaskLocal", "UnsafeMutablePointer"}:
        components = components[1:]
    for name in components:
        if len(name) == 1 or name in outside:
            continue
        checked += 1
        if name not in names:
            problems.append(f"`{token}`: no declaration of {name} in Sources/Router")
for problem in sorted(set(problems)):
    print(problem)
print(f"{checked} names checked, {len(set(problems))} not found")
sys.exit(1 if problems else 0)
PY
