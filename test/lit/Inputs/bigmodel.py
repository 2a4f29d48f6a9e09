#!/usr/bin/env python3
"""A model directory of large weights, for the tests of outputs that fail
fast (test/lit/driver/output-fail-fast.test).

    bigmodel.py OUT_DIR N MIB [random]

N float32 weights of MIB MiB each. By default each is a numpy header
followed by zeros in a sparse file (no disk used, made at once); with
"random" each holds standard-normal data saved by np.save, for measuring
by hand.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from npymodel import Model, pb  # noqa: E402


def sparse_zeros(path, count):
    with open(path, "wb") as f:
        np.lib.format.write_array_header_1_0(
            f, {"descr": "<f4", "fortran_order": False, "shape": (count,)})
        f.truncate(f.tell() + 4 * count)


def main():
    out, n, mib = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    rand = len(sys.argv) > 4 and sys.argv[4] == "random"
    count = mib * (1 << 20) // 4
    rng = np.random.default_rng(34)
    m = Model(out)
    for i in range(n):
        name = "w%02d" % i
        if rand:
            m.weight(name, rng.standard_normal(count).astype(np.float32))
        else:
            rel = "weights/%s.npy" % name
            sparse_zeros(os.path.join(out, rel), count)
            m.params.append((name, pb.F32, [count], rel))
    m.write()


if __name__ == "__main__":
    main()
