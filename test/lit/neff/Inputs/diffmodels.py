#!/usr/bin/env python3
"""diffmodels.py mutate DIR: changes some weights of an npymodel.py "dtypes"
model in place (int32: two elements 0; uint64: one element 0; float16: one
NaN; bf16: -2.0 becomes 2.0).

diffmodels.py check A_DIR B_DIR DIFF_JSON: each tensor `neff diff --json`
says changed must have the element count and largest difference numpy
computes from the two models' .npy files; exit 1 otherwise."""
import json
import os
import sys

import numpy as np


def bf16(path):
    data = open(path, "rb").read()
    raw = np.frombuffer(data[-6:], dtype="<u2").astype(np.uint32) << 16
    return raw.view(np.float32)


def load(d, name):
    p = os.path.join(d, "weights", name + ".npy")
    return bf16(p) if name.startswith("bf16") else np.load(p)


def mutate(d):
    w = os.path.join(d, "weights")
    a = np.load(os.path.join(w, "w_int32.npy")); a[0, 0] = 0; a[1, 1] = 0
    np.save(os.path.join(w, "w_int32.npy"), a)
    a = np.load(os.path.join(w, "w_uint64.npy")); a[0, 2] = 0
    np.save(os.path.join(w, "w_uint64.npy"), a)
    a = np.load(os.path.join(w, "w_float16.npy")); a[1, 0] = np.nan
    np.save(os.path.join(w, "w_float16.npy"), a)
    p = os.path.join(w, "bf16.npy")
    data = bytearray(open(p, "rb").read())
    data[-4:-2] = (0x4000).to_bytes(2, "little")
    open(p, "wb").write(bytes(data))


def check(a_dir, b_dir, diff):
    d = json.load(open(diff))
    seen = []
    for t in d["tensors"]:
        if t["change"] != "changed":
            continue
        x, y = load(a_dir, t["name"]), load(b_dir, t["name"])
        ne = x.tobytes() != y.tobytes()
        diff_mask = np.frombuffer(x.tobytes(), np.uint8).reshape(x.size, -1) != \
            np.frombuffer(y.tobytes(), np.uint8).reshape(y.size, -1)
        n = int(diff_mask.any(axis=1).sum())
        assert ne and n == t["elements_differ"], (t, n)
        assert t["elements"] == x.size, t
        if x.dtype.kind in "iu":
            m = max(abs(int(p) - int(q)) for p, q in zip(x.ravel(), y.ravel()))
            assert t["max_abs_diff"] == m, (t, m)
        else:
            delta = np.abs(x.astype(np.float64) - y.astype(np.float64))
            if np.isnan(delta).any():
                assert t["max_abs_diff"] == "nan", t
            else:
                assert abs(t["max_abs_diff"] - delta.max()) <= 1e-8 * delta.max(), (t, delta.max())
        seen.append(t["name"])
    print(" ".join(sorted(seen)))


if __name__ == "__main__":
    if sys.argv[1] == "mutate":
        mutate(sys.argv[2])
    else:
        check(*sys.argv[2:5])
