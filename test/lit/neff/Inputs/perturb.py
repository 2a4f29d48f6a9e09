"""Copies model directory SRC to DST and changes its weights, for
neff replace-weights tests:
  flip:NAME      one payload byte of NAME's .npy changed (dtype, shape kept)
  copy:DST:SRC   DST's file becomes a copy of SRC's (a new tie)
  reshape:NAME   NAME saved flat (a shape the NEFF's tensor does not have)
  astype:NAME    NAME saved as float64 (another dtype)
  extra:NAME     metadata.json names a weight NAME the model does not have
"""
import json
import os
import shutil
import sys

import numpy as np
import numpy.lib.format as fmt

src, dst, ops = sys.argv[1], sys.argv[2], sys.argv[3:]
shutil.copytree(src, dst)
meta_path = os.path.join(dst, "metadata.json")
meta = json.load(open(meta_path))
files = meta["weight_files"]


def path(name):
    return os.path.join(dst, files[name])


for op in ops:
    kind, _, rest = op.partition(":")
    if kind == "flip":
        p = path(rest)
        with open(p, "rb") as f:
            version = fmt.read_magic(f)
            fmt._read_array_header(f, version)
            start = f.tell()
        data = bytearray(open(p, "rb").read())
        if start == len(data):
            sys.exit("%s has no payload to change" % rest)
        data[start] ^= 1
        open(p, "wb").write(bytes(data))
    elif kind == "copy":
        a, b = rest.split(":")
        os.unlink(path(a))  # a file of its own, not a link into the source
        shutil.copyfile(path(b), path(a))
    elif kind == "reshape":
        arr = np.load(path(rest))
        np.save(path(rest), arr.reshape(-1)[:-1] if arr.size > 1 else arr.reshape(2, -1))
    elif kind == "astype":
        np.save(path(rest), np.load(path(rest)).astype(np.float64))
    elif kind == "extra":
        files[rest] = files[next(iter(files))]
    else:
        sys.exit("unknown operation " + op)
json.dump(meta, open(meta_path, "w"))
