#!/usr/bin/env python3
"""Prints the public API of a module from its symbol graph files: one sorted line per public symbol.

Usage: api-from-symbol-graph.py DIR MODULE

Each line is the symbol's path (its enclosing types and its name), its kind, its declaration as the
compiler prints it, and its availability when it is restricted (`unavailable`, `deprecated`, with the
message). Nothing that changes with unrelated edits is printed: no file paths or lines, and no USRs
except where the declaration the compiler prints is incomplete (see below).

The symbol graph leaves out declarations that are unavailable everywhere (`@available(*, unavailable)`),
so the migration overloads are not listed; their messages are pinned by scripts/check-compile-errors.sh.
"""
import glob
import json
import os
import sys

directory, module = sys.argv[1], sys.argv[2]
lines = set()
for path in sorted(glob.glob(os.path.join(directory, module + ".symbols.json"))
                   + glob.glob(os.path.join(directory, module + "@*.symbols.json"))):
    extended = os.path.basename(path)[len(module):-len(".symbols.json")].lstrip("@")
    graph = json.load(open(path))
    for symbol in graph.get("symbols", []):
        if symbol.get("accessLevel") not in ("public", "open"):
            continue
        name = ".".join(symbol["pathComponents"])
        if extended:
            name = extended + ":" + name
        kind = symbol["kind"]["identifier"].removeprefix("swift.")
        declaration = "".join(f["spelling"] for f in symbol.get("declarationFragments", []))
        declaration = " ".join(declaration.split())
        if "nonisolated(nonsending))" in declaration or "nonisolated(nonsending)," in declaration:
            # Swift 6.3's symbol graph prints a `nonisolated(nonsending)` function type as its attribute
            # alone. The symbol's mangled name spells the whole signature (and depends on nothing else), so
            # it stands in for the missing types: a change to them changes this line.
            declaration += " /* signature: " + symbol["identifier"]["precise"] + " */"
        generics = symbol.get("swiftGenerics", {})
        constraints = [
            c["lhs"] + {"conformance": ": ", "superclass": ": ", "sameType": " == "}.get(c["kind"], " ? ") + c["rhs"]
            for c in generics.get("constraints", [])
        ]
        extension = symbol.get("swiftExtension", {})
        context = [
            c["lhs"] + {"conformance": ": ", "superclass": ": ", "sameType": " == "}.get(c["kind"], " ? ") + c["rhs"]
            for c in extension.get("constraints", [])
        ]
        line = f"{name} [{kind}] {declaration}"
        where = sorted(set(constraints) | set(context))
        if where:
            line += " where " + ", ".join(where)
        notes = []
        for item in symbol.get("availability", []):
            domain = item.get("domain", "*")
            for flag in ("isUnconditionallyUnavailable", "isUnconditionallyDeprecated"):
                if item.get(flag):
                    notes.append(("unavailable" if "Unavailable" in flag else "deprecated") + f"({domain})")
            for version in ("introduced", "deprecated", "obsoleted"):
                if version in item:
                    v = item[version]
                    notes.append(f"{version}({domain}) {v.get('major', 0)}.{v.get('minor', 0)}.{v.get('patch', 0)}")
            if "message" in item:
                notes.append(f"message: {item['message']}")
            if "renamed" in item:
                notes.append(f"renamed: {item['renamed']}")
        if notes:
            line += " {" + "; ".join(notes) + "}"
        lines.add(line)
    # Conformances of public types are API too; named by the symbols' paths, not their USRs.
    names = {
        symbol["identifier"]["precise"]: ".".join(symbol["pathComponents"])
        for symbol in graph.get("symbols", [])
        if symbol.get("accessLevel") in ("public", "open")
    }
    for relationship in graph.get("relationships", []):
        if relationship["kind"] not in ("conformsTo", "inheritsFrom"):
            continue
        source = names.get(relationship["source"])
        if source is None:
            continue
        target = names.get(relationship["target"]) or relationship.get("targetFallback") or relationship["target"]
        line = f"{source} [{relationship['kind']}] {target}"
        context = [
            c["lhs"] + {"conformance": ": ", "superclass": ": ", "sameType": " == "}.get(c["kind"], " ? ") + c["rhs"]
            for c in relationship.get("swiftConstraints", [])
        ]
        if context:
            line += " where " + ", ".join(sorted(context))
        lines.add(line)
for line in sorted(lines):
    print(line)
