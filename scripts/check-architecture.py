#!/usr/bin/env python3
"""Checks that ARCHITECTURE.md says where things are, and what they are called, as the code does.

    python3 scripts/check-architecture.py [ARCHITECTURE.md]

What the document names in backticks is a claim:

- A file, `Dir/File.swift` (under Sources/Router/, or from the repository's root) or a bare `File.swift`
  (the one file of that name under Sources/Router): it must exist, and a bare name must be unique. Any other
  path with a slash (`.ci/run`, `Tests/CreationExplorerTests`) must exist too.
- A symbol, `Type.member`, `member`, `Type` (generic arguments such as `Borrowed<Object>` are ignored), with
  argument labels when it has parentheses (`lookup(in:reporting:_:)`, `seal()`): where the document places
  it (below), `Type.member` must be a declaration of `member` directly inside `Type`'s body or an `extension
  Type` in that file, and a plain `member` or `Type` a declaration of it in that file, at file level or
  directly in a type's body (a local `let` in a function does not count). Labels, when given, must be the
  declaration's labels, all of them. Only a heading's symbols may be placed nowhere; they must be declared
  somewhere in Sources/Router or Tests.
- Not claims: code (`r.resolve(.wheel)`, `b.a === a`, anything with a space or a lower-case first part
  before a dot), one-letter placeholders (`A`, `B.a`) and the names in OUTSIDE below (the standard
  library's, the language's).

Where the document places a symbol:

1. A table row whose first cell names files places every symbol of the row in those files (in one of them).
2. A file named in parentheses right after a symbol, `symbol` (`File.swift`…), places that symbol, and
   the symbols listed just before it with commas or "and" (`A` and `B` (`File.swift`)); it places nothing
   after it.
3. Otherwise, in a paragraph or a list item (a numbered step and its indented lines), a symbol is placed in
   the nearest file named before it in that paragraph or item, not counting the files of rule 2 ("In
   `File.swift`: `a`, `b`" places a and b). A symbol with no such file before it in its paragraph or item
   is placed nowhere, which is a problem: a claim no file places is one nobody checks. A heading is placed
   nowhere, and its symbols need only be declared somewhere.

"""

from __future__ import annotations

import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from swift_index import Index  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOURCES = pathlib.Path("Sources/Router")

# Names in backticks that are the language's or the standard library's, not the library's.
OUTSIDE = {
    "Any", "AnyObject", "Sendable", "Unmanaged", "MainActor", "Int", "String", "Array", "Mutex", "Atomic",
    "TaskLocal", "UnsafeMutablePointer", "UnsafeMutableRawPointer", "ObjectIdentifier", "Optional", "Task",
    "_withUnprotectedUnsafeMutablePointer", "unsafeDowncast", "unsafeBitCast", "pthread_getspecific",
    "pthread_getattr_np", "dlsym", "unsafe", "inout", "async", "await", "throws", "try", "nil", "self",
    "deinit", "private", "public", "internal", "fileprivate", "static", "final", "weak", "unowned", "Router",
}

SYMBOL = re.compile(
    r"(?P<path>[A-Za-z_]\w*(?:<[^<>`]*>)?(?:\.[A-Za-z_]\w*(?:<[^<>`]*>)?)*)"
    r"(?P<labels>\((?:(?:[A-Za-z_]\w*|_):)*\))?"
)
PATH = re.compile(r"[\w.+-]+(?:/[\w.+-]+)*/?")


class Token:
    def __init__(self, text: str, line: int, start: int, end: int):
        self.text, self.line, self.start, self.end = text, line, start, end
        self.files: list[pathlib.Path] | None = None  # for a file: the file(s) it names
        self.placed: list[pathlib.Path] | None = None  # for a symbol: where the document places it
        self.rule = ""  # why it is placed there
        self.heading = False  # whether it is in a heading (placed nowhere, and that is allowed)


def blocks(lines: list[str]):
    """(kind, [(line number, text)]) for each table row, heading, paragraph and list item."""
    current: list[tuple[int, str]] = []
    kind = ""
    fenced = False
    for number, line in enumerate(lines, 1):
        if line.startswith("```"):
            fenced = not fenced
            if current:
                yield kind, current
            current = []
            continue
        if fenced:
            continue
        stripped = line.strip()
        starts = None
        if not stripped:
            starts = "end"
        elif stripped.startswith("|"):
            starts = "row"
        elif stripped.startswith("#"):
            starts = "heading"
        elif re.match(r"(\d+\.|[-*])\s", stripped):
            starts = "item"
        elif kind in {"row", "heading", ""}:
            starts = "paragraph"
        if starts:
            if current:
                yield kind, current
            current, kind = [], ("" if starts == "end" else starts)
        if stripped:
            current.append((number, line))
    if current:
        yield kind, current


def resolve_file(text: str) -> tuple[list[pathlib.Path], str | None]:
    """The file a `….swift` token names, or why it names none."""
    if "/" in text:
        for candidate in (SOURCES / text, pathlib.Path(text)):
            if candidate.is_file():
                return [candidate], None
        return [], f"no file {SOURCES / text} and no file {text} from the repository's root"
    found = sorted(SOURCES.rglob(text))
    if len(found) == 1:
        return found, None
    if not found:
        return [], f"no file named {text} under {SOURCES}"
    return [], f"{len(found)} files named {text} under {SOURCES} ({', '.join(map(str, found))}): give its folder"


def main() -> int:
    import os

    doc_name = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / "ARCHITECTURE.md")
    doc_path = pathlib.Path(doc_name).resolve()  # before moving to the repository's root
    os.chdir(ROOT)
    lines = doc_path.read_text().split("\n")
    index = Index([SOURCES, pathlib.Path("Tests")])
    problems: list[str] = []
    symbols_checked = files_checked = 0

    def problem(line: int, claim: str, text: str) -> None:
        problems.append(f"{doc_name}:{line}: {claim}: {text}")

    for kind, block in blocks(lines):
        # The block's text as one string, with each token's line.
        text = ""
        line_of: list[int] = []
        for number, line in block:
            text += line + "\n"
            line_of += [number] * (len(line) + 1)
        tokens = [Token(m.group(1), line_of[m.start()], m.start(), m.end()) for m in re.finditer(r"`([^`\n]+)`", text)]
        if kind == "row":
            first_cell_end = text.find("|", text.find("|") + 1)
        def gap(before: Token, after: Token) -> str:
            """The text between two tokens, its line breaks and indentation read as one space."""
            return re.sub(r"\s+", " ", text[before.end : after.start])

        current: list[pathlib.Path] | None = None
        current_token: Token | None = None
        row_files: list[pathlib.Path] = []
        symbols: list[Token] = []
        for i, token in enumerate(tokens):
            t = token.text
            if t.endswith(".swift"):
                files_checked += 1
                token.files, why = resolve_file(t)
                if why:
                    problem(token.line, f"file `{t}`", why)
                    token.files = []
                if kind == "row" and token.start < first_cell_end:
                    row_files += token.files
                    continue
                # Rule 2: `A`, `B` and `C` (`File.swift`…) places A, B and C, and nothing after it.
                if i > 0 and hasattr(tokens[i - 1], "parts") and gap(tokens[i - 1], token) in {" (", "("}:
                    k = i - 1
                    while k >= 0 and hasattr(tokens[k], "parts"):
                        tokens[k].placed = token.files
                        tokens[k].rule = f"the file in parentheses right after it, line {token.line}"
                        if k == 0 or gap(tokens[k - 1], tokens[k]) not in {", ", " and ", ", and "}:
                            break
                        k -= 1
                    continue
                if kind in {"paragraph", "item"}:
                    current, current_token = token.files, token
                continue
            if "/" in t and PATH.fullmatch(t):
                files_checked += 1
                if not ((SOURCES / t).exists() or pathlib.Path(t).exists()):
                    problem(token.line, f"path `{t}`", f"no {SOURCES / t} and no {t} from the repository's root")
                continue
            m = SYMBOL.fullmatch(t)
            if not m:
                continue
            parts = [re.sub(r"<.*>$", "", p) for p in re.split(r"\.(?![^<]*>)", m.group("path"))]
            # The language's names, code (`b.a`), and a one-letter placeholder type (`A`, `B.a`, `Entry<D>`'s `D`).
            if parts[0] in OUTSIDE or (len(parts) > 1 and parts[0][0].islower()) or len(parts[0]) == 1:
                continue
            symbols.append(token)
            token.parts = parts
            token.labels = tuple(l for l in m.group("labels")[1:-1].split(":") if l) if m.group("labels") else None
            if kind == "row" and row_files:
                token.placed, token.rule = row_files, "the table row's first cell names it"
            elif current is not None:
                token.placed = current
                token.rule = f"the nearest file named before it in its {kind}, line {current_token.line}"
            token.heading = kind == "heading"
        for token in symbols:
            symbols_checked += 1
            claim = f"`{token.text}`"
            if token.placed is None:
                if not index.find(token.parts, token.labels):
                    problem(token.line, claim, "declared nowhere in Sources/Router or Tests" + elsewhere(index, token))
                elif not token.heading:
                    # A claim no file places is one nobody checks: where it is declared could drift unseen.
                    problem(token.line, claim, "placed in no file: name the file that declares it before it"
                            + elsewhere(index, token))
                continue
            if not token.placed:
                continue  # its file is missing, reported above
            if index.find(token.parts, token.labels, token.placed):
                continue
            files = " or ".join(f"`{p}`" for p in token.placed)
            problem(
                token.line,
                claim,
                f"placed in {files} ({token.rule}), but not declared there" + elsewhere(index, token),
            )

    for p in problems:
        print(p)
    print(f"{files_checked} files and paths, {symbols_checked} symbols checked in {doc_name}; {len(problems)} problems")
    if problems:
        print("Each problem names the document's line and what it claims: rename the symbol, name the file that "
              "declares it before it (see the rules at the top of scripts/check-architecture.py), or fix the sentence.")
    return 1 if problems else 0


def elsewhere(index: Index, token: Token) -> str:
    """Where the symbol really is, or what is closest to it."""
    exact = index.find(token.parts, token.labels)
    if exact:
        return "; it is declared at " + ", ".join(d.where() for d in exact[:4])
    same_type = index.find(token.parts, None)
    if same_type:
        return "; the declarations of that name are " + ", ".join(f"{d.signature()} at {d.where()}" for d in same_type[:4])
    by_name = index.find(token.parts[-1:], None)
    if by_name:
        return f"; `{token.parts[-1]}` is declared at " + ", ".join(
            f"{d.signature()} at {d.where()}" for d in by_name[:4]
        )
    # Renamed? The closest names declared in the same type, or anywhere.
    import difflib

    owner = tuple(token.parts[:-1])
    candidates = {
        d.name: d
        for declarations in index.files.values()
        for d in declarations
        if not owner or d.owner[len(d.owner) - len(owner) :] == owner
    }
    close = difflib.get_close_matches(token.parts[-1], list(candidates), n=3, cutoff=0.6)
    hint = "; closest: " + ", ".join(f"{candidates[n].signature()} at {candidates[n].where()}" for n in close) if close else ""
    return f"; nothing is named `{token.parts[-1]}` in Sources/Router or Tests" + hint


if __name__ == "__main__":
    sys.exit(main())
