#!/usr/bin/env python3
"""A/B of two opt binaries on one model, alternated, with the per-pass
times of --mlir-timing and a byte comparison of the NEFFs.

    bench/ab.py BASE_OPT NEW_OPT MODEL_DIR [--runs 5] [--work /tmp/wp-ab]

Each round runs BASE then NEW (the order flips every round, so a
machine that slows down during the A/B does not favour one side), both
`opt MODEL --inline-weights --bir-lower --neff-pack -o OUT --mlir-timing`.
Prints the median wall time (GNU time), CPU time, peak RSS and each
pass's median wall time for both, the load average before and after,
and whether every NEFF of NEW equals BASE's byte for byte. Benchmarks
are not tests.
"""
import argparse
import filecmp
import os
import re
import statistics
import subprocess
import sys


def one(opt, model, out, stats):
    cmd = ["/usr/bin/time", "-f", "%e %U %S %M", "-o", stats, opt, model, "--inline-weights",
           "--bir-lower", "--neff-pack", "-o", out, "--mlir-timing"]
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        sys.exit("failed: %s\n%s" % (" ".join(cmd), p.stderr[-2000:]))
    passes = {}
    for line in p.stderr.splitlines():
        m = re.match(r"\s+([0-9.]+) \(\s*[0-9.]+%\)\s+(\w+)", line)
        if m:
            passes[m.group(2)] = float(m.group(1))
    e, u, s, rss = open(stats).read().split()[-4:]
    return {"wall": float(e), "cpu": float(u) + float(s), "rss": int(rss) / 1024.0, **passes}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("base")
    ap.add_argument("new")
    ap.add_argument("model")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--work", default="/tmp/wp-ab")
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    stats = os.path.join(a.work, ".time")
    outs = {k: os.path.join(a.work, k + ".neff") for k in ("base", "new")}
    res = {"base": [], "new": []}
    same = True
    load0 = os.getloadavg()
    one(a.base, a.model, outs["base"], stats)  # warm the page cache
    for r in range(a.runs):
        order = ("base", "new") if r % 2 == 0 else ("new", "base")
        for k in order:
            res[k].append(one(a.base if k == "base" else a.new, a.model, outs[k], stats))
        same &= filecmp.cmp(outs["base"], outs["new"], shallow=False)
    load1 = os.getloadavg()
    keys = [k for k in res["base"][0] if all(k in x for x in res["base"] + res["new"])]
    print("load %.2f -> %.2f, %d runs each, medians" % (load0[0], load1[0], a.runs))
    print("| | base | new | new/base |")
    print("|---|---|---|---|")
    for k in keys:
        b = statistics.median(x[k] for x in res["base"])
        n = statistics.median(x[k] for x in res["new"])
        print("| %s | %.3f | %.3f | %.3f |" % (k, b, n, n / b if b else 0))
    print("wall, base: %s" % " ".join("%.2f" % x["wall"] for x in res["base"]))
    print("wall, new:  %s" % " ".join("%.2f" % x["wall"] for x in res["new"]))
    print("NEFFs byte-identical: %s" % ("yes" if same else "NO"))
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
