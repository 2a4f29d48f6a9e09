#!/usr/bin/env python3
"""cat_tensors.py NEFF MODEL_DIR OUT_DIR: `neff cat NEFF T -o FILE` for every
tensor `neff ls --tensors --json` lists; each must load with numpy, have
the size def.json gives, and, for a weight the model's metadata.json maps
by name, the model's .npy's dtype, shape and values (as little-endian C
order). Prints the counts; exit 1 at the first mismatch."""
import json
import os
import subprocess
import sys

import numpy as np


def raw_npy(path):
    """(descr, shape, payload bytes) of an .npy numpy may not know the dtype of."""
    data = open(path, "rb").read()
    major = data[6]
    n = int.from_bytes(data[8:10] if major == 1 else data[8:12], "little")
    start = (10 if major == 1 else 12)
    header = eval(data[start:start + n].decode("latin1"))  # a dict literal
    return header["descr"], tuple(header["shape"]), header["fortran_order"], data[start + n:]


def main():
    neff, model, out = sys.argv[1:4]
    os.makedirs(out, exist_ok=True)
    listing = json.loads(subprocess.check_output(["neff", "ls", "--tensors", "--json", neff]))
    meta = json.load(open(os.path.join(model, "metadata.json")))
    weights = meta["weight_files"] if isinstance(meta["weight_files"], dict) else {}
    n_weights = 0
    for i, t in enumerate(listing["tensors"]):
        path = os.path.join(out, "t%d.npy" % i)
        subprocess.check_call(["neff", "cat", neff, t["name"], "-o", path])
        descr, shape, _, payload = raw_npy(path)
        if len(payload) != t["size"]:
            sys.exit("%s: %d bytes, def.json says %d" % (t["name"], len(payload), t["size"]))
        got = np.load(path)
        if t["name"] not in weights:
            continue
        want_path = os.path.join(model, weights[t["name"]])
        wdescr, wshape, fortran, wpayload = raw_npy(want_path)
        if wshape != shape or tuple(t["shape"]) != shape:
            sys.exit("%s: shape %s, the model's %s" % (t["name"], shape, wshape))
        try:
            want = np.load(want_path)
        except (TypeError, ValueError):  # '<f1' (ml_dtypes' float8): bytes only
            if wpayload != payload:
                sys.exit("%s: bytes differ from the model's" % t["name"])
            n_weights += 1
            continue
        if want.dtype.kind != "V":
            want = np.ascontiguousarray(want).astype(want.dtype.newbyteorder("<"))
            if got.dtype != want.dtype:
                sys.exit("%s: dtype %s, the model's %s" % (t["name"], got.dtype, want.dtype))
        if got.tobytes() != np.ascontiguousarray(want).tobytes():
            sys.exit("%s: values differ from the model's" % t["name"])
        n_weights += 1
    print("%d tensors, %d weights equal" % (len(listing["tensors"]), n_weights))


if __name__ == "__main__":
    main()
