#!/usr/bin/env python3
"""Writes raw one-byte-per-element .npy files (descr '|V1'), as
outline-weights writes the types NumPy has no dtype for (f8e3m4,
f4e2m1fn, f8e8m0fnu), and each payload alone beside it for comparisons.

    new_floats_npy.py DIR NAME:SHAPE:BYTES ...

SHAPE is `2x8` (`-` for a scalar); BYTES is hex (`0f10`) or `rampN`: the
bytes 0, 1, ... N-1 repeated to fill the shape. Writes DIR/NAME.npy and
DIR/NAME.bin.
"""
import os
import sys

import numpy as np


def payload(spec, count):
    if spec.startswith("ramp"):
        period = int(spec[4:])
        return bytes(i % period for i in range(count))
    data = bytes.fromhex(spec)
    if len(data) != count:
        sys.exit("%d bytes for %d elements" % (len(data), count))
    return data


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for arg in sys.argv[2:]:
        name, shape_text, spec = arg.split(":")
        shape = () if shape_text == "-" else tuple(int(d) for d in shape_text.split("x"))
        data = payload(spec, int(np.prod(shape, dtype=np.int64)))
        np.save(os.path.join(out, name + ".npy"),
                np.frombuffer(data, dtype="V1").reshape(shape))
        with open(os.path.join(out, name + ".bin"), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
