#!/usr/bin/env python3
"""Benchmark of inline-weights: time and peak RSS of

  big    one weight of --big-gib GiB (default 4), against the same model
         with a 16-byte weight (the pass maps the file; it must not read it)
  many   --many weights (default 100000) of f32[4], one .npy file each

Usage: bench/bench_inline_weights.py [--opt build/bin/opt] [--big-gib 4]
       [--many 100000] [--work DIR] [--runs 3]
Prints a table; peak RSS comes from wait4() of each opt run. The weight
files of the big case are sparse (the pass must not touch their pages, so
their content does not matter).
"""
import argparse
import json
import os
import shutil
import struct
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tools", "py"))
import hlopb as pb  # noqa: E402


def npy_header(descr, shape):
    shp = "(%s)" % (", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else ""))
    d = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shp)
    total = (10 + len(d) + 1 + 63) // 64 * 64
    hdr = d + " " * (total - 10 - len(d) - 1) + "\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(hdr)) + hdr.encode()


def write_model(out, weights):
    """weights: list of (name, n_elements, sparse)."""
    if os.path.exists(out):
        shutil.rmtree(out)
    os.makedirs(os.path.join(out, "weights"))
    c = pb.Computation("main")
    x = c.param("x", 0, pb.shape([4]))
    handles = [x]
    wf = {}
    for i, (name, n, sparse) in enumerate(weights):
        handles.append(c.param(name, i + 1, pb.shape([n])))
        rel = "weights/%s.npy" % name
        wf[name] = rel
        with open(os.path.join(out, rel), "wb") as f:
            f.write(npy_header("<f4", (n,)))
            if sparse:
                f.truncate(f.tell() + 4 * n)
            else:
                f.write(struct.pack("<%df" % n, *range(n)))
    root = c.add("out", "tuple", pb.tuple_shape(*[h[1] for h in handles]), handles)
    body, cid = c.encode(root)
    with open(os.path.join(out, "model.hlo.pb"), "wb") as f:
        f.write(pb.module("bench", [(body, cid, "main")], host_shape=c.program_shape(root)))
    with open(os.path.join(out, "metadata.json"), "w") as f:
        json.dump({"model_files": ["model.hlo.pb"], "weight_files": wf}, f)


def run(cmd):
    """(wall seconds, cpu seconds, peak RSS MiB) of one run of CMD."""
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.monotonic() - t0
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit("failed: %s" % " ".join(cmd))
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024.0


def best_of(cmd, runs):
    results = [run(cmd) for _ in range(runs)]
    results.sort()
    return results[len(results) // 2]  # the median by wall time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--opt", default=os.path.join(HERE, "..", "build", "bin", "opt"))
    ap.add_argument("--big-gib", type=float, default=4.0)
    ap.add_argument("--many", type=int, default=100000)
    ap.add_argument("--work", default="/tmp/wp-bench-inline")
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    big_n = int(a.big_gib * (1 << 30)) // 4
    cases = [
        ("baseline (16 B weight)", [("w", 4, False)]),
        ("one %.2f GiB weight" % a.big_gib, [("w", big_n, True)]),
        ("%d weights of f32[4]" % a.many, [("w%d" % i, 4, False) for i in range(a.many)]),
    ]
    print("| case | wall s | cpu s | peak RSS MiB |")
    print("|---|---|---|---|")
    rows = []
    for label, weights in cases:
        d = os.path.join(a.work, "model")
        write_model(d, weights)
        cmd = [a.opt, d, "--inline-weights", "--mlir-elide-resource-strings-if-larger=64",
               "-o", "/dev/null"]
        wall, cpu, rss = best_of(cmd, a.runs)
        rows.append((label, wall, cpu, rss))
        print("| %s | %.3f | %.3f | %.1f |" % (label, wall, cpu, rss), flush=True)
    print("\nbig weight raises peak RSS by %.1f MiB over the baseline" % (rows[1][3] - rows[0][3]))
    shutil.rmtree(os.path.join(a.work, "model"))


if __name__ == "__main__":
    main()
