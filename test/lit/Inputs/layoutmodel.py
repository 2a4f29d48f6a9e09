#!/usr/bin/env python3
"""Model directories whose weight parameters have non-default layouts, and
a checker for the exported module.

    layoutmodel.py make OUT_DIR         write the model directory
    layoutmodel.py host OUT_DIR         a model of four f32 parameters whose
                                        host program shape names them as XLA
                                        does (p0..p3); w1 and w3 are weights
    layoutmodel.py names OUT.pb         print the host and entry program
                                        shapes' parameter names
    layoutmodel.py check OUT.pb DIR     each weight constant's literal has
                                        its instruction's minor_to_major and
                                        its data in that order (exit 1 else)
"""
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "tools", "py"))
import hlopb as pb  # noqa: E402
from npymodel import fields  # noqa: E402

# name, XLA type, numpy dtype, dims, minor_to_major
PARAMS = [("x", pb.F32, "float32", [2], None),
          ("w_col", pb.F32, "float32", [3, 4], [0, 1]),
          ("w_3d", pb.F32, "float32", [2, 3, 4], [1, 0, 2]),
          ("w_pred", pb.PRED, "bool", [2, 3], [0, 1]),
          ("w_c64", pb.C64, "complex64", [2, 2], [0, 1]),
          ("w_row", pb.S32, "int32", [2, 2], [1, 0])]


def shape(et, dims, m2m):
    if m2m is None:
        return pb.shape(dims, et)
    return pb.f_int(2, et) + pb.f_packed(3, dims) + pb.f_bytes(5, pb.f_packed(1, m2m))


def make(out):
    os.makedirs(os.path.join(out, "w"), exist_ok=True)
    rng = np.random.default_rng(7)
    c = pb.Computation("main")
    hs = [c.param(n, i, shape(et, d, m)) for i, (n, et, _, d, m) in enumerate(PARAMS)]
    root = c.add("root", "tuple", pb.tuple_shape(*[h[1] for h in hs]), hs)
    comp, cid = c.encode(root)
    with open(os.path.join(out, "model.pb"), "wb") as f:
        f.write(pb.module("layouts", [(comp, cid, "main")]))
    wf = {}
    for n, _, dt, d, _ in PARAMS[1:]:
        a = (rng.standard_normal(d) * 10).astype(dt)
        if dt == "complex64":
            a = a + 1j * np.arange(a.size, dtype=np.float32).reshape(d)
        np.save(os.path.join(out, "w", n + ".npy"), np.asfortranarray(a))
        wf[n] = "w/%s.npy" % n
    with open(os.path.join(out, "metadata.json"), "w") as f:
        json.dump({"model_files": "model.pb", "weight_files": wf}, f)


def get(b, f):
    return [v for ff, _, v in fields(b) if ff == f]


def packed(b, f):
    r = []
    for ff, w, v in fields(b):
        if ff == f:
            if w == 0:
                r.append(v)
            else:
                i = 0
                while i < len(v):
                    x, i = pb.read_varint(v, i)
                    r.append(x)
    return r


def m2m_of(shp):
    lay = get(shp, 5)
    return packed(lay[0], 1) if lay else []


def check(pbfile, mdir):
    data = open(pbfile, "rb").read()
    field = {"float32": 8, "bool": 2, "complex64": 12, "int32": 4}
    seen = 0
    for comp in get(data, 3):
        for ins in get(comp, 2):
            name = get(ins, 1)[0].decode()
            if get(ins, 2)[0] != b"constant":
                continue
            spec = [p for p in PARAMS if p[0] == name][0]
            lit = get(ins, 8)[0]
            ishape, lshape = get(ins, 3)[0], get(lit, 1)[0]
            if m2m_of(ishape) != m2m_of(lshape):
                print("%s: literal minor_to_major %s, instruction %s" %
                      (name, m2m_of(lshape), m2m_of(ishape)))
                return 1
            a = np.load(os.path.join(mdir, "w", name + ".npy"))
            m2m = m2m_of(lshape) or list(range(a.ndim - 1, -1, -1))
            phys = np.transpose(a, m2m[::-1])  # most major first
            raw = get(lit, field[spec[2]])[0]
            if spec[2] == "bool":
                want = phys.astype(np.uint8).tobytes()
            elif spec[2] == "int32":
                want = b"".join(pb.varint(int(v)) for v in phys.ravel())
            else:
                want = phys.tobytes()
            if raw != want:
                print("%s: literal data is not in its layout's order" % name)
                return 1
            seen += 1
    print("checked %d constants" % seen)
    return 0


def host(out):
    os.makedirs(os.path.join(out, "w"), exist_ok=True)
    names = ["x", "w1", "y", "w3"]
    c = pb.Computation("main")
    hs = [c.param(n, i, pb.shape([2])) for i, n in enumerate(names)]
    root = c.add("root", "tuple", pb.tuple_shape(*[h[1] for h in hs]), hs)
    comp, cid = c.encode(root)
    ps = (b"".join(pb.f_bytes(1, h[1]) for h in hs) + pb.f_bytes(2, root[1]) +
          b"".join(pb.f_bytes(3, "p%d" % i) for i in range(len(names))))
    with open(os.path.join(out, "model.pb"), "wb") as f:
        f.write(pb.module("host", [(comp, cid, "main")], host_shape=ps))
    for n in ("w1", "w3"):
        np.save(os.path.join(out, "w", n + ".npy"), np.ones(2, np.float32))
    with open(os.path.join(out, "metadata.json"), "w") as f:
        json.dump({"model_files": "model.pb",
                   "weight_files": {"w1": "w/w1.npy", "w3": "w/w3.npy"}}, f)


def names(pbfile):
    data = open(pbfile, "rb").read()
    for h in get(data, 4):
        print("host:", " ".join(n.decode() for n in get(h, 3)))
    for comp in get(data, 3):
        for ps in get(comp, 4):
            print("entry:", " ".join(n.decode() for n in get(ps, 3)))


if __name__ == "__main__":
    if sys.argv[1] == "make":
        make(sys.argv[2])
    elif sys.argv[1] == "host":
        host(sys.argv[2])
    elif sys.argv[1] == "names":
        names(sys.argv[2])
    else:
        sys.exit(check(sys.argv[2], sys.argv[3]))
