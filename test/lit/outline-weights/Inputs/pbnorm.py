#!/usr/bin/env python3
"""The differences outline-weights -> inline-weights leaves, taken out.

  pbnorm.py ORIG.pb BACK.pb OUT_ORIG.pb OUT_BACK.pb

The constants inline-weights planted (those with field 536870000, its
weight origin, in BACK) differ from the constants they were in ORIG in
three ways only (docs/passes.md#outline-weights):
  - field 536870000 itself;
  - the empty frontend_attributes (68) and statistics_viz (82) XLA writes
    on every instruction: a planted constant gets its parameter's shape
    and metadata only;
  - the literal's shape (field 8.1): export makes it from the type and the
    instruction's layout, where XLA writes the instruction's whole shape.
This removes exactly those from the instructions of those ids, in both
files; everything else is copied byte for byte (nested lengths written
again). Prints how many planted constants it found. Wire format only.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..",
                                "tools", "py"))
from hlopb import read_varint, varint  # noqa: E402

ORIGIN = 536870000


def fields(buf):
    """[(number, wire, raw bytes of the whole field, payload or None)]"""
    out, i = [], 0
    while i < len(buf):
        start = i
        key, i = read_varint(buf, i)
        num, wire = key >> 3, key & 7
        payload = None
        if wire == 0:
            _, i = read_varint(buf, i)
        elif wire == 1:
            i += 8
        elif wire == 5:
            i += 4
        elif wire == 2:
            n, i = read_varint(buf, i)
            payload = buf[i:i + n]
            i += n
        else:
            sys.exit("unsupported wire type %d" % wire)
        out.append((num, wire, buf[start:i], payload))
    return out


def ldelim(num, payload):
    return varint(num << 3 | 2) + varint(len(payload)) + payload


def instr_id(ins):
    for num, wire, raw, _ in fields(ins):
        if num == 35 and wire == 0:
            return read_varint(raw, len(varint(35 << 3)))[0]
    return None


def rewrite(module, edit_instr):
    out = b""
    for num, wire, raw, payload in fields(module):
        if num == 3 and wire == 2:  # computations
            comp = b""
            for cn, cw, craw, cpay in fields(payload):
                comp += ldelim(2, edit_instr(cpay)) if cn == 2 and cw == 2 else craw
            out += ldelim(3, comp)
        else:
            out += raw
    return out


def main(orig_path, back_path, out_orig, out_back):
    orig = open(orig_path, "rb").read()
    back = open(back_path, "rb").read()
    planted = set()

    def find(ins):
        if any(n == ORIGIN for n, _, _, _ in fields(ins)):
            planted.add(instr_id(ins))
        return ins

    def strip(ins):
        if instr_id(ins) not in planted:
            return ins
        out = b""
        for n, w, raw, p in fields(ins):
            if n == ORIGIN:
                continue
            if n == 8 and w == 2:  # the literal, without its shape
                raw = ldelim(8, b"".join(r for ln, _, r, _ in fields(p) if ln != 1))
            out += raw
        return out

    rewrite(back, find)
    open(out_orig, "wb").write(rewrite(orig, strip))
    open(out_back, "wb").write(rewrite(back, strip))
    print("planted constants: %d" % len(planted))


if __name__ == "__main__":
    main(*sys.argv[1:5])
