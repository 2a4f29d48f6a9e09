#!/usr/bin/env python3
"""chainmodel.py OUT_DIR N: a weight w that reaches a dot's weight operand
through N copy ops (a model of one layout op after another)."""
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
                                "tools", "py"))
import hlopb as pb  # noqa: E402

out, n = sys.argv[1], int(sys.argv[2])
os.makedirs(out + "/weights", exist_ok=True)
np.save(out + "/weights/w.npy", np.ones((4, 4), np.float32))
c = pb.Computation("main")
s = pb.shape([4, 4])
x = c.param("x", 0, s)
h = c.param("w", 1, s)
for i in range(n):
    h = c.add("c%d" % i, "copy", s, [h])
# dot(x, w...): lhs contracting dim 1, rhs contracting dim 0
d = c.add("d", "dot", s, [x, h], pb.f_bytes(30, pb.f_packed(1, [1]) + pb.f_packed(2, [0])))
r = c.add("out", "tuple", pb.tuple_shape(s), [d])
b, cid = c.encode(r)
open(out + "/model.hlo.pb", "wb").write(pb.module("chain", [(b, cid, "main")],
                                                   host_shape=c.program_shape(r)))
json.dump({"model_files": "model.hlo.pb", "weight_files": {"w": "weights/w.npy"}},
          open(out + "/metadata.json", "w"))
