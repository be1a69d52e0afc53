#!/usr/bin/env python3
"""The walk counts of ARCHITECTURE.md, and their comparison with a measurement.

In the section "How many files a walk touches", each walk is one list item that starts with
"- The **<walk>** walk", says "**N** files", and names each of those files in backticks (`Resolver.swift`, or
`Resolution/Resolver.swift`). <walk> is a walk of Benchmarks/Sources/RouterWalks (transient, built-singleton,
first-singleton, property-cycle, async).

    python3 scripts/walk_counts.py compare ARCHITECTURE.md MEASURED.tsv

compares them with MEASURED.tsv, which scripts/check-walks.sh writes: one "<walk><TAB><file>" line per file
with instructions (a file relative to Sources/Router), and a "<walk><TAB>" line for a walk with none.
"""

from __future__ import annotations

import pathlib
import re
import sys

WALK_ITEM = re.compile(r"^- The \*\*(?P<walk>[\w-]+)\*\* walk\b")
WALK_COUNT = re.compile(r"\*\*(?P<count>\d+)\*\*\s+files?\b")
SOURCES = pathlib.Path("Sources/Router")


class Walk:
    def __init__(self, name: str, line: int, count: int | None, files: list[str]):
        self.name, self.line, self.count, self.files = name, line, count, files


def walks_in(lines: list[str]) -> list[Walk]:
    """Each walk item of the document: its walk, line, count and the files it names."""
    walks = []
    for number, line in enumerate(lines, 1):
        m = WALK_ITEM.match(line)
        if not m:
            continue
        item = [line]
        for following in lines[number:]:
            if not following.startswith("  ") or not following.strip():
                break
            item.append(following)
        joined = " ".join(item)
        count = WALK_COUNT.search(joined)
        files = list(dict.fromkeys(re.findall(r"`([^`\s]+\.swift)`", joined)))
        walks.append(Walk(m.group("walk"), number, int(count.group("count")) if count else None, files))
    return walks


def relative(name: str) -> str:
    """A file the document names, relative to Sources/Router (a bare name is looked up there)."""
    if "/" in name:
        return name
    found = sorted(SOURCES.rglob(name))
    return str(found[0].relative_to(SOURCES)) if len(found) == 1 else name


def compare(doc: str, measured_path: str) -> int:
    measured: dict[str, list[str]] = {}
    for line in pathlib.Path(measured_path).read_text().splitlines():
        walk, _, path = line.partition("\t")
        measured.setdefault(walk, [])
        if path:
            measured[walk].append(path)
    walks = walks_in(pathlib.Path(doc).read_text().split("\n"))
    problems = []
    for walk in walks:
        where = f"{doc}:{walk.line}: the **{walk.name}** walk"
        if walk.name not in measured:
            problems.append(f"{where}: no such walk is measured (measured: {', '.join(sorted(measured))})")
            continue
        files = measured[walk.name]
        named = {relative(name) for name in walk.files}
        if walk.count != len(files):
            problems.append(f"{where}: the document says **{walk.count}** files, the measurement finds **{len(files)}**")
        missing = sorted(set(files) - named)
        extra = sorted(named - set(files))
        if missing:
            problems.append(f"{where}: files with instructions that the item does not name: "
                            + ", ".join(f"`{f}`" for f in missing))
        if extra:
            problems.append(f"{where}: files the item names that have no instructions in the walk: "
                            + ", ".join(f"`{f}`" for f in extra))
    for name in sorted(set(measured) - {walk.name for walk in walks}):
        problems.append(f"{doc}: the **{name}** walk is measured but has no item \"- The **{name}** walk …\"")
    for walk in walks:
        files = measured.get(walk.name, [])
        print(f"{walk.name}: {len(files)} files measured ({', '.join(files)}); the document says {walk.count}")
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} problems. Write the measured count and files into the walk's item in {doc} "
              "(the counting rule is in the section \"How many files a walk touches\"; "
              "the commands are at the top of scripts/count-walk-files.py).")
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] != "compare":
        sys.exit("usage: walk_counts.py compare ARCHITECTURE.md MEASURED.tsv")
    sys.exit(compare(sys.argv[2], sys.argv[3]))
