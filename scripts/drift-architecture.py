#!/usr/bin/env python3
"""Writes a copy of ARCHITECTURE.md with deliberate false statements, for CI to prove the checks can fail.

    python3 scripts/drift-architecture.py OUT [ARCHITECTURE.md]

Each drift replaces one exact piece of text that must occur exactly once in the document; if one does not
(the document was reworded), this fails and names it, so that the drifts never silently stop applying.
It prints one line per drift, "<check><TAB><text the check's report must contain>", where <check> is
`names` (scripts/check-architecture.sh), the one check of the document.
"""

import pathlib
import sys

# (check, what it shows, the text in the document, the false text, what the report must contain)
DRIFTS = [
    ("names", "a renamed symbol",
     "3. `Resolver.resolvePlainTopLevel` (`Resolution/Resolver+Door.swift`)",
     "3. `Resolver.resolvePlainTransient` (`Resolution/Resolver+Door.swift`)",
     "`Resolver.resolvePlainTransient`: placed in `Sources/Router/Resolution/Resolver+Door.swift`"),
    ("names", "a symbol placed in the wrong file",
     "`Resolver.drainShared` (`Resolution/Resolver+SharedInstances.swift`)\n   runs its preparations.",
     "`Resolver.drainShared` (`Resolution/Resolver+Cycles.swift`)\n   runs its preparations.",
     "`Resolver.drainShared`: placed in `Sources/Router/Resolution/Resolver+Cycles.swift`"),
    ("names", "a door's wrong signature",
     "`Resolver.lookup(in:reporting:seeding:onMainActor:_:)` joins",
     "`Resolver.lookup(in:reporting:body:)` joins",
     "`Resolver.lookup(in:reporting:body:)`: placed in `Sources/Router/Resolution/Resolver.swift`"),
    ("names", "a file that does not exist",
     "| `Resolution/CreationMachine.swift`, ",
     "| `Resolution/CreationStateMachine.swift`, ",
     "file `Resolution/CreationStateMachine.swift`: no file"),
    ("names", "a claim no file places",
     "\n## The pieces\n",
     "\nA claim that `Resolver.drainShared` runs the preparations, naming no file.\n\n## The pieces\n",
     "`Resolver.drainShared`: placed in no file"),
]


def main() -> int:
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: drift-architecture.py OUT [ARCHITECTURE.md]")
    source = pathlib.Path(sys.argv[2] if len(sys.argv) == 3 else "ARCHITECTURE.md")
    original = source.read_text()
    text = original
    missing = []
    for check, what, anchor, false, expected in DRIFTS:
        found = original.count(anchor)
        if found != 1:
            missing.append(f"{what}: the text {anchor!r} occurs {found} times in {source}, not once")
            continue
        text = text.replace(anchor, false)
        print(f"{check}\t{expected}")
    if missing:
        for problem in missing:
            print(f"drift-architecture.py: {problem}; update DRIFTS to the document's new words", file=sys.stderr)
        return 1
    pathlib.Path(sys.argv[1]).write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
