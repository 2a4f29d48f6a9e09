#!/usr/bin/env python3
"""aliasmodel.py OUT_DIR: a model whose module names entry parameters by
number: an input/output alias and a buffer donor for each of w (0) and x
(1), a cross-program prefetch of x, and one sharding per parameter
(w MAXIMAL, x REPLICATED). w is a weight."""
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "tools", "py"))
import hlopb as pb  # noqa: E402
from hlopb import f_bytes, f_int, f_packed  # noqa: E402

out = sys.argv[1]
m = pb.Computation("main")
w = m.param("w", 0, pb.shape([4]))
x = m.param("x", 1, pb.shape([4]))
r = m.add("r", "add", pb.shape([4]), [w, x])
body, cid = m.encode(r)
mod = pb.module("alias", [(body, cid, "main")], host_shape=m.program_shape(r))
# alias entries: parameter_number 2, kind 4 (x's entry first, then w's);
# x's written kind first and w's with an explicit parameter_number 0, as a
# writer other than XLA's may: not canonical, so re-packing would show
mod += f_bytes(8, f_bytes(1, f_int(4, 1) + f_int(2, 1)) + f_bytes(1, b"\x10\x00" + f_int(4, 2)))
mod += f_bytes(10, f_int(1, 1) + f_int(3, 7))  # prefetch x at offset 7
mod += f_bytes(14, f_int(1, 1) + f_packed(4, [0])) + f_bytes(14, f_int(1, 0) + f_bytes(7, b"r"))
mod += f_bytes(18, f_bytes(1, f_int(1, 1)) + f_bytes(1, f_bytes(2, b"\x00")))  # donors x, w{0}
os.makedirs(os.path.join(out, "weights"), exist_ok=True)
open(os.path.join(out, "model.hlo.pb"), "wb").write(mod)
np.save(os.path.join(out, "weights", "w.npy"), np.ones(4, np.float32))
json.dump({"model_files": "model.hlo.pb", "weight_files": {"w": "weights/w.npy"}},
          open(os.path.join(out, "metadata.json"), "w"))
