#!/usr/bin/env python3
"""Mutation testing: plant the one-line bugs of a list, one at a time, in a
scratch copy of the tree, rebuild incrementally, run the tests that cover
each, and say which mutants the tests kill. See docs/testing.md.

    mutate.py [--list FILE] [--scratch DIR] [--only ID[,ID...]] [--all-tests]
              [--jobs N] [--timeout S] [--min-score PCT] [--no-baseline]
    mutate.py --check [--list FILE]

The list (mutants.txt beside this script) holds records:

    [id]
    file: tools/neff_cat.c
    find: size_t best_d = 3;
    replace: size_t best_d = 4;
    bug: the "did you mean" suggestion accepts names three edits away
    tests: neff/tensors-cat.test

`find` and `replace` are the text after "find: " / "replace: " up to the
end of the line, exactly; `find` must occur exactly once in `file`, else
the mutant is stale (reported, not counted). `tests` are lit tests or
directories relative to test/lit, `unit/test_NAME` for a C unit test, or
`lit` for the whole lit suite. A mutant is killed when one of its tests
fails (or runs past --timeout), survives when all pass; one that does
not build is reported as such and not counted. The score is killed /
(killed + survived).

Only the standard library; nothing is written outside the scratch
directory (default: BUILD/mutation under the source tree's build/).
"""
import argparse
import filecmp
import os
import re
import shutil
import signal
import subprocess
import sys
import time

SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_LIST = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mutants.txt")
LIT = "/usr/lib/llvm-19/build/utils/lit/lit.py"
LAYERS = ("support", "dialect", "lowering", "packaging", "passes", "tools")
KEYS = ("file", "find", "replace", "bug", "tests")


class ListError(Exception):
    pass


def parse(path):
    """The records of the list at PATH, in order: dicts with id, line and KEYS."""
    mutants, cur = [], None
    with open(path, encoding="utf-8") as f:
        for no, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            m = re.fullmatch(r"\[([A-Za-z0-9_.-]+)\]", line.strip())
            if m:
                cur = {"id": m.group(1), "line": no}
                mutants.append(cur)
                continue
            key, sep, value = line.partition(": ")
            if not sep and line.endswith(":"):
                key, value, sep = line[:-1], "", ":"
            if cur is None or not sep or key not in KEYS:
                raise ListError("%s:%d: expected '[id]' or one of %s followed by ': '"
                                % (path, no, ", ".join(KEYS)))
            if key in cur:
                raise ListError("%s:%d: '%s' given twice in [%s]" % (path, no, key, cur["id"]))
            cur[key] = value
    seen = set()
    for m in mutants:
        missing = [k for k in KEYS if not m.get(k)]
        if missing:
            raise ListError("%s:%d: [%s] has no %s" % (path, m["line"], m["id"],
                                                       ", ".join(missing)))
        if m["find"] == m["replace"]:
            raise ListError("%s:%d: [%s] replaces its text with itself" % (path, m["line"],
                                                                          m["id"]))
        if m["id"] in seen:
            raise ListError("%s:%d: id [%s] given twice" % (path, m["line"], m["id"]))
        seen.add(m["id"])
        m["tests"] = m["tests"].split()
    return mutants


def count_in(root, m):
    """How often m's text occurs in its file under ROOT (-1: no such file)."""
    p = os.path.join(root, m["file"])
    if not os.path.isfile(p):
        return -1
    with open(p, encoding="utf-8", errors="surrogateescape") as f:
        return f.read().count(m["find"])


def bad_tests(root, m):
    """m's tests that name nothing under ROOT."""
    bad = []
    for t in m["tests"]:
        if t == "lit":
            continue
        if t.startswith("unit/"):
            ok = os.path.isfile(os.path.join(root, "test", "unit", t[5:] + ".c"))
        else:
            ok = os.path.exists(os.path.join(root, "test", "lit", t))
        if not ok:
            bad.append(t)
    return bad


def check(args):
    try:
        mutants = parse(args.list)
    except (OSError, ListError) as e:
        print("error: %s" % e)
        return 1
    stale = 0
    layers = {k: 0 for k in LAYERS}
    for m in mutants:
        n = count_in(SRC, m)
        bad = bad_tests(SRC, m)
        if n != 1:
            print("stale: [%s] %s: %s" % (m["id"], m["file"],
                                          "no such file" if n < 0 else
                                          "text not found" if n == 0 else
                                          "text found %d times" % n))
        if bad:
            print("stale: [%s] no test %s" % (m["id"], ", ".join(bad)))
        stale += n != 1 or bool(bad)
        top = m["file"].split("/")[0]
        if top in layers:
            layers[top] += 1
    print("layers: " + ", ".join("%s %d" % (k, v) for k, v in layers.items()))
    print("mutants: %d, stale: %d" % (len(mutants), stale))
    return 1 if stale else 0


# ---- running ----

def sync_tree(src, dst):
    """Makes DST a copy of SRC's sources (no .git, no build directories),
    copying only files that differ, so an incremental build stays valid."""
    keep = set()
    for dirpath, dirnames, filenames in os.walk(src):
        rel = os.path.relpath(dirpath, src)
        dirnames[:] = sorted(d for d in dirnames if not (
            rel == "." and (d == ".git" or d.startswith("build"))))
        os.makedirs(os.path.join(dst, rel), exist_ok=True)
        keep.add(os.path.normpath(rel))
        for fn in filenames:
            s, d = os.path.join(dirpath, fn), os.path.join(dst, rel, fn)
            keep.add(os.path.normpath(os.path.join(rel, fn)))
            if os.path.islink(s):
                if not os.path.islink(d) or os.readlink(d) != os.readlink(s):
                    if os.path.lexists(d):
                        os.unlink(d)
                    os.symlink(os.readlink(s), d)
            elif not os.path.isfile(d) or os.path.islink(d) or \
                    not filecmp.cmp(s, d, shallow=False):
                if os.path.lexists(d):
                    os.unlink(d)
                shutil.copy2(s, d)
    for dirpath, dirnames, filenames in os.walk(dst, topdown=False):
        rel = os.path.relpath(dirpath, dst)
        for fn in filenames:
            if os.path.normpath(os.path.join(rel, fn)) not in keep:
                os.unlink(os.path.join(dirpath, fn))
        if os.path.normpath(rel) not in keep and rel != ".":
            shutil.rmtree(dirpath, ignore_errors=True)


def run(cmd, cwd=None, timeout=None, env=None):
    """(exit status or None on timeout, output); the whole process group
    is killed on timeout."""
    p = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, start_new_session=True)
    try:
        out, _ = p.communicate(timeout=timeout)
        return p.returncode, out.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, _ = p.communicate()
        return None, out.decode("utf-8", "replace")


def lit_files(tree, tests):
    """The lit test files TESTS name under TREE/test/lit."""
    root = os.path.join(tree, "test", "lit")
    files = []
    for t in tests:
        p = os.path.join(root, t)
        if os.path.isdir(p):
            for dirpath, dirnames, filenames in os.walk(p):
                dirnames[:] = [d for d in dirnames if d != "Inputs"]
                files += [os.path.join(dirpath, f) for f in filenames]
        elif os.path.isfile(p):
            files.append(p)
    return files


def targets_for(tree, tests, all_tests):
    if all_tests:
        return ["all"]
    t = set()
    lits = [x for x in tests if not x.startswith("unit/")]
    if lits:
        t.update(["wp_opt", "wp_neff", "wp_irdl_files"])
        files = lit_files(tree, [x for x in lits if x != "lit"]) if "lit" not in lits else []
        if "lit" in lits or any("wp_plugin" in open(f, errors="replace").read() for f in files):
            t.add("weightpack_shared")
    t.update(x[5:] for x in tests if x.startswith("unit/"))
    return sorted(t)


def run_tests(args, build, tests):
    """(failed test names or [], timed_out)."""
    if args.all_tests:
        rc, out = run(["ctest", "-j", str(args.jobs), "--output-on-failure"], cwd=build,
                      timeout=args.timeout)
        if rc is None:
            return ["ctest"], True
        failed = re.findall(r"^\s*\d+ - (\S+) \(", out, re.M)
        return (failed or ["ctest"]) if rc else [], False
    failed = []
    deadline = time.time() + args.timeout
    for t in tests:
        if not t.startswith("unit/"):
            continue
        rc, out = run([os.path.join(build, "test", "unit", t[5:])],
                      cwd=os.path.join(build, "test", "unit"),
                      timeout=max(1, deadline - time.time()),
                      env=dict(os.environ, TMPDIR=os.path.join(build, "tmp")))
        if rc is None:
            return failed + [t], True
        if rc:
            failed.append(t)
    lits = [t for t in tests if not t.startswith("unit/")]
    if lits and not failed:  # killed already: the lit tests would only take time
        cmd = [sys.executable, LIT, "-q", "-j", str(args.jobs)]
        if "lit" not in lits:
            cmd += ["--filter", "|".join(
                "^weightpack :: " + re.escape(t.rstrip("/")) + ("(/|$)" if not
                                                                 t.endswith((".test", ".hlo", ".mlir")) else "$")
                for t in lits)]
        cmd.append(os.path.join(build, "test"))
        rc, out = run(cmd, timeout=max(1, deadline - time.time()))
        if rc is None:
            return failed + ["lit"], True
        if rc:
            names = re.findall(r"^\s*weightpack :: (\S+)$", out, re.M)
            if not names:
                print(out[-2000:], file=sys.stderr)
            failed += names or ["lit"]
    return failed, False


def build(args, bdir, targets):
    cmd = ["cmake", "--build", bdir, "-j", str(args.jobs)]
    for t in targets:
        cmd += ["--target", t]
    rc, out = run(cmd, timeout=3600)
    return rc == 0, out


def main_run(args):
    try:
        mutants = parse(args.list)
    except (OSError, ListError) as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    if args.only:
        want = set(args.only.split(","))
        unknown = want - {m["id"] for m in mutants}
        if unknown:
            print("error: no mutant %s in %s" % (", ".join(sorted(unknown)), args.list),
                  file=sys.stderr)
            return 2
        mutants = [m for m in mutants if m["id"] in want]
    scratch = os.path.abspath(args.scratch)
    if os.path.commonpath([scratch, SRC]) == SRC and \
            not os.path.relpath(scratch, SRC).split(os.sep)[0].startswith("build"):
        print("error: the scratch directory must not lie in the sources (use build*/...)",
              file=sys.stderr)
        return 2
    tree, bdir = os.path.join(scratch, "src"), os.path.join(scratch, "build")
    print("scratch: %s" % scratch, flush=True)
    sync_tree(SRC, tree)
    if not os.path.isfile(os.path.join(bdir, "CMakeCache.txt")):
        rc, out = run(["cmake", "-S", tree, "-B", bdir, "-DCMAKE_BUILD_TYPE=RelWithDebInfo"])
        if rc:
            print(out)
            print("error: configuring %s failed" % bdir, file=sys.stderr)
            return 2
    all_targets = set()
    all_tests = []
    for m in mutants:
        all_targets.update(targets_for(tree, m["tests"], args.all_tests))
        all_tests += [t for t in m["tests"] if t not in all_tests]
    ok, out = build(args, bdir, sorted(all_targets))
    if not ok:
        print(out[-4000:])
        print("error: the unmutated tree does not build", file=sys.stderr)
        return 2
    if not args.no_baseline:
        failed, _ = run_tests(args, bdir, all_tests)
        if failed:
            print("error: the unmutated tree fails %s: fix that first" % ", ".join(failed),
                  file=sys.stderr)
            return 2
    counts = {"killed": 0, "survived": 0, "stale": 0, "no-build": 0}
    survivors = []
    for m in mutants:
        path = os.path.join(tree, m["file"])
        n = count_in(tree, m)
        if n != 1:
            counts["stale"] += 1
            print("stale     [%s] %s: %s" % (m["id"], m["file"], "no such file" if n < 0 else
                                             "text not found" if n == 0 else
                                             "text found %d times" % n), flush=True)
            continue
        with open(path, "rb") as f:
            original = f.read()
        text = original.decode("utf-8", "surrogateescape")
        t0 = time.time()
        try:
            with open(path, "wb") as f:
                f.write(text.replace(m["find"], m["replace"]).encode("utf-8", "surrogateescape"))
            ok, out = build(args, bdir, targets_for(tree, m["tests"], args.all_tests))
            if not ok:
                counts["no-build"] += 1
                err = [l for l in out.splitlines() if "error" in l][:2]
                print("no-build  [%s] %s: %s" % (m["id"], m["file"], " | ".join(err)),
                      flush=True)
                continue
            failed, timed_out = run_tests(args, bdir, m["tests"])
        finally:
            with open(path, "wb") as f:
                f.write(original)
        took = time.time() - t0
        if failed:
            counts["killed"] += 1
            print("killed    [%s] %s (%.0f s) by %s%s" % (m["id"], m["file"], took,
                                                         ", ".join(failed[:3]),
                                                         " (timeout)" if timed_out else ""),
                  flush=True)
        else:
            counts["survived"] += 1
            survivors.append(m)
            print("SURVIVED  [%s] %s (%.0f s): %s" % (m["id"], m["file"], took, m["bug"]),
                  flush=True)
    counted = counts["killed"] + counts["survived"]
    score = 100.0 * counts["killed"] / counted if counted else 0.0
    print("killed %d, survived %d, stale %d, not building %d; score %.1f%% (%d/%d)"
          % (counts["killed"], counts["survived"], counts["stale"], counts["no-build"], score,
             counts["killed"], counted))
    for m in survivors:
        print("  survivor [%s] %s: %s" % (m["id"], m["file"], m["bug"]))
    # the last mutant's objects are stale now; the next run rebuilds them
    if args.min_score is not None and score < args.min_score:
        return 1
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--list", default=DEFAULT_LIST, help="the mutant list (default: %(default)s)")
    ap.add_argument("--check", action="store_true",
                    help="only check the list: parsed, each text found exactly once, tests exist")
    ap.add_argument("--scratch", default=os.path.join(SRC, "build", "mutation"),
                    help="scratch directory: src/ (the copy) and build/ (default: %(default)s)")
    ap.add_argument("--only", help="run only these mutants (ids, comma-separated)")
    ap.add_argument("--all-tests", action="store_true",
                    help="build everything and run the whole ctest suite for each mutant")
    ap.add_argument("--jobs", type=int, default=2, help="build and lit jobs (default: 2)")
    ap.add_argument("--timeout", type=float, default=900,
                    help="seconds a mutant's tests may take; past it the mutant is killed")
    ap.add_argument("--min-score", type=float, help="exit 1 when the score is below this")
    ap.add_argument("--no-baseline", action="store_true",
                    help="do not first run the tests on the unmutated copy")
    args = ap.parse_args()
    args.list = os.path.abspath(args.list)
    sys.exit(check(args) if args.check else main_run(args))


if __name__ == "__main__":
    main()
