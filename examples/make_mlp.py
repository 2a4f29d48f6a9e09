#!/usr/bin/env python3
"""Writes examples/mlp: a small MLP model directory in weightpack's format.

    model.hlo.pb     bare HloModuleProto (hand-encoded below; no XLA needed)
    metadata.json    model_files + weight_files
    weights/*.npy    float32 weights, written with numpy

The network is y = relu(relu(x.w1 + b1).w2 + b2).w3 + b2).w_out where w3 is
tied to w2 (same bytes, separate file) and b2 is used twice. x is the
runtime input. Run: python3 examples/make_mlp.py [OUT_DIR]
"""
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "tools", "py"))
from hlopb import module as hlopb_module  # noqa: E402
from hlopb import Computation, f_bytes, f_int, f_packed, shape, tuple_shape  # noqa: E402


def dot_dims(lhs, rhs):
    return f_bytes(30, f_packed(1, [lhs]) + f_packed(2, [rhs]))


def main(out):
    rng = np.random.default_rng(20261202)
    weights = {
        "w1": rng.standard_normal((8, 16), dtype=np.float32),
        "b1": rng.standard_normal((16,), dtype=np.float32),
        "w2": rng.standard_normal((16, 16), dtype=np.float32),
        "b2": rng.standard_normal((16,), dtype=np.float32),
        "w_out": rng.standard_normal((16, 4), dtype=np.float32),
    }
    weights["w3"] = weights["w2"].copy()  # the tied pair

    c = Computation("main")
    params = []
    order = ["x", "w1", "b1", "w2", "w3", "b2", "w_out"]
    dims = {"x": [2, 8], **{k: list(v.shape) for k, v in weights.items()}}
    for num, name in enumerate(order):
        params.append(c.param(name, num, shape(dims[name]),
                              metadata=f_bytes(2, name)))
    p = dict(zip(order, params))
    zero = c.add("zero", "constant", shape([]),
                 extra=f_bytes(8, f_bytes(1, shape([])) + f_bytes(8, b"\0\0\0\0")))
    h = shape([2, 16])
    relu_zero = c.add("relu_zero", "broadcast", h, [zero])
    b1 = c.add("b1_bcast", "broadcast", h, [p["b1"]], extra=f_packed(14, [1]))
    b2 = c.add("b2_bcast", "broadcast", h, [p["b2"]], extra=f_packed(14, [1]))
    d1 = c.add("dot1", "dot", h, [p["x"], p["w1"]], dot_dims(1, 0))
    a1 = c.add("add1", "add", h, [d1, b1])
    r1 = c.add("relu1", "maximum", h, [a1, relu_zero])
    d2 = c.add("dot2", "dot", h, [r1, p["w2"]], dot_dims(1, 0))
    a2 = c.add("add2", "add", h, [d2, b2])
    r2 = c.add("relu2", "maximum", h, [a2, relu_zero])
    d3 = c.add("dot3", "dot", h, [r2, p["w3"]], dot_dims(1, 0))
    a3 = c.add("add3", "add", h, [d3, b2])
    y = c.add("logits", "dot", shape([2, 4]), [a3, p["w_out"]], dot_dims(1, 0))
    root = c.add("result", "tuple", tuple_shape(shape([2, 4])), [y])

    comp, comp_id = c.encode(root)
    module = hlopb_module("mlp", [(comp, comp_id, "main")],
                          host_shape=c.program_shape(root))

    os.makedirs(os.path.join(out, "weights"), exist_ok=True)
    with open(os.path.join(out, "model.hlo.pb"), "wb") as f:
        f.write(module)
    for name, arr in weights.items():
        np.save(os.path.join(out, "weights", name + ".npy"), arr)
    meta = {
        "model_files": ["model.hlo.pb"],
        "weight_files": {n: "weights/%s.npy" % n for n in order[1:]},
    }
    with open(os.path.join(out, "metadata.json"), "w") as f:
        json.dump(meta, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "mlp"))
