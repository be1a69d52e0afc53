#!/usr/bin/env python3
"""Checks that every test the documentation cites for a guarantee exists and passed.

A citation is the words "pinned by" (any case, a line break allowed between them) followed by one or more backticked names separated by
commas, "and" or line breaks, e.g.

    ... is forgotten with it (pinned by `aSingletonBuiltUnderAnOverrideDoesNotKeepTheFakeAfterwards` and
    `OverrideLifetimeTests`).

A name is a test function (a `func` marked `@Test`) or a suite (a type declared in a test file) under
Tests/. The list of citations ends at the first word that is not a name or a separator, so a qualifier
("also in release") goes after the names, and a "pinned by" followed by no name is an error. Documents read: README.md and Sources/Router/Router.docc/*.md.
Every item of the Guarantees article's list must cite at least one test.

Usage: check-guarantees.py [--root DIR] LOG, where LOG is the output of `swift test` (CI's .build-test.log).
It fails when a cited name is declared nowhere under Tests/, or did not pass in LOG (a function must have
a `Test name(...) passed` line and no `failed` one; a suite a `Suite name passed` line).
"""

import argparse
import pathlib
import re
import sys

CITATION = re.compile(r"pinned\s+by((?:\s*(?:,|\band\b)?\s*`[A-Za-z_]\w*`)+)", re.IGNORECASE)
PHRASE = re.compile(r"pinned\s+by\b", re.IGNORECASE)
NAME = re.compile(r"`([A-Za-z_]\w*)`")
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def citations(root, problems):
    """(document, line, name) for every cited name, in document order; a "pinned by" that names no test in
    backticks is a problem."""
    documents = [root / "README.md"] + sorted((root / "Sources/Router/Router.docc").glob("*.md"))
    found = []
    for document in documents:
        if not document.exists():
            continue
        text = document.read_text()
        for phrase in PHRASE.finditer(text):
            line = text.count("\n", 0, phrase.start()) + 1
            match = CITATION.match(text, phrase.start())
            if not match:
                problems.append(f"{document.relative_to(root)}:{line}: \"pinned by\" names no test in backticks")
                continue
            for name in NAME.findall(match.group(1)):
                found.append((document.relative_to(root), line, name))
    return found


def uncited_guarantees(root):
    """The items of the Guarantees article's list that cite no test."""
    article = root / "Sources/Router/Router.docc/Guarantees.md"
    if not article.exists():
        return ["Sources/Router/Router.docc/Guarantees.md is missing"]
    items, current = [], None
    for number, line in enumerate(article.read_text().splitlines(), 1):
        if line.startswith("- "):
            current = [number, line]
            items.append(current)
        elif current is not None and line.startswith("  "):
            current[1] += "\n" + line
        else:
            current = None
    if not items:
        return ["Sources/Router/Router.docc/Guarantees.md has no list of guarantees"]
    return [
        f"Sources/Router/Router.docc/Guarantees.md:{number}: a guarantee cites no test (pinned by `…`)"
        for number, text in items
        if not CITATION.search(text)
    ]


def declared_tests(root):
    """The test functions and the suites declared under Tests/."""
    functions, suites = set(), set()
    for path in (root / "Tests").rglob("*.swift"):
        text = path.read_text()
        if "@Test" not in text:
            continue
        for match in re.finditer(r"@Test\b", text):
            function = re.compile(r"\bfunc\s+([A-Za-z_]\w*)").search(text, match.end())
            if function:
                functions.add(function.group(1))
        suites.update(re.findall(r"\b(?:struct|class|enum|actor|extension)\s+([A-Za-z_]\w*)", text))
    return functions, suites


def results(log):
    """What the log says passed and failed: (passed functions, failed functions, passed suites, failed suites)."""
    text = ANSI.sub("", log.read_text(errors="replace"))
    if not re.search(r"Test run with \d+ tests?", text):
        sys.exit(f"{log}: not the output of a swift test run (no 'Test run with' line)")
    # A parameterized test's line reads `Test name(kind:) with 3 test cases passed after …`.
    cases = r"(?: with \d+ test cases?)?"
    passed = set(re.findall(r"\bTest ([A-Za-z_]\w*)\([^)\n]*\)" + cases + " passed", text))
    failed = set(re.findall(r"\bTest ([A-Za-z_]\w*)\([^)\n]*\)" + cases + " (?:failed|recorded an issue)", text))
    suites_passed = set(re.findall(r"\bSuite ([A-Za-z_]\w*) passed", text))
    suites_failed = set(re.findall(r"\bSuite ([A-Za-z_]\w*) failed", text))
    return passed, failed, suites_passed, suites_failed


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--root", default=pathlib.Path(__file__).resolve().parent.parent, help="the repository (or a copy of it)"
    )
    parser.add_argument("log", help="the output of swift test")
    arguments = parser.parse_args()
    root = pathlib.Path(arguments.root).resolve()
    problems = uncited_guarantees(root)
    cited = citations(root, problems)
    if not cited:
        problems.append("no document cites a test (pinned by `testName`)")
    functions, suites = declared_tests(root)
    passed, failed, suites_passed, suites_failed = results(pathlib.Path(arguments.log))
    for document, line, name in cited:
        where = f"{document}:{line}: `{name}`"
        if name in functions:
            if name in failed:
                problems.append(f"{where} failed in the test log")
            elif name not in passed:
                problems.append(f"{where} did not run (no 'Test {name}(…) passed' in the test log)")
        elif name in suites:
            if name in suites_failed:
                problems.append(f"{where} failed in the test log")
            elif name not in suites_passed:
                problems.append(f"{where} did not run (no 'Suite {name} passed' in the test log)")
        else:
            problems.append(f"{where} is no test function or suite under Tests/")
    for problem in problems:
        print(problem)
    names = {name for _, _, name in cited}
    if problems:
        print(f"{len(problems)} problem(s) in {len(cited)} citations of {len(names)} tests")
        sys.exit(1)
    print(f"{len(cited)} citations of {len(names)} tests: each exists and passed")


main()
