#!/usr/bin/env python3
"""Turns the ```swift blocks of README.md, CONTRIBUTING.md and every DocC article into one SwiftPM package
with one executable per document, and checks what those executables print.

    python3 scripts/doc-snippets.py generate PACKAGE_DIR   # writes the package
    python3 scripts/doc-snippets.py check PACKAGE_DIR      # runs each built executable, compares outputs

scripts/check-doc-snippets.sh runs both, with the build in between.

How a document becomes a program
- Every block whose fence reads exactly ```swift is compiled and run. Lines that start at column 0
  with a declaration (protocol, extension, class, struct, enum, actor, func, typealias, import, an
  attribute) are declarations: they go, with their braces, into the document's Declarations.swift
  (an identical declaration repeated in a later block is kept once). The rest of the block is its
  statements: they run in a function of their own, so each block starts afresh. A block without
  `await` is a `@MainActor` function called from main.swift's top level: it runs synchronously on the
  main thread, as app code on the main actor does. A block that awaits is a nonisolated async function,
  so it runs off the main thread, as a test or a background task does.
- A block that uses `registry` without declaring one gets a new, empty `RouteRegistry` named
  `registry`, passed first to the prelude's `setUp(_:)` when the prelude has one. The prelude may
  register what the article takes for granted (`.engine`, say); a block that registers nothing
  (no `registry.register…`, `seal`, `load` or `adapt`) gets that registry sealed, since it shows lookups
  only. A block that registers and then looks up must seal in the text, as real code must.
- The prelude, docs/snippets/<Document>.swift, holds what the article mentions but does not show
  (implementation classes, keys declared in another article). One file per document; none is needed.
  A line `// include: Name` in it brings in docs/snippets/shared/Name.swift, for what several share.
  A line `// default-isolation: MainActor` in it builds the document as an app target with
  `.defaultIsolation(MainActor.self)` is built: its executable gets that setting, and its compile-error
  blocks are type-checked with `-default-isolation MainActor`.
- A document whose blocks `import RouterTesting` (at column 0) gets that product as well, for the tools
  it offers that run outside a test (`verifyByMaking()`).
- Where the document shows output, a ```text block that follows a swift block with only blank lines
  between them, the block's printed output must equal it exactly. A block that throws fails the check.

Blocks that are not compiled, and why each kind cannot be
- ```swift manifest: a Package.swift manifest. It is not program code; it is built by SwiftPM
  against PackageDescription, which no executable can import.
- ```swift other-library: the code of the library a guide migrates from (Swinject), shown next to
  its Router form; it needs that library, which this package does not depend on.
- ```swift test: a Swift Testing test (`@Test`, `#expect`), which compiles only in a test target,
  where `swift test` runs it; the package's own tests hold the same test.
- ```swift compile-error: code shown because it must NOT compile (a lookup by an undeclared key).
  Compiling it would fail the build by design; the article quotes the compiler's diagnostic in a
  ```text block after it, and the check type-checks the block against the built Router module and
  requires that quoted text among the diagnostics (see check-compile-errors).
- ```swift quote PATH: code quoted from a file of this repository that another package compiles and
  tests (the Hummingbird example's lifecycle, Examples/HummingbirdServer, which needs Hummingbird and
  swift-service-lifecycle). It is not compiled here; `generate` fails unless the block's lines are, verbatim
  and in order (an indentation common to them aside), consecutive lines of PATH (relative to the
  repository's root), so the article shows the code CI builds and runs, and says which file it is.
Any other word after `swift` is an error, so a block cannot be skipped by accident.
"""

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCC = ROOT / "Sources/Router/Router.docc"
PRELUDES = ROOT / "docs/snippets"


def read_prelude(path):
    """A document's prelude with each `// include: Name` line replaced by docs/snippets/shared/Name.swift
    (without its imports), so that declarations several articles take for granted are written once; None
    when the document has no prelude."""
    if not path.exists():
        return None
    lines = []
    for line in path.read_text().splitlines(keepends=True):
        match = re.fullmatch(r"// include: (\w+)\n?", line)
        if not match:
            lines.append(line)
            continue
        shared = PRELUDES / "shared" / f"{match.group(1)}.swift"
        if not shared.exists():
            raise SystemExit(f"{path}: no {shared} to include")
        lines += [text for text in shared.read_text().splitlines(keepends=True) if not text.startswith("import ")]
    return "".join(lines)
MARKER = "\u0001snippet "
SWIFT_MARKER = "\\u{1}snippet "
DECLARATION = re.compile(
    r"^(@|(public |private |fileprivate |internal |nonisolated |final |indirect )*"
    r"(protocol|extension|class|struct|enum|actor|func|typealias|import)\b)"
)
REGISTERS = re.compile(r"\bregistry\.(register|registerAsync|seal|load|adapt)\b")
DECLARES_REGISTRY = re.compile(r"\b(let|var)\s+registry\b|\bregistry\s+in\b|\(registry\b|in registry:")


def documents():
    yield ROOT / "README.md"
    yield ROOT / "CONTRIBUTING.md"
    yield from sorted(DOCC.glob("*.md"))


DEFAULT_ISOLATION = re.compile(r"^// default-isolation: MainActor$", re.MULTILINE)


def declared_names(declaration):
    """What a declaration names: a type's or function's name, or the static members an extension adds."""
    header, _, body = declaration.partition("{")
    if re.search(r"^(@\w+\s+)*(\w+ )*extension\b", header.strip()):
        return set(re.findall(r"\bstatic\s+(?:var|let|func)\s+(\w+)", body))
    match = re.search(r"\b(?:protocol|class|struct|enum|actor|typealias|func)\s+(\w+)", header)
    return {match.group(1)} if match else set()


def target_name(document):
    return "Snippets" + re.sub(r"[^A-Za-z0-9]", "", document.stem)


class Block:
    def __init__(self, document, line, info, lines):
        self.document, self.line, self.info, self.lines = document, line, info, lines
        self.output = None  # the text block shown right after it, if any

    @property
    def where(self):
        return f"{self.document.relative_to(ROOT)}:{self.line}"


def blocks(document):
    """Every fenced block, with its info string, de-indented (README's list items indent theirs)."""
    found, lines, i = [], document.read_text().split("\n"), 0
    while i < len(lines):
        match = re.match(r"^( *)```(.*)$", lines[i])
        if not match:
            i += 1
            continue
        indent, info, start, body = len(match.group(1)), match.group(2).strip(), i + 1, []
        i += 1
        while i < len(lines) and lines[i].strip() != "```":
            body.append(lines[i][indent:] if lines[i][:indent].strip() == "" else lines[i])
            i += 1
        found.append((Block(document, start, info, body), i))
        i += 1
    result = []
    for index, (block, end) in enumerate(found):
        if index + 1 < len(found):
            following, _ = found[index + 1]
            between = lines[end + 1 : following.line - 1]
            if following.info == "text" and all(not line.strip() for line in between):
                block.output = following.lines
        result.append(block)
    return result


def split(block):
    """Declarations (column 0, with their braces) and statements."""
    declarations, statements, current, depth = [], [], None, 0
    for line in block.lines:
        if current is None and DECLARATION.match(line):
            current, depth = [], 0
        if current is not None:
            current.append(line)
            code = re.sub(r'"(\\.|[^"\\])*"', '""', line.split("//")[0])
            depth += code.count("{") - code.count("}")
            attribute_only = re.match(r"^@\w+(\(.*\))?\s*$", line)
            if depth <= 0 and not attribute_only:
                declarations.append("\n".join(current))
                current = None
        else:
            statements.append(line)
    if current is not None:
        raise SystemExit(f"{block.where}: a declaration's braces do not close")
    return declarations, statements


QUOTE = re.compile(r"^swift quote (\S+)$")


def check_quote(block, path):
    """Fails unless the block's lines are consecutive lines of the file at `path` (from the root), the same
    but for an indentation common to all of them (a quote of a function's body may start at column 0)."""
    source = ROOT / path
    if not source.is_file():
        raise SystemExit(f"{block.where}: quotes {path}, which is not a file of this repository")
    lines, quoted = source.read_text().split("\n"), block.lines
    if not "".join(quoted).strip():
        raise SystemExit(f"{block.where}: an empty quote of {path}")
    wanted = textwrap.dedent("\n".join(quoted))
    for start in range(len(lines) - len(quoted) + 1):
        if textwrap.dedent("\n".join(lines[start : start + len(quoted)])) == wanted:
            return
    # Where it differs: the longest run of the quote's lines (indentation aside) found in the file.
    best = (0, None)
    for start in range(len(lines)):
        matched = 0
        while (matched < len(quoted) and start + matched < len(lines)
               and lines[start + matched].strip() == quoted[matched].strip()):
            matched += 1
        if matched > best[0]:
            best = (matched, start + matched)
    matched, at = best
    if at is None:
        raise SystemExit(f"{block.where}: the quote's first line is not a line of {path}:\n  {quoted[0]}")
    found = lines[at] if at < len(lines) else "(the end of the file)"
    shown = quoted[matched] if matched < len(quoted) else "(the quote's indentation differs)"
    raise SystemExit(
        f"{block.where}: the quote differs from {path} at its line {matched + 1} ({path}:{at + 1}):\n"
        f"  quoted: {shown}\n  file:   {found}"
    )


def generate(package):
    package.mkdir(parents=True, exist_ok=True)
    identity = ROOT.name  # a path dependency's identity is its folder's last path component
    targets, must_fail, main_actor_targets, testing_targets = [], [], set(), set()
    (package / "CompileErrors").mkdir(parents=True, exist_ok=True)
    for document in documents():
        compiled, failing = [], []
        for block in blocks(document):
            if block.info == "swift":
                compiled.append(block)
            elif block.info == "swift compile-error":
                if block.output is None:
                    raise SystemExit(f"{block.where}: a compile-error block needs the diagnostic in a text block after it")
                source = package / "CompileErrors" / f"{target_name(document)}_{len(must_fail) + 1}.swift"
                must_fail.append({"where": block.where, "source": str(source), "diagnostic": block.output, "flags": []})
                failing.append((block, source))
            elif QUOTE.match(block.info):
                check_quote(block, QUOTE.match(block.info).group(1))
            elif block.info.startswith("swift") and block.info not in ("swift manifest", "swift other-library", "swift test", "swift compile-error"):
                raise SystemExit(f"{block.where}: unknown fence ```{block.info} (see scripts/doc-snippets.py)")
        prelude_text = read_prelude(PRELUDES / f"{document.stem}.swift")
        main_actor = prelude_text is not None and DEFAULT_ISOLATION.search(prelude_text) is not None
        if main_actor:
            main_actor_targets.add(target_name(document))
            for entry in must_fail[len(must_fail) - len(failing):]:
                entry["flags"] = ["-default-isolation", "MainActor"]
        shared = [d for b in compiled for d in split(b)[0]]
        for block, source in failing:
            # The block with everything its article declares, so that only its own mistake fails. A block
            # may redeclare, written wrong, what a compiled block declares right: its own declaration wins.
            decls, statements = split(block)
            own = set().union(*(declared_names(d) for d in decls))
            kept = [d for d in shared if not declared_names(d) & own]
            source.write_text(
                "import Router\n\n" + (prelude_text or "") + "\n"
                + "\n\n".join(dict.fromkeys(kept + decls))
                + "\n\n@MainActor func compileError(registry: RouteRegistry) throws {\n"
                + "\n".join("    " + line for line in statements) + "\n}\n"
            )
        if not compiled:
            continue
        name = target_name(document)
        folder = package / "Sources" / name
        folder.mkdir(parents=True, exist_ok=True)
        has_set_up = prelude_text is not None and "func setUp(" in prelude_text
        (folder / "Prelude.swift").write_text(
            prelude_text if prelude_text is not None else "// No prelude: the article declares all it uses.\n"
        )
        declarations, main, calls = [], ["import Router", ""], []
        for number, block in enumerate(compiled, 1):
            decls, statements = split(block)
            for decl in decls:
                if decl not in declarations:
                    declarations.append(decl)
            body = "\n".join(statements)
            setup = []
            if re.search(r"\bregistry\b", body) and not DECLARES_REGISTRY.search(body):
                setup.append("let registry = RouteRegistry()")
                if has_set_up:
                    setup.append("try setUp(registry)")
                if not REGISTERS.search(body):
                    setup.append("try registry.seal()")
            main += [
                f"// {block.where}",
                ("nonisolated func snippet%d() async throws {" if re.search(r"\bawait\b", body)
                 else "@MainActor func snippet%d() throws {")
                % number,
                *["    " + line for line in setup],
                *[("    " + line).rstrip() for line in statements],
                "}",
                "",
            ]
            calls += [
                f'    print("{SWIFT_MARKER}{number}")',
                ("    do { try await snippet%d() } catch {" if re.search(r"\bawait\b", body)
                 else "    do { try snippet%d() } catch {") % number,
                f'        print("{SWIFT_MARKER}{number} threw: \\(error)")',
                "        failures += 1",
                "    }",
            ]
        imports = sorted({d for d in declarations if d.startswith("import ")} - {"import Router"})
        main[main.index("import Router") + 1 : main.index("import Router") + 1] = imports
        # The blocks run in a main-actor task while the main thread runs its run loop, as in an app: main-actor
        # code then runs on the main thread. (An async top level would not do on Linux, where the main queue
        # that serves the main actor is drained by another thread.)
        main += [
            "Task { @MainActor in",
            "    var failures = 0",
            *calls,
            '    print("' + SWIFT_MARKER + 'end")',
            "    exit(failures > 0 ? 1 : 0)",
            "}",
            "RunLoop.main.run()",
        ]
        main.insert(0, "import Foundation")
        (folder / "main.swift").write_text("\n".join(main) + "\n")
        (folder / "Declarations.swift").write_text(
            "import Router\n\n" + "\n\n".join(declarations) + "\n"
        )
        (folder / "blocks.json").write_text(
            json.dumps([{"where": b.where, "output": b.output} for b in compiled], indent=1)
        )
        targets.append(name)
        if "import RouterTesting" in imports:
            testing_targets.add(name)
    features = ", ".join(
        f'.enableUpcomingFeature("{f}")' for f in ("ExistentialAny", "MemberImportVisibility", "InferIsolatedConformances")
    )
    manifest = [
        "// swift-tools-version: 6.2",
        "// Generated by scripts/doc-snippets.py: one executable per document with swift blocks.",
        "import PackageDescription",
        "",
        "let package = Package(",
        '    name: "DocSnippets",',
        '    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],',
        f'    dependencies: [.package(path: "{ROOT}")],',
        "    targets: [",
        *[
            f'        .executableTarget(name: "{t}", dependencies: [.product(name: "Router", package: "{identity}")'
            + (f', .product(name: "RouterTesting", package: "{identity}")' if t in testing_targets else "")
            + "], "
            f'exclude: ["blocks.json"], swiftSettings: [{features}'
            + (", .defaultIsolation(MainActor.self)" if t in main_actor_targets else "") + "]),"
            for t in targets
        ],
        "    ],",
        "    swiftLanguageModes: [.v6]",
        ")",
    ]
    (package / "Package.swift").write_text("\n".join(manifest) + "\n")
    (package / "targets.txt").write_text("\n".join(targets) + "\n")
    (package / "compile-errors.json").write_text(json.dumps(must_fail, indent=1))


def check_compile_errors(package, binaries):
    """Each compile-error block must still fail to compile, with the diagnostic its article quotes."""
    failed = 0
    for block in json.loads((package / "compile-errors.json").read_text()):
        run = subprocess.run(
            ["swiftc", "-typecheck", "-swift-version", "6", *block.get("flags", []),
             "-I", str(Path(binaries).resolve() / "Modules"), block["source"]],
            capture_output=True, text=True, timeout=300,
        )
        quoted = "\n".join(block["diagnostic"]).strip()
        if run.returncode == 0:
            print(f"{block['where']}: the block compiles, but the article says it does not")
            failed += 1
        elif quoted not in run.stderr:
            errors = sorted({l.strip() for l in run.stderr.splitlines() if "error:" in l})
            print(f"{block['where']}: the compiler no longer says what the article quotes.")
            print("  quoted:\n    " + quoted + "\n  compiler:\n" + "\n".join("    " + e for e in errors))
            failed += 1
        else:
            print(f"{block['where']}: fails to compile, as the article says")
    return failed


def check(package, binaries):
    failed = 0
    for name in (package / "targets.txt").read_text().split():
        expected = json.loads((package / "Sources" / name / "blocks.json").read_text())
        run = subprocess.run(
            [str(Path(binaries).resolve() / name)], capture_output=True, text=True, timeout=120, cwd=package
        )  # in the temporary package, so that files a snippet writes go away with it
        chunks = run.stdout.split(MARKER)
        outputs, threw = {}, []
        for chunk in chunks[1:]:
            head, _, rest = chunk.partition("\n")
            if head == "end":
                continue
            number, _, error = head.partition(" threw: ")
            if error:
                threw.append((int(number), error + ("\n" + rest if rest.strip() else "")))
                continue
            outputs[int(number)] = rest
        if "end" not in [c.partition("\n")[0] for c in chunks[1:]]:
            print(f"{name}: stopped early (status {run.returncode})\n{run.stdout[-2000:]}\n{run.stderr[-2000:]}")
            failed += 1
            continue
        for number, error in threw:
            print(f"{expected[number - 1]['where']}: the block threw: {error.rstrip()}")
            failed += 1
        for number, block in enumerate(expected, 1):
            if block["output"] is None or any(n == number for n, _ in threw):
                continue
            shown = "\n".join(block["output"]).rstrip("\n")
            printed = outputs.get(number, "").rstrip("\n")
            if shown != printed:
                print(f"{block['where']}: the output shown after the block is not what it prints.")
                print("  shown:\n" + "\n".join("    " + l for l in shown.split("\n")))
                print("  printed:\n" + "\n".join("    " + l for l in printed.split("\n")))
                failed += 1
        print(f"{name}: {len(expected)} blocks run" + ("" if not failed else ""))
    return failed


if __name__ == "__main__":
    command, package = sys.argv[1], Path(sys.argv[2])
    if command == "generate":
        generate(package)
    elif command == "check":
        failed = check(package, sys.argv[3]) + check_compile_errors(package, sys.argv[3])
        sys.exit(1 if failed else 0)
    else:
        raise SystemExit(__doc__)
