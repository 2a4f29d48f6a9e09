#!/usr/bin/env python3
"""Compile the C and C++ snippets of the documentation.

Each ```c fenced block of a Markdown page is one translation unit,
compiled with `CC -std=c17 -Wall -Werror -c`; each ```cpp (or c++, cxx)
block likewise with `CXX -std=c++17 -Wall -Werror -c`; both against the
include directories given (-I). A block that is not a whole unit is
fenced as ```text. Two more checks keep C out of untyped places:

* a block with no language tag that calls the C API (`wpX(`, `mlirX(`)
  is an error: tag it c (and make it whole) or text;
* an inline code span that is a single call of a weightpack function,
  `wpX(...)`, is compiled as an expression in a function where `ctx`,
  `pm`, `m`, `module`, `run`, `pass` and `err` are declared with the C
  API's types.

Usage: doc_snippets.py --cc CC --cxx CXX -I DIR... --work DIR
                       (--root SRC | FILE.md...) [--min N]
--root scans SRC/README.md and SRC/docs/*.md. Prints one line per
failure (FILE:LINE: ...) with the compiler's output, then a summary;
exits 1 when anything fails, or when fewer than --min snippets were
found (so a broken extractor cannot pass by finding nothing).
"""
import argparse
import concurrent.futures
import glob
import os
import re
import subprocess
import sys

FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([^`\s]*)[^`]*$")
API_CALL = re.compile(r"\b(?:wp|mlir)[A-Z]\w*\s*\(")
INLINE_CALL = re.compile(r"^\s*wp[A-Z][a-z]\w*\s*\(.*\)\s*;?\s*$", re.S)
LANG = {"c": "c", "cpp": "c++", "c++": "c++", "cxx": "c++"}

INLINE_UNIT = """\
#include <weightpack/weightpack.h>
void doc_inline_call(void);
void doc_inline_call(void) {{
  MlirContext ctx = {{0}};
  MlirPassManager pm = {{0}};
  MlirModule m = {{0}}, module = {{0}};
  MlirPass pass = {{0}};
  wp_run *run = 0;
  wp_error err;
  (void)ctx; (void)pm; (void)m; (void)module; (void)pass; (void)run; (void)err;
#line {line} "{path}"
  (void)({expr});
}}
"""


def snippets(path):
    """Yields (kind, line, text): kind is a language tag of LANG, 'untagged',
    'inline' or 'unclosed'; LINE is the fence's (or the span's) line."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            # Inline code spans of one backtick on this line.
            for s in re.finditer(r"(?<!`)`([^`]+)`(?!`)", lines[i]):
                if INLINE_CALL.match(s.group(1)):
                    yield "inline", i + 1, s.group(1).strip().rstrip(";")
            i += 1
            continue
        indent, fence, tag = m.group(1), m.group(2), m.group(3).lower()
        start = i + 1
        body = []
        i += 1
        closed = False
        while i < len(lines):
            line = lines[i]
            stripped = line.strip()
            if stripped.startswith(fence[0] * len(fence)) and stripped.strip(fence[0]) == "":
                closed = True
                break
            body.append(line[len(indent):] if line.startswith(indent) else line.lstrip())
            i += 1
        i += 1
        if not closed:
            yield "unclosed", start, ""
            return
        text = "\n".join(body) + "\n"
        if tag in LANG:
            yield tag, start, text
        elif tag == "" and API_CALL.search(text):
            yield "untagged", start, text


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cc", default="cc")
    ap.add_argument("--cxx", default="c++")
    ap.add_argument("-I", dest="includes", action="append", default=[])
    ap.add_argument("--work", required=True)
    ap.add_argument("--root")
    ap.add_argument("--min", type=int, default=0)
    ap.add_argument("files", nargs="*")
    a = ap.parse_args()

    files = list(a.files)
    if a.root:
        readme = os.path.join(a.root, "README.md")
        files += ([readme] if os.path.exists(readme) else [])
        files += sorted(glob.glob(os.path.join(a.root, "docs", "*.md")))
    work = os.path.abspath(a.work)
    os.makedirs(work, exist_ok=True)
    incs = [f"-I{os.path.abspath(d)}" for d in a.includes]
    # Compiled from the root, the compiler quotes the page's own lines.
    cwd = os.path.abspath(a.root) if a.root else None

    failures = 0
    counts = {"c": 0, "c++": 0, "inline": 0}
    jobs = []  # (message or None, compile command, header of a failure)
    for path in files:
        shown = os.path.relpath(path, a.root) if a.root else path
        stem = re.sub(r"[^A-Za-z0-9]+", "_", shown)
        for kind, line, text in snippets(path):
            if kind == "unclosed":
                jobs.append((f"{shown}:{line}: error: code fence never closed", None, None))
                continue
            if kind == "untagged":
                jobs.append((f"{shown}:{line}: error: a code block without a language calls the "
                             "C API; fence it ```c (a whole translation unit) or ```text",
                             None, None))
                continue
            if kind == "inline":
                lang, src = "c", INLINE_UNIT.format(line=line, path=shown, expr=text)
                counts["inline"] += 1
            else:
                # #line makes the compiler's messages point into the page.
                lang, src = LANG[kind], f'#line {line + 1} "{shown}"\n' + text
                counts[lang] += 1
            ext = ".c" if lang == "c" else ".cpp"
            unit = os.path.join(work, f"{stem}-{line}{ext}")
            with open(unit, "w", encoding="utf-8") as f:
                f.write(src)
            cmd = [a.cc, "-std=c17"] if lang == "c" else [a.cxx, "-std=c++17"]
            cmd += ["-Wall", "-Werror", "-c", *incs, "-o", unit + ".o", unit]
            what = "inline call" if kind == "inline" else f"```{kind} block"
            jobs.append((None, cmd, f"{shown}:{line}: error: the {what} does not compile "
                                    f"({' '.join(cmd[:2])} -Wall -Werror -c):"))

    def run(cmd):
        return subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True)

    # C++ units that include MLIR's C++ headers take seconds each: compile
    # side by side, report in page order.
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        results = [pool.submit(run, cmd) if cmd else None for _, cmd, _ in jobs]
        for (msg, cmd, header), res in zip(jobs, results):
            if msg:
                print(msg)
                failures += 1
                continue
            r = res.result()
            if r.returncode != 0:
                print(header)
                sys.stdout.write(r.stdout)
                failures += 1
    total = sum(counts.values())
    print(f"doc snippets: {counts['c']} C, {counts['c++']} C++, {counts['inline']} inline calls "
          f"in {len(files)} pages; {failures} failed")
    if total < a.min:
        print(f"error: found {total} snippets, expected at least {a.min}")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
