#!/usr/bin/env python3
"""Mutation check of the creation protocol's explorer.

Each mutation below breaks one rule of `Sources/Router/Resolution/CreationMachine.swift` (a lost wake-up,
an early publication, a failure path that publishes what is not prepared, a missing merge, a missing
rollback), or of the shared cell's life in `Sources/Router/Resolution/CreationCell.swift` (a
release that loses a published instance's teardown, a publication that does not see its generation was
released, both sides tearing down), which the explorer drives as the engine's own `SharedCell`, or of the
create-shared client in `Sources/Router/Resolution/SharedCreation.swift` (a build published before what it
reached is prepared, a failure that keeps what was held inside it), whose steps the explorer's lookups take. For each, one at a time, the explorer (`Tests/CreationExplorerTests`) runs against the mutated
machine and must fail: a mutation it does not notice is a rule nothing checks.

The working tree is never modified: the script keeps a copy of the package reduced to `Router` and the
explorer in `.build-mutants/package` (files rewritten only when their text changed, so that each mutation
rebuilds only what it touched), writes each mutant there, builds it and runs the explorer's tests.

A mutation is applied by exact text match: its anchor must occur exactly once in its file (the machine's
source unless the mutation names another), or the script stops before building anything (a mutation whose text moved must be updated, not skipped).

    bash scripts/mutate-creation-machine.sh          # every mutation
    bash scripts/mutate-creation-machine.sh NAME...  # only these
    bash scripts/mutate-creation-machine.sh --list   # the mutations and what each breaks
    bash scripts/mutate-creation-machine.sh --all-scenarios [NAME...]
                                                     # every scenario runs to its end, to name all that
                                                     # kill each mutation (slower)
    bash scripts/mutate-creation-machine.sh --unmutated-passed LOG [NAME...]
                                                     # the unmutated machine's run is LOG, a `swift test`
                                                     # of this same tree (what .ci/run does)

By default the explorer is told (ROUTER_EXPLORER_STOP_AT_FIRST_VIOLATION) to stop its other scenarios once
one found a violation, since only whether the mutant fails matters; the unmutated run explores them all.

A kill means something only if the explorer passes on the unmutated machine, so that runs first. With
--unmutated-passed LOG it is not run again: LOG is the output of a `swift test` of this same tree in which
the explorer's suite passed (.ci/run's, minutes before), and the copy's explorer and machine are that run's
files byte for byte (the copy's manifest only leaves the other targets out), and the explorer is
deterministic: it tries every schedule in a fixed order, one simulated lookup running at a time. The script
refuses a LOG older than any file the copy takes, or one in which the suite did not pass.

A mutant that crashes the explorer counts as killed; one that makes it run longer than
ROUTER_MUTANT_TIMEOUT seconds (default 600) too, and the test process is ended.

Exits 0 when every mutation was killed, 1 when one survived (named), 2 on a setup error.
"""

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MACHINE = Path("Sources/Router/Resolution/CreationMachine.swift")
# The shared cell's life (`SharedCell`'s publish and release), which the explorer drives too.
CELL = Path("Sources/Router/Resolution/CreationCell.swift")
# The create-shared client (`SharedCreation`), whose steps the explorer's simulated lookups take.
CLIENT = Path("Sources/Router/Resolution/SharedCreation.swift")
WORK = ROOT / ".build-mutants"
PACKAGE = WORK / "package"
SCRATCH = WORK / "scratch"
# A mutant that makes the explorer loop forever counts as killed, after this long.
TIMEOUT = int(os.environ.get("ROUTER_MUTANT_TIMEOUT", "600"))

# (name, what it breaks, anchor, replacement[, file]): the file is the machine's unless named. Each anchor
# is short and distinctive, and occurs exactly once in its file.
MUTATIONS = [
    # Lost wake-ups: an event ends a wait but does not say so, so the waiter is never woken.
    (
        "lost-wake-on-held-by-async",
        "an instance becoming held by a group with an async member does not wake the blocked waiters, which "
        + "must look again to be refused",
        "                stopWaiting(other)\n                wake(other)\n            }\n        }\n    }\n\n    /// Changes `txn`'s record",
        "                stopWaiting(other)\n            }\n        }\n    }\n\n    /// Changes `txn`'s record",
    ),
    (
        "lost-wake-on-release",
        "releasing a cell (publication, abandonment, a group's end) ends its waits without a wake-up",
        "            update(txn) { $0.waitingFor = nil }\n            wake(txn)\n",
        "            update(txn) { $0.waitingFor = nil }\n",
    ),
    (
        "lost-wake-on-provisional",
        "a provisional instance ends group-mates' waits without a wake-up",
        "where txns[other]?.group == group {\n            stopWaiting(other)\n            wake(other)\n",
        "where txns[other]?.group == group {\n            stopWaiting(other)\n",
    ),
    (
        "lost-wake-on-merge",
        "a merge ends its members' waits without a wake-up",
        "        for member in ended { wake(member) }\n",
        "",
    ),
    (
        "lost-wake-on-group-failure",
        "a merged group's failure ends its members' waits without a wake-up (at the lookup's end and at a "
        + "failed build's dropGroup, which fails the group first)",
        (
            "                        stopWaiting(member)\n                        wake(member)\n",
            "for member in group.members {\n                    stopWaiting(member)\n                    wake(member)\n",
        ),
        (
            "                        stopWaiting(member)\n",
            "for member in group.members {\n                    stopWaiting(member)\n",
        ),
    ),
    (
        "lost-wake-on-group-end",
        "a group's end (members waiting in commit) without a wake-up",
        "                wake(member)\n            } else {",
        "            } else {",
    ),
    # Early publication: an instance is published before its group commits or before it is prepared.
    (
        "early-publish-before-drain",
        "finish publishes at once an instance that waits for the lookup's drain",
        "if queuedAfter != nil || handTo != nil || group.members.count > 1 {",
        "if handTo != nil || group.members.count > 1 {",
    ),
    (
        "early-publish-held-in-group",
        "publishHeld publishes a member's held instances before its group commits",
        "group.members.count == 1 else { return [] }",
        "group.members.count >= 1 else { return [] }",
    ),
    # Failure paths that publish what is not prepared, or publish what a failed group built.
    (
        "rollback-publishes-unprepared",
        "a failed lookup publishes held instances whose preparations never ran",
        "if item.queuedAfter <= completed[item.drain, default: 0] && item.handTo == nil {",
        "if item.queuedAfter >= 0 && item.handTo == nil {",
    ),
    (
        "nested-failure-publishes-unprepared",
        "a failed nested lookup publishes held instances whose preparations never ran (settleHeld; and "
        + "dropGroup, which forgets first what was built inside the failed build, forgets nothing)",
        (
            "if item.queuedAfter <= completed && item.handTo == nil {",
            "if item.drain == drain, item.handTo == nil, item.order >= order {\n                dropped.append",
        ),
        (
            "if item.queuedAfter >= 0 && item.handTo == nil {",
            "if item.drain == drain, item.handTo == nil, item.order >= order, item.queuedAfter < 0 {\n"
            + "                dropped.append",
        ),
    ),
    # A nested lookup that publishes what it built around an outer lookup's unpublished instance.
    (
        "nested-publishes-handed",
        "a nested lookup's end publishes what waits for the outermost lookup's end instead of handing it on",
        "if item.drain == drain, let outer = item.handTo {",
        "if item.drain == drain, let outer = item.handTo, item.queuedAfter < 0 {",
    ),
    (
        "finish-drops-hand-over",
        "finish forgets that an instance waits for the outermost lookup's end",
        "drain: drain, handTo: handTo,\n",
        "drain: drain, handTo: nil,\n",
    ),
    # A complete group not published at once: the lookup's end (or its failure) decides instead.
    (
        "complete-group-held-to-the-end",
        "a group whose factories and preparations are done is not published when it completes (publishGroup "
        + "publishes nothing): what was built inside it waits for the lookup's end, so a lookup failing "
        + "afterwards splits it, and one suspending afterwards holds it",
        "if item.drain == drain, item.handTo == nil, item.order >= order {\n                published.append",
        "if item.drain == drain, item.handTo == nil, item.order >= order, item.queuedAfter < 0 {\n"
        + "                published.append",
    ),
    (
        "failed-build-keeps-inner-held",
        "a failed build leaves held what was built inside it (dropGroup forgets nothing): a lookup that goes "
        + "on publishes it at its end, pointing at the forgotten instance",
        "if item.drain == drain, item.handTo == nil, item.order >= order {\n                dropped.append",
        "if item.drain == drain, item.handTo == nil, item.order >= order, item.queuedAfter < 0 {\n                dropped.append",
    ),

    (
        "failed-group-publishes-held",
        "a failing member publishes what its group held instead of forgetting it (and a failed build's "
        + "dropGroup, which fails the merged group first, leaves it held)",
        (
            "                    for item in txns[member]?.held ?? [] {\n                        discard.append(item.payload)",
            "            for member in group.members {\n                for item in txns[member]?.held ?? [] {\n"
            + "                    dropped.append(item.payload)\n                    release(item.cell)\n"
            + "                }\n                txns[member]?.held = []\n            }\n            return dropped",
        ),
        (
            "                    for item in txns[member]?.held ?? [] {\n                        publish.append(item.payload)",
            "            return dropped",
        ),
    ),
    (
        "finish-in-failed-group-publishes",
        "an instance finished in a failed group is published",
        "            return .discard(payload)\n",
        "            return .publish(payload)\n",
    ),
    (
        "failed-group-loses-held",
        "a failing member drops what its group held without having it forgotten (a stale provisional), at "
        + "the lookup's end and at a failed build's dropGroup",
        (
            "                        discard.append(item.payload)\n                        release(item.cell)",
            "                    dropped.append(item.payload)\n                    release(item.cell)\n                }\n"
            + "                txns[member]?.held = []",
        ),
        (
            "                        release(item.cell)",
            "                    release(item.cell)\n                }\n                txns[member]?.held = []",
        ),
    ),
    # A missing merge: a cycle of waits across groups is waited on instead of merged.
    (
        "missing-merge",
        "a claim that closes a cycle of waits waits instead of merging the groups",
        "                merge(chain + [mine.group])\n                continue\n",
        "",
    ),
    # Missing rollbacks: a failure leaves a cell owned, or a group's failure unseen. Not listed, because no
    # use of the machine tells them from the original: dropping `releaseOwned` when a member fails or a
    # group ends (every build the binding starts ends in `finish` or `abandon`), or dropping the release
    # of what a lone lookup's rollback held (its group's end releases what it owns); publishing at a
    # failed group's end (a failure forgets what the group held, and nothing is held after it); a claim
    # that ignores its group's failure (the lookup then fails at its commit instead); a failed nested
    # lookup that publishes what waited for the outermost lookup's end (`settleHeld`'s `handTo` check: in
    # the explorer's scenarios such an instance always waits for a preparation the failed drain did not
    # complete, so it is forgotten either way); and a merged group's member that publishes at once what it
    # finished (`finish` without its `group.members.count > 1` hold): since a claim that returns a
    # group-mate's unpublished instance marks the build around it unfinished (held, `queuedAfter`), what a
    # member would publish early reaches nothing unprepared, and the group's hold is a second line of defence
    # the explorer cannot tell from the first.
    (
        "abandon-keeps-cell",
        "abandoning a build (its factory or preparation failed) keeps the cell owned (seen by a group-mate's "
        + "claim, which a failed build's dropGroup would otherwise refuse first by failing the group at once)",
        (
            "        guard cells[cell]?.owner == txn else { return }\n        release(cell)\n",
            "\n                group.failure = failure\n                groups[mine.group] = group\n",
        ),
        (
            "        guard cells[cell]?.owner == txn else { return }\n",
            "\n                groups[mine.group] = group\n",
        ),
    ),
    (
        "group-failure-unrecorded",
        "a member's failure is not recorded on its group: the others commit what it built (at the lookup's "
        + "end and at a failed build's dropGroup)",
        (
            "                    group.failure = failure\n",
            "\n                group.failure = failure\n                groups[mine.group] = group\n",
        ),
        ("", "\n                groups[mine.group] = group\n"),
    ),
    (
        "release-loses-published-teardown",
        "a release that finds the instance published does not hand it to its caller: nobody tears it down",
        "            if exchanged { return state == SharedCellLife.published ? value : nil }\n",
        "            if exchanged { return nil }\n",
        CELL,
    ),
    (
        "publish-ignores-release",
        "a publication does not see that its generation was released: the instance is kept by nobody and never torn down",
        "        while state & 3 == 0 {\n",
        "        while state & 3 == 0 || state & 3 == SharedCellLife.released {\n",
        CELL,
    ),
    (
        "rejected-publication-serves",
        "a publication that found its cell released tears its instance down and still serves it: both sides tear it down",
        "        // Released before: only this owner moves it on from there.\n        life.store(SharedCellLife.rejected, ordering: .relaxed)\n",
        "        // Released before: only this owner moves it on from there.\n        life.store(SharedCellLife.published, ordering: .relaxed)\n",
        CELL,
    ),
    (
        "release-twice",
        "a release does not move the cell on: a second release (a reset during shutdown) tears the instance down again",
        "expected: state, desired: desired, successOrdering: .acquiring,",
        "expected: state, desired: state, successOrdering: .acquiring,",
        CELL,
    ),
]
# The uncontended claim on the cell's state word, explored by SharedCellWordExplorerTests on the real cell.
MUTATIONS += [
    (
        "uncontended-publish-over-release",
        "the owner of an uncontended claim publishes over a release: the instance is served after its generation "
        + "closed, and nobody tears it down",
        "        guard found == owner | SharedCellLife.released else { return .inMachine }\n"
        + "        life.store(SharedCellLife.rejected, ordering: .relaxed)\n",
        "        guard found == owner | SharedCellLife.released else { return .inMachine }\n"
        + "        life.store(SharedCellLife.published, ordering: .relaxed)\n",
        CELL,
    ),
    (
        "bring-in-leaves-word-claimed",
        "bringing an uncontended claim into the machine leaves the owner's address on the word: the owner's "
        + "exchange still succeeds, and the waiters the machine recorded are never woken",
        "                expected: state, desired: (state & SharedCellLife.released) | SharedCellLife.inMachine,\n",
        "                expected: state, desired: state,\n",
        CELL,
    ),
    (
        "uncontended-claim-of-taken-cell",
        "an uncontended claim succeeds on a cell that is not free (released, or built by another lookup)",
        "            expected: SharedCellLife.free, desired: owner, successOrdering: .acquiringAndReleasing,\n",
        "            expected: life.load(ordering: .relaxed), desired: owner, successOrdering: .acquiringAndReleasing,\n",
        CELL,
    ),
    (
        "enter-machine-ignores-claim",
        "a claim through the machine marks only a free cell and leaves an uncontended claim where it is (what "
        + "taking the owner and marking in two exchanges amounted to when a claim landed between them): the "
        + "machine answers build, and two lookups build one generation's instance",
        "            guard claimed || state == SharedCellLife.free || state == SharedCellLife.released else { return nil }\n",
        "            guard state == SharedCellLife.free || state == SharedCellLife.released else { return nil }\n",
        CELL,
    ),
]
# The create-shared client's decisions after a build or its failure, which the explorer's lookups take from
# the engine's own `SharedCreation`.
MUTATIONS += [
    (
        "client-publishes-reaching-unfinished",
        "a build that reached an unfinished ancestor (a property edge closing a cycle) is published at once, "
        + "before the ancestor's preparation ran",
        "        guard shape.deferred || shape.reachedUnfinished else { return .now(onWordFirst: leaveBuilding()) }\n",
        "        guard shape.deferred else { return .now(onWordFirst: leaveBuilding()) }\n",
        CLIENT,
    ),
    (
        "client-publishes-with-deferred-preparation",
        "a build with a preparation deferred to the enclosing drain (it needs an object an enclosing factory "
        + "is still building) is published at once, before that preparation ran",
        "        guard shape.deferred || shape.reachedUnfinished else { return .now(onWordFirst: leaveBuilding()) }\n",
        "        guard shape.reachedUnfinished else { return .now(onWordFirst: leaveBuilding()) }\n",
        CLIENT,
    ),
    (
        "client-group-reaching-below-it",
        "a build that reached an unfinished object built before it (below its graph node) is published as a "
        + "complete group, though that object is still being prepared",
        "        if !shape.deferred && !shape.reachedOuter && shape.node >= 0 && shape.lowest >= shape.node {\n",
        "        if !shape.deferred && !shape.reachedOuter && shape.node >= 0 {\n",
        CLIENT,
    ),
    (
        "client-held-not-handed-on",
        "in a nested lookup, an instance that reached an unpublished instance of the outer lookups is held only "
        + "for the nested drain, and published when it ends, before the outer instance is prepared",
        "        return .held(order: shape.node, handToOutermost: shape.reachedOuter)\n",
        "        return .held(order: shape.node, handToOutermost: false)\n",
        CLIENT,
    ),
    (
        "client-failure-keeps-held",
        "a failed build gives up its own claim but keeps what was held inside it: a group is split, a member "
        + "published without the one that failed",
        "        return Abandonment(onWordFirst: leaveBuilding(), dropFrom: node >= 0 ? node : nil)\n",
        "        return Abandonment(onWordFirst: leaveBuilding(), dropFrom: nil)\n",
        CLIENT,
    ),
    # The client after a reset, a shutdown or a scope's end released the generation a lookup claimed in.
    (
        "client-serves-released-build",
        "an instance published alone whose generation was released while it was built is served to its lookup "
        + "(torn down, or never torn down), instead of the current generation's",
        "        rejected && tearsDown ? .tearDown : .serve\n",
        "        .serve\n",
        CLIENT,
    ),
    (
        "client-gives-up-after-one-reset",
        "a lookup whose generation a reset released fails at once, instead of claiming again in the current "
        + "generation",
        "        return releasedBuilds < RouteError.generationAttempts ? .claimCurrent : .giveUp\n",
        "        return .giveUp\n",
        CLIENT,
    ),
    (
        "client-builds-in-released-claim",
        "a lookup that claimed a cell its generation's release freed (it waited for the cell's builder, a reset "
        + "came meanwhile) builds there, and its instance lands in the released generation",
        "        if released && !onWord {\n",
        "        if false {\n",
        CLIENT,
    ),
]
# Each with its file.
MUTATIONS = [mutation if len(mutation) == 5 else (*mutation, MACHINE) for mutation in MUTATIONS]


def fail(message):
    print(f"mutate-creation-machine: {message}", file=sys.stderr)
    sys.exit(2)


def mutant(source, name, anchor, replacement, file):
    # A rule enforced at several sites (a failed build's `dropGroup` and the lookup's end both fail a merged
    # group) is broken at each: anchor and replacement are then tuples, applied pair by pair, each anchor
    # occurring exactly once.
    anchors = anchor if isinstance(anchor, tuple) else (anchor,)
    replacements = replacement if isinstance(replacement, tuple) else (replacement,)
    if len(anchors) != len(replacements):
        fail(f"mutation '{name}' has {len(anchors)} anchors and {len(replacements)} replacements")
    for site, (one, other) in enumerate(zip(anchors, replacements)):
        found = source.count(one)
        if found != 1:
            where = "not found" if found == 0 else f"found {found} times"
            fail(f"anchor {site + 1} of mutation '{name}' is {where} in {file}; update the mutation to the source:\n{one}")
        source = source.replace(one, other)
    return source


def write_if_changed(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text() != text:
        path.write_text(text)


def sync_tree(source, destination):
    """Copies `source` into `destination`, rewriting only changed files, removing files no longer there."""
    wanted = set()
    for file in source.rglob("*"):
        if file.is_file():
            relative = file.relative_to(source)
            wanted.add(relative)
            target = destination / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            if not target.exists() or target.read_bytes() != file.read_bytes():
                shutil.copy2(file, target)
    if destination.exists():
        for file in destination.rglob("*"):
            if file.is_file() and file.relative_to(destination) not in wanted:
                file.unlink()


MANIFEST = """// swift-tools-version: 6.2
// Written by scripts/mutate-creation-machine.py: Router and the creation machine's explorer, nothing else.
import PackageDescription

let upcoming: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InferIsolatedConformances"),
]

let package = Package(
    name: "RouterMutants",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    targets: [
        .target(name: "Router", swiftSettings: [.strictMemorySafety()] + upcoming),
        .testTarget(name: "CreationExplorerTests", dependencies: ["Router"], swiftSettings: upcoming),
    ],
    swiftLanguageModes: [.v6]
)
"""


def prepare_package():
    write_if_changed(PACKAGE / "Package.swift", MANIFEST)
    sync_tree(ROOT / "Sources/Router", PACKAGE / "Sources/Router")
    sync_tree(ROOT / "Tests/CreationExplorerTests", PACKAGE / "Tests/CreationExplorerTests")


def swift(*arguments, timeout=None, stop_early=False):
    command = ["nice", "-n", "10", "swift", *arguments, "--package-path", str(PACKAGE), "--scratch-path", str(SCRATCH)]
    environment = dict(os.environ)
    if stop_early:
        # Only whether the mutant fails matters: once a scenario found a violation, the others stop.
        environment["ROUTER_EXPLORER_STOP_AT_FIRST_VIOLATION"] = "1"
    # A session of its own, so that a timeout ends the test process too, not only `swift`.
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True, env=environment
    )
    try:
        output, _ = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        raise
    return subprocess.CompletedProcess(command, process.returncode, output, "")


def build():
    result = swift("build", "--build-tests")
    return result.returncode == 0, result.stdout + result.stderr


def run_explorer(stop_early):
    """Runs the explorer's tests; returns (passed, the scenarios that failed, a first violation)."""
    try:
        result = swift("test", "--skip-build", "--filter", "CreationExplorerTests", timeout=TIMEOUT, stop_early=stop_early)
    except subprocess.TimeoutExpired:
        return False, ["(timed out)"], f"no result after {TIMEOUT} s"
    output = result.stdout + result.stderr
    passed = result.returncode == 0 and re.search(r"Test run with \d+ tests? .*passed", output) is not None
    failed = []
    for line in output.splitlines():
        match = re.search(r'recorded an issue with 1 argument scenario → (.*?) at \S+\.swift:', line)
        if match and match.group(1) not in failed:
            failed.append(match.group(1))
    violation = ""
    for line in output.splitlines():
        match = re.search(r'Expectation failed: \(violation → "(.*)', line)
        if match:
            # The scenario's name, then what went wrong, up to the schedule that shows it.
            violation = match.group(1).split(" [schedule")[0]
            break
    if not passed and not failed:
        violation = violation or "\n".join(output.splitlines()[-15:])
    return passed, failed, violation


def check_unmutated_log(log):
    """Fails unless `log` is a passing run of the explorer over the files the copy takes, not older than them."""
    if not log.is_file():
        fail(f"--unmutated-passed: no file {log}")
    text = log.read_text(errors="replace")
    if not re.search(r"Suite CreationMachineExplorerTests passed", text) or "stopped after" in text or "stopped before" in text:
        fail(f"--unmutated-passed: {log} does not show the explorer's suite passing with every scenario explored")
    taken = [ROOT / "Package.swift"] + [
        file
        for folder in ("Sources/Router", "Tests/CreationExplorerTests")
        for file in (ROOT / folder).rglob("*")
        if file.is_file()
    ]
    newer = [str(file.relative_to(ROOT)) for file in taken if file.stat().st_mtime > log.stat().st_mtime]
    if newer:
        fail(f"--unmutated-passed: {log} is older than {', '.join(newer[:5])}: run swift test again, or leave it out")


def main():
    arguments = sys.argv[1:]
    all_scenarios = "--all-scenarios" in arguments
    arguments = [argument for argument in arguments if argument != "--all-scenarios"]
    unmutated_log = None
    if "--unmutated-passed" in arguments:
        at = arguments.index("--unmutated-passed")
        if at + 1 >= len(arguments):
            fail("--unmutated-passed needs the log of a swift test run")
        unmutated_log = Path(arguments[at + 1])
        del arguments[at : at + 2]
        check_unmutated_log(unmutated_log)
    if arguments == ["--list"]:
        for name, what, _, _, _ in MUTATIONS:
            print(f"{name}: {what}")
        return 0
    names = [name for name, _, _, _, _ in MUTATIONS]
    unknown = [name for name in arguments if name not in names]
    if unknown:
        fail(f"no mutation named {', '.join(unknown)} (--list names them)")
    selected = [m for m in MUTATIONS if not arguments or m[0] in arguments]

    originals = {file: (ROOT / file).read_text() for file in (MACHINE, CELL, CLIENT)}
    # Every anchor is checked before anything is built.
    mutants = [
        (name, what, file, mutant(originals[file], name, anchor, replacement, file))
        for name, what, anchor, replacement, file in selected
    ]

    started = time.monotonic()
    prepare_package()
    for file, text in originals.items():
        write_if_changed(PACKAGE / file, text)
    built, log = build()
    if not built:
        fail(f"the unmutated copy does not build:\n{log[-3000:]}")
    if unmutated_log:
        print(
            f"unmutated machine: the explorer passed in {unmutated_log}, a run of these files"
            + f" (the copy built in {time.monotonic() - started:.0f} s)"
        )
    else:
        passed, failed, violation = run_explorer(stop_early=False)
        if not passed:
            fail(f"the explorer fails on the unmutated machine ({', '.join(failed)}):\n{violation}")
        print(f"unmutated machine: the explorer passes ({time.monotonic() - started:.0f} s with the first build)")

    survivors = []
    try:
        for name, what, file, text in mutants:
            began = time.monotonic()
            for other, original in originals.items():
                write_if_changed(PACKAGE / other, text if other == file else original)
            built, log = build()
            if not built:
                fail(f"mutation '{name}' does not compile; fix the mutation:\n{log[-3000:]}")
            passed, failed, violation = run_explorer(stop_early=not all_scenarios)
            seconds = time.monotonic() - began
            if passed:
                survivors.append(name)
                print(f"SURVIVED {name} ({seconds:.0f} s): {what}")
            else:
                print(f"killed   {name} ({seconds:.0f} s): {what}")
                print(f"         by {len(failed)} scenario(s): {' | '.join(failed) if failed else '?'}")
                if violation:
                    print(f"         {violation[:300]}")
    finally:
        for file, original in originals.items():
            write_if_changed(PACKAGE / file, original)

    print(f"{len(mutants) - len(survivors)} of {len(mutants)} mutations killed in {time.monotonic() - started:.0f} s")
    if survivors:
        print(f"survived (the explorer does not check these rules): {', '.join(survivors)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
