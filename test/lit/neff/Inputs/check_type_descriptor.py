"""Checks each file variable's type_descriptor against its .npy member's
header (read by numpy's own header parser) and prints one line when all
match."""
import json
import os
import sys

import numpy.lib.format as fmt

NAMES = {"|u1": "uint8", "<f4": "float32", "<f2": "float16", "|i1": "int8", "<i4": "int32",
         "<i8": "int64", "<f8": "float64", "|b1": "bool", "<V2": "bfloat16"}

folder = sys.argv[1]
defs = json.load(open(os.path.join(folder, "def.json")))
n = 0
for v in defs["var"]:
    if v["type"] != "file":
        continue
    with open(os.path.join(folder, v["file_name"]), "rb") as f:
        version = fmt.read_magic(f)
        shape, _, dtype = fmt._read_array_header(f, version)
    td = v["type_descriptor"]
    got = (NAMES.get(dtype.str, dtype.str), list(shape))
    want = (td["dtype"], td["shape"])
    if got != want:
        sys.exit("%s: header %s, type_descriptor %s" % (v["file_name"], got, want))
    n += 1
if not n:
    sys.exit("no file variables")
print("all file variables match their .npy headers")
