#!/usr/bin/env python3
"""Reads a NEFF with Python's tarfile and numpy: neffcheck.py NEFF MODEL_DIR.
Prints what it found; exits 1 when a weight does not match its .npy (a
weight in a shared uint8 member is compared at its const_ap_offset)."""
import io
import json
import os
import sys
import tarfile

import numpy as np

neff, model = sys.argv[1], sys.argv[2]
data = open(neff, "rb").read()
t = tarfile.open(fileobj=io.BytesIO(data[1024:]), mode="r:gz")
ms = t.getmembers()
ok = all(m.uname == "nobody" and m.uid == 0 and m.gid == 0 and m.mtime == 0 for m in ms)
times = any(k in m.pax_headers for m in ms for k in ("atime", "ctime", "mtime", "LIBARCHIVE.creationtime"))
print("tarfile: %d members, %s, mtime 0, %s" % (len(ms), "all nobody" if ok else "NOT nobody",
                                                 "pax time records!" if times else "no pax time records"))
d = json.load(t.extractfile("sg00/def.json"))
byname = {v["name"]: v for v in d["var"] if v["type"] == "pointer"}
files = {v["var_id"]: v for v in d["var"] if v["type"] == "file"}
names = {v["file_name"] for v in files.values()}
stray = sorted({v["backing_buf"] for v in byname.values()} - names)
print("backing_buf: %s" % ("each names a file member" if not stray else "NOT a member: " + " ".join(stray)))
if byname["w2"]["referenced_var_id"] == byname["w3"]["referenced_var_id"]:
    print("w2 and w3 share referenced_var_id %d" % byname["w2"]["referenced_var_id"])
bad = 0
meta = json.load(open(os.path.join(model, "metadata.json")))
for name, rel in sorted(meta["weight_files"].items()):
    if name.startswith("b"):
        continue
    member = "sg00/" + files[byname[name]["referenced_var_id"]]["file_name"]
    got = np.load(io.BytesIO(t.extractfile(member).read()))
    want = np.load(os.path.join(model, rel))
    if got.dtype == np.uint8 and want.dtype != np.uint8:
        # a shared file: the tensor's bytes sit at its const_ap_offset
        off, size = byname[name]["const_ap_offset"], byname[name]["size"]
        same = got.tobytes()[off:off + size] == np.ascontiguousarray(want).tobytes()
    else:
        same = got.dtype == want.dtype and np.array_equal(got, want)
    bad += not same
    print("numpy: %s %s" % (name, "equal" if same else "DIFFERENT"))
sys.exit(1 if bad else 0)
