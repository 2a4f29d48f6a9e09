#!/usr/bin/env python3
"""birtables.py IN OUT FIRST COUNT...: copies BIR proto IN to OUT with the
first function's const-table runs (Function.tables) replaced by the given
(first_set, count) pairs, to test how a reader takes runs it did not
write. No pairs: the function keeps no run (sets and locations only)."""
import sys


def varint(buf, i):
    n = shift = 0
    while True:
        b = buf[i]
        i += 1
        n |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return n, i


def enc(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def fields(buf):
    """(field, wire, raw bytes of the whole field, payload) in order."""
    i, out = 0, []
    while i < len(buf):
        start = i
        tag, i = varint(buf, i)
        f, w = tag >> 3, tag & 7
        if w == 0:
            v, i = varint(buf, i)
        elif w == 2:
            n, i = varint(buf, i)
            v, i = buf[i:i + n], i + n
        elif w == 1:
            v, i = buf[i:i + 8], i + 8
        elif w == 5:
            v, i = buf[i:i + 4], i + 4
        else:
            raise ValueError("wire type %d" % w)
        out.append((f, w, buf[start:i], v))
    return out


def message(field, payload):
    return enc(field << 3 | 2) + enc(len(payload)) + payload


data = open(sys.argv[1], "rb").read()
pairs = [int(x) for x in sys.argv[3:]]
runs = b"".join(message(6, enc(1 << 3) + enc(pairs[k]) + enc(2 << 3) + enc(pairs[k + 1]))
                for k in range(0, len(pairs), 2))
out, done = bytearray(), False
for f, w, raw, v in fields(data):
    if f == 4 and w == 2 and not done:  # Module.functions
        body = b"".join(r for g, _, r, _ in fields(v) if g != 6) + runs
        out += message(4, body)
        done = True
    else:
        out += raw
open(sys.argv[2], "wb").write(bytes(out))
