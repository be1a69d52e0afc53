"""A rough index of the declarations in Swift files, enough to check what ARCHITECTURE.md says about them.

It is not a parser: comments and string literals are blanked, braces are matched, and a brace is a type's
body when a `class`, `struct`, `enum`, `protocol`, `actor` or `extension` header opens it. A declaration
counts when every brace around it is a type's body (a local `let` in a function does not); its owner is
the path of those types (`extension ResolutionGraph.Recorded` gives ResolutionGraph.Recorded, a `struct
Recorded` inside `class ResolutionGraph` gives the same). Functions, initializers and subscripts keep
their argument labels.
"""

from __future__ import annotations

import pathlib
import re
from dataclasses import dataclass

KEYWORDS = {
    "func", "var", "let", "case", "init", "subscript", "typealias", "associatedtype", "class", "struct",
    "enum", "protocol", "actor", "extension", "static", "final", "where", "in", "is", "as", "some", "any",
}
TYPE_KINDS = {"class", "struct", "enum", "protocol", "actor", "extension"}


@dataclass(frozen=True)
class Declaration:
    kind: str  # func, var, let, case, init, subscript, typealias, associatedtype, class, struct, ...
    name: str
    owner: tuple[str, ...]  # the enclosing types, outermost first; () at file level
    labels: tuple[str, ...] | None  # argument labels of a func, init or subscript
    required: tuple[str, ...] | None  # the labels of the parameters without a default value
    path: pathlib.Path
    line: int

    def where(self) -> str:
        inside = f" (inside {'.'.join(self.owner)})" if self.owner else " (at file level)"
        return f"{self.path}:{self.line}{inside}"

    def signature(self) -> str:
        name = ".".join(self.owner + (self.name,))
        if self.labels is None:
            return name
        return f"{name}({''.join(label + ':' for label in self.labels)})"


def blank_comments_and_strings(text: str) -> str:
    """The text with comments and the contents of string literals replaced by spaces (newlines kept)."""
    out = list(text)
    i, n = 0, len(text)

    def blank(start: int, end: int) -> None:
        for k in range(start, end):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        if text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            blank(i, end)
            i = end
        elif text.startswith("/*", i):
            depth, k = 1, i + 2
            while k < n and depth:
                if text.startswith("/*", k):
                    depth, k = depth + 1, k + 2
                elif text.startswith("*/", k):
                    depth, k = depth - 1, k + 2
                else:
                    k += 1
            blank(i, k)
            i = k
        elif text[i] == '"' or (text[i] == "#" and re.match(r'#+"', text[i:])):
            hashes = len(re.match(r"#*", text[i:]).group(0))
            start = i + hashes
            multiline = text.startswith('"""', start)
            quote = '"""' if multiline else '"'
            close = quote + "#" * hashes
            k = start + len(quote)
            while k < n:
                if hashes == 0 and text[k] == "\\":
                    k += 2
                    continue
                if text.startswith(close, k):
                    break
                if not multiline and text[k] == "\n":
                    break
                k += 1
            blank(start + len(quote), k)
            i = k + len(close)
        else:
            i += 1
    return "".join(out)


def matching_close(text: str, open_index: int, opener: str, closer: str) -> int:
    depth = 0
    for k in range(open_index, len(text)):
        if text[k] == opener:
            depth += 1
        elif text[k] == closer:
            depth -= 1
            if depth == 0:
                return k
    return len(text)


def split_top_level(text: str) -> list[str]:
    parts, depth, start = [], 0, 0
    text = text.replace("->", "  ")
    for k, c in enumerate(text):
        if c in "([{<":
            depth += 1
        elif c in ")]}>":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(text[start:k])
            start = k + 1
    parts.append(text[start:])
    return [p for p in parts if p.strip()]


def labels_of(parameters: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """All the argument labels, and those of the parameters a call must pass (no default value)."""
    labels, required = [], []
    for parameter in split_top_level(parameters):
        head, _, rest = parameter.partition(":")
        words = head.split()
        label = words[0].strip("`") if words else "_"
        labels.append(label)
        if "=" not in rest.replace("==", ""):
            required.append(label)
    return tuple(labels), tuple(required)


TYPE_HEADER = re.compile(r"\b(class|struct|enum|protocol|actor|extension)\s+([A-Za-z_][\w.]*)")
DECLARATION = re.compile(
    r"\b(func|var|let|case|typealias|associatedtype|class|struct|enum|protocol|actor)\s+`?([A-Za-z_]\w*)`?"
    r"|\b(init|subscript)\s*[?!]?\s*(?=[<(])"
)


def index_file(path: pathlib.Path) -> list[Declaration]:
    text = blank_comments_and_strings(path.read_text())
    line_starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def line_of(offset: int) -> int:
        lo, hi = 0, len(line_starts)
        while lo + 1 < hi:
            mid = (lo + hi) // 2
            lo, hi = (mid, hi) if line_starts[mid] <= offset else (lo, mid)
        return lo + 1

    # Which `{` open a type's body, and the type's path relative to its enclosing type.
    bodies: dict[int, tuple[str, ...]] = {}
    for m in TYPE_HEADER.finditer(text):
        name = m.group(2)
        if name in KEYWORDS:  # `class func`, `class var`
            continue
        brace = m.end()
        while brace < len(text) and text[brace] not in "{;}":
            brace += 1
        if brace < len(text) and text[brace] == "{":
            bodies[brace] = tuple(name.split("."))

    # Walk the braces; a declaration's enclosing braces decide whether it counts and its owner.
    events = sorted(
        [(k, "brace") for k, c in enumerate(text) if c in "{}"]
        + [(m.start(), m) for m in DECLARATION.finditer(text)],
        key=lambda e: e[0],
    )
    stack: list[tuple[str, ...] | None] = []  # a type's path for a type body, None for any other brace
    declarations = []
    for offset, event in events:
        if event == "brace":
            if text[offset] == "{":
                stack.append(bodies.get(offset))
            elif stack:
                stack.pop()
            continue
        if any(frame is None for frame in stack):
            continue
        owner = tuple(part for frame in stack for part in frame)  # type: ignore[union-attr]
        m = event
        if m.group(3):  # init or subscript
            kind = name = m.group(3)
        else:
            kind, name = m.group(1), m.group(2)
            if name in KEYWORDS and kind != "case":
                continue
        labels = required = None
        if kind in {"func", "init", "subscript"}:
            k = m.end()
            while k < len(text) and text[k] in " ?!":
                k += 1
            if k < len(text) and text[k] == "<":
                k = matching_close(text, k, "<", ">") + 1
            while k < len(text) and text[k] == " ":
                k += 1
            if k < len(text) and text[k] == "(":
                labels, required = labels_of(text[k + 1 : matching_close(text, k, "(", ")")])
        if kind == "case":
            # `case a, b(x: Int), c`: every name of the list.
            end = m.start()
            line_end = text.find("\n", end)
            rest = text[m.end() - len(name) : line_end if line_end >= 0 else len(text)]
            for part in split_top_level(rest):
                item = re.match(r"\s*`?([A-Za-z_]\w*)`?", part)
                if item:
                    declarations.append(Declaration("case", item.group(1), owner, None, None, path, line_of(offset)))
            continue
        declarations.append(Declaration(kind, name, owner, labels, required, path, line_of(offset)))
    return declarations


class Index:
    def __init__(self, roots: list[pathlib.Path]):
        self.files: dict[pathlib.Path, list[Declaration]] = {}
        for root in roots:
            for path in sorted(root.rglob("*.swift")):
                self.files[path] = index_file(path)

    def find(
        self, components: list[str], labels: tuple[str, ...] | None, paths: list[pathlib.Path] | None = None
    ) -> list[Declaration]:
        """Declarations of components[-1] inside the type path components[:-1] (any enclosing path that
        ends with it), with the given labels when labels is not None."""
        *type_path, name = components
        found = []
        for path in paths if paths is not None else self.files:
            for d in self.files.get(path, []):
                if d.name != name:
                    continue
                if type_path and d.owner[len(d.owner) - len(type_path) :] != tuple(type_path):
                    continue
                if type_path and len(d.owner) < len(type_path):
                    continue
                if labels is not None and labels not in (d.labels, d.required):
                    continue
                found.append(d)
        return found
