#!/usr/bin/env python3
"""A frozen model as HLO text, and a check of its constants in a NEFF.

  frozenhlo.py gen OUT.hlo       writes the module: x (f32[2,256]) times a
                                 f32[256,256] constant plus a f32[256] bias,
                                 every value written out in the text
  frozenhlo.py check UNPACKED    finds the weights' and the bias's bytes
                                 in the const files of the unpacked NEFF
"""
import glob
import os
import struct
import sys

N = 256


def weight(i, j):
    return (i * N + j) * 0.25 - 8192.0  # exact in f32


def bias(j):
    return j * -0.5


def gen(path):
    rows = ", ".join("{ " + ", ".join("%g" % weight(i, j) for j in range(N)) + " }"
                     for i in range(N))
    with open(path, "w") as f:
        f.write("// RUN lines live in frozen-model.test\n")
        f.write("HloModule frozen\n\n")
        f.write("ENTRY %%main (x: f32[2,%d]) -> f32[2,%d] {\n" % (N, N))
        f.write("  %%x = f32[2,%d] parameter(0)\n" % N)
        f.write("  %%w = f32[%d,%d] constant({ %s })\n" % (N, N, rows))
        f.write("  %%b = f32[%d] constant({%s})\n" % (N, ", ".join("%g" % bias(j) for j in range(N))))
        f.write("  %%d = f32[2,%d] dot(%%x, %%w), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n" % N)
        f.write("  %%bb = f32[2,%d] broadcast(%%b), dimensions={1}\n" % N)
        f.write("  ROOT %%r = f32[2,%d] add(%%d, %%bb)\n}\n" % N)


def check(unpacked):
    want = {
        "weights": struct.pack("<%df" % (N * N), *[weight(i, j) for i in range(N) for j in range(N)]),
        "bias": struct.pack("<%df" % N, *[bias(j) for j in range(N)]),
    }
    found = {}
    for path in sorted(glob.glob(os.path.join(unpacked, "sg00", "*.Const.npy"))):
        data = open(path, "rb").read()
        body = data[10 + struct.unpack("<H", data[8:10])[0]:]
        for name, value in want.items():
            if body == value:
                found[name] = len(body)
    for name in want:
        if name not in found:
            sys.exit("no const file holds the %s" % name)
        print("%s: a const file of %d bytes holds them" % (name, found[name]))


if __name__ == "__main__":
    {"gen": gen, "check": check}[sys.argv[1]](sys.argv[2])
