#!/usr/bin/env python3
"""birtables.py IN OUT FIRST COUNT...: copies BIR proto IN to OUT with the
first function's const-table runs (Function.tables) replaced by the given
(first_set, count) pairs, to test how a reader takes runs it did not
write. No pairs: the function keeps no run (sets and locations only)."""
import sys

from npymodel import fields, pb


def field(f, w, v):
    """One field back in wire form, as fields() read it."""
    if w == 0:
        return pb.key(f, 0) + pb.varint(v)
    if w == 2:
        return pb.f_bytes(f, v)
    return pb.key(f, w) + v


data = open(sys.argv[1], "rb").read()
pairs = [int(x) for x in sys.argv[3:]]
runs = b"".join(pb.f_bytes(6, pb.key(1, 0) + pb.varint(pairs[k]) +
                           pb.key(2, 0) + pb.varint(pairs[k + 1]))
                for k in range(0, len(pairs), 2))
out, done = bytearray(), False
for f, w, v in fields(data):
    if f == 4 and w == 2 and not done:  # Module.functions
        body = b"".join(field(g, x, u) for g, x, u in fields(v) if g != 6) + runs
        out += pb.f_bytes(4, body)
        done = True
    else:
        out += field(f, w, v)
open(sys.argv[2], "wb").write(bytes(out))
