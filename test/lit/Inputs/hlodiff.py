#!/usr/bin/env python3
"""Compares two HloModuleProto files field by field: hlodiff.py A.pb B.pb

For HLO text round trips (proto -> text -> proto): ids are compared by
what they name (instruction ids by the instruction's name, computation
ids by the computation's), since text carries names, not ids; an empty
submessage is told apart from an absent one ("empty only in B"). Prints
one line per differing field path (indices as [*]), sorted, then "end".
Wire format only; no protobuf library is needed.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
                                "tools", "py"))
from hlopb import read_varint as varint  # noqa: E402

# field number -> (name, submessage type or None); fields not listed are
# compared as their raw bytes
SCHEMA = {
    "Module": {1: ("name", None), 2: ("entry_computation_name", None),
               3: ("computations", "Computation"), 4: ("host_program_shape", "ProgramShape"),
               5: ("id", None), 6: ("entry_computation_id", None), 7: ("schedule", "Any"),
               8: ("input_output_alias", "Any"), 17: ("stack_frame_index", "Any"),
               18: ("buffer_donor", "Any"), 19: ("frontend_attributes", "Any")},
    "Computation": {1: ("name", None), 2: ("instructions", "Instruction"),
                    4: ("program_shape", "ProgramShape"), 5: ("id", None),
                    6: ("root_id", None), 7: ("is_fusion_computation", None),
                    8: ("execution_thread", None)},
    "Instruction": {1: ("name", None), 2: ("opcode", None), 3: ("shape", "Shape"),
                    7: ("metadata", "Any"), 8: ("literal", "Literal"),
                    35: ("id", None), 36: ("operand_ids", None),
                    37: ("control_predecessor_ids", None),
                    38: ("called_computation_ids", None), 68: ("frontend_attributes", "Any"),
                    82: ("statistics_viz", "Any")},
    "ProgramShape": {1: ("parameters", "Shape"), 2: ("result", "Shape"),
                     3: ("parameter_names", None)},
    "Shape": {2: ("element_type", None), 3: ("dimensions", None),
              4: ("tuple_shapes", "Shape"), 5: ("layout", "Any"),
              6: ("is_dynamic_dimension", None)},
    "Literal": {1: ("shape", "Shape")},
    "Any": {},
}


def fields(buf):
    """[(number, wire type, value)] in order."""
    out, i = [], 0
    while i < len(buf):
        key, i = varint(buf, i)
        num, wire = key >> 3, key & 7
        if wire == 0:
            v, i = varint(buf, i)
        elif wire == 1:
            v, i = buf[i:i + 8], i + 8
        elif wire == 5:
            v, i = buf[i:i + 4], i + 4
        elif wire == 2:
            n, i = varint(buf, i)
            v, i = buf[i:i + n], i + n
        else:
            raise ValueError("bad wire type")
        out.append((num, wire, v))
    return out


def ids(v):
    """A packed (or single) varint list."""
    if isinstance(v, int):
        return [v]
    out, i = [], 0
    while i < len(v):
        n, i = varint(v, i)
        out.append(n)
    return out


def index_module(buf):
    """instruction id -> name, computation id -> name."""
    ins, comps = {}, {}
    for num, _, v in fields(buf):
        if num != 3:
            continue
        cname, cid = None, 0
        for cn, _, cv in fields(v):
            if cn == 1:
                cname = cv.decode()
            elif cn == 5:
                cid = cv
            elif cn == 2:
                iname, iid = None, 0
                for fn, _, fv in fields(cv):
                    if fn == 1:
                        iname = fv.decode()
                    elif fn == 35:
                        iid = fv
                ins[iid] = iname
        comps[cid] = cname
    return ins, comps


def tree(buf, kind, names):
    """{field name: [values]}: submessages as trees, ids as names."""
    ins, comps = names
    out = {}
    for num, wire, v in fields(buf):
        name, sub = SCHEMA[kind].get(num, (str(num), None))
        if kind == "Instruction" and num in (35,):
            continue  # the instruction's own id: its name stands for it
        if (kind, num) in (("Module", 5), ("Computation", 5)):
            continue  # module id: not in any text; a computation's: its name
        if kind == "Instruction" and num in (36, 37):
            v = tuple(ins.get(x, "?%d" % x) for x in ids(v))
        elif kind == "Instruction" and num == 38:
            v = tuple(comps.get(x, "?%d" % x) for x in ids(v))
        elif (kind, num) == ("Computation", 6):
            v = ins.get(v, "?%d" % v)
        elif (kind, num) == ("Module", 6):
            v = comps.get(v, "?%d" % v)
        elif sub == "Any":
            v = ("message", bytes(v))
        elif sub:
            v = tree(v, sub, names)
        elif wire == 2:
            v = bytes(v)
        out.setdefault(name, []).append(v)
    return out


def empty(v):
    return (isinstance(v, dict) and not v) or v == ("message", b"")


def compare(a, b, path, out):
    for key in sorted(set(a) | set(b), key=str):
        va, vb = a.get(key, []), b.get(key, [])
        p = path + "." + key if path else key
        if len(va) != len(vb):
            if len(va) == 1 and not vb and empty(va[0]):
                out.add(p + ": empty only in A")
            elif len(vb) == 1 and not va and empty(vb[0]):
                out.add(p + ": empty only in B")
            else:
                out.add(p + ": differs")
            continue
        for x, y in zip(va, vb):
            if isinstance(x, dict) and isinstance(y, dict):
                compare(x, y, p + ("[*]" if len(va) > 1 else ""), out)
            elif x != y:
                out.add(p + ": differs")


def main():
    a, b = (open(f, "rb").read() for f in sys.argv[1:3])
    out = set()
    compare(tree(a, "Module", index_module(a)), tree(b, "Module", index_module(b)), "", out)
    for line in sorted(out):
        print(line)
    print("end")


if __name__ == "__main__":
    main()
