#!/usr/bin/env python3
"""neff replace-weights against a full rebuild, for one changed weight.

    bench/bench_replace.py [--runs 3] [--opt build/bin/opt] [--neff build/bin/neff]
        [--work /tmp/wp-bench-replace] [--weights 48] [--weight-mib 8]
        [--tied 0.25] [--biases 2000]

The mixed model of bench_pipeline.py is packed once; then one weight (w0)
gets new bytes in a copy of the model directory (the other files are
hard links), and, alternating, it times
  rebuild   opt MODEL2 --inline-weights --bir-lower --neff-pack -o OUT
  replace   neff replace-weights BASE.neff MODEL2 -o OUT
and checks the two NEFFs are the same bytes. Figures: median wall, CPU
and peak RSS (GNU time). Benchmarks are not tests.
"""
import argparse
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bench_pipeline as bp  # noqa: E402

import numpy as np  # noqa: E402


def main():
    root = os.path.normpath(os.path.join(HERE, ".."))
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--opt", default=os.path.join(root, "build", "bin", "opt"))
    ap.add_argument("--neff", default=os.path.join(root, "build", "bin", "neff"))
    ap.add_argument("--work", default="/tmp/wp-bench-replace")
    ap.add_argument("--weights", type=int, default=48)
    ap.add_argument("--weight-mib", type=int, default=8)
    ap.add_argument("--tied", type=float, default=0.25)
    ap.add_argument("--biases", type=int, default=2000)
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    bp.WORK = a.work
    model = os.path.join(a.work, "model")
    model2 = os.path.join(a.work, "model2")
    base = os.path.join(a.work, "base.neff")
    bp.make_model(model, a.weights, a.weight_mib, a.tied, a.biases)
    subprocess.check_call([a.opt, model, "--inline-weights", "--bir-lower", "--neff-pack",
                           "-o", base], stderr=subprocess.DEVNULL)
    if os.path.exists(model2):
        shutil.rmtree(model2)
    shutil.copytree(model, model2, copy_function=os.link)
    w0 = os.path.join(model2, "weights", "w0.npy")
    arr = np.load(w0)
    os.unlink(w0)  # a file of its own, not the original's link
    np.save(w0, (arr + np.float16(1)).astype(arr.dtype))
    outs = {"rebuild": os.path.join(a.work, "rebuild.neff"),
            "replace": os.path.join(a.work, "replace.neff")}
    cmds = {"rebuild": [a.opt, model2, "--inline-weights", "--bir-lower", "--neff-pack",
                        "-o", outs["rebuild"]],
            "replace": [a.neff, "replace-weights", base, model2, "-o", outs["replace"]]}
    results = {k: [] for k in cmds}
    for _ in range(a.runs):
        for k in ("rebuild", "replace"):
            results[k].append(bp.run(cmds[k]))
    same = open(outs["rebuild"], "rb").read() == open(outs["replace"], "rb").read()
    size = os.path.getsize(base) / (1 << 20)
    print("mixed model: %d x %d MiB f16, %.0f%% tied, %d biases; NEFF %.1f MiB; w0 changed"
          % (a.weights, a.weight_mib, a.tied * 100, a.biases, size))
    print("%-8s %8s %8s %10s" % ("", "wall s", "cpu s", "peak MiB"))
    med = {}
    for k, rs in results.items():
        rs.sort(key=lambda r: r["wall"])
        m = med[k] = rs[len(rs) // 2]
        print("%-8s %8.2f %8.2f %10.1f" % (k, m["wall"], m["cpu"], m["rss"]))
    print("replace / rebuild: %.2fx the time; NEFFs %s"
          % (med["replace"]["wall"] / med["rebuild"]["wall"], "identical" if same else "DIFFER"))
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
