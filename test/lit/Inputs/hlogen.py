#!/usr/bin/env python3
"""Writes HloModuleProto test inputs: hlogen.py SCENARIO OUT.

Scenarios are small modules built with tools/py/hlopb.py, each covering
one case of the importer (see the lit tests that use them).
"""
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "tools", "py"))
import hlopb as pb  # noqa: E402
from hlopb import Computation, f_bytes, f_int, f_packed, shape, tuple_shape  # noqa: E402


def simple(name="m", comp="main"):
    c = Computation(comp)
    x = c.param("x", 0, shape([4]))
    y = c.add("neg", "negate", shape([4]), [x])
    return c, y


def mod(c, root, **kw):
    """A module with one computation, written as XLA writes it."""
    body, cid = c.encode(root, **kw)
    return pb.module("m", [(body, cid, c.name)], host_shape=c.program_shape(root))


def all_types():
    c = Computation("main")
    elts = []
    cases = [  # (type, literal field, raw bytes of 2 elements)
        (pb.PRED, 2, f_packed(2, [1, 0])[2:]),
        (pb.S8, 15, b"\x80\x7f"), (pb.S16, 17, struct.pack("<2h", -2, 3)),
        (pb.S32, 4, b"".join(pb.varint(v) for v in (-5, 7))),
        (pb.S64, 5, b"".join(pb.varint(v) for v in (-1, 1 << 40))),
        (pb.U8, 3, b"\x00\xff"), (pb.U16, 16, struct.pack("<2H", 1, 65535)),
        (pb.U32, 6, b"".join(pb.varint(v) for v in (1, 4000000000))),
        (pb.U64, 7, b"".join(pb.varint(v) for v in (2, 1 << 63))),
        (pb.F16, 11, struct.pack("<2e", 1.5, -2.0)),
        (pb.BF16, 13, b"\x80\x3f\x00\xc0"),
        (pb.F32, 8, struct.pack("<2f", 0.5, -3.25)),
        (pb.F64, 9, struct.pack("<2d", 1e300, -0.125)),
        (pb.C64, 12, struct.pack("<4f", 1, 2, 3, 4)),
        (pb.C128, 18, struct.pack("<4d", 1, 2, 3, 4)),
        (pb.S4, 21, b"\x07\x0f"), (pb.U4, 22, b"\x01\x0e"),
        (pb.S2, 26, b"\x01\x03"), (pb.U2, 27, b"\x02\x03"),
        (pb.F8E5M2, 19, b"\x3c\xbc"), (pb.F8E4M3FN, 20, b"\x38\xb8"),
        (pb.F8E4M3B11FNUZ, 23, b"\x01\x02"), (pb.F8E5M2FNUZ, 24, b"\x03\x04"),
        (pb.F8E4M3FNUZ, 25, b"\x05\x06"), (pb.F8E4M3, 28, b"\x07\x08"),
    ]
    for et, field, data in cases:
        s = shape([2], et)
        elts.append(c.add("c%d" % et, "constant", s,
                          extra=f_bytes(8, pb.literal(s, field, data))))
    root = c.add("all", "tuple", tuple_shape(*[e[1] for e in elts]), elts)
    return mod(c, root)


def unsupported_type():
    c = Computation("main")
    x = c.param("p8", 0, shape([3], 34))  # BUFFER: no array type
    return mod(c, x)


def bad_operand():
    c = Computation("main")
    x = c.param("x", 0, shape([4]))
    y = c.add("neg", "negate", shape([4]), [(99, None)])
    del x
    return mod(c, y)


def no_entry():
    c, y = simple()
    body, cid = c.encode(y)
    return f_bytes(1, "m") + f_bytes(3, body)


def entry_missing():
    c, y = simple()
    body, cid = c.encode(y)
    return f_bytes(1, "m") + f_bytes(2, "nope") + f_bytes(3, body) + f_int(6, 77)


def cycle():
    c = Computation("main")
    c.param("x", 0, shape([4]))
    a = c.add("a", "negate", shape([4]), [(3, None)], iid=2)
    b = c.add("b", "negate", shape([4]), [a], iid=3)
    return mod(c, b)


def dup_id():
    c = Computation("main")
    x = c.param("x", 0, shape([4]))
    c.add("a", "negate", shape([4]), [x], iid=2)
    b = c.add("b", "negate", shape([4]), [x], iid=2)
    return mod(c, b)


def bad_root():
    c, y = simple()
    body, cid = c.encode((42, y[1]))
    return pb.module("m", [(body, cid, "main")])


def param_gap():
    c = Computation("main")
    x = c.param("x", 0, shape([4]))
    c.param("z", 2, shape([4]))
    return mod(c, x)


def out_of_order():
    # Stored: the add before its operands, the parameter last.
    c = Computation("main")
    c.add("sum", "add", shape([4]), [(3, None), (4, None)], iid=5)
    c.add("neg", "negate", shape([4]), [(2, None)], iid=3)
    c.add("k", "constant", shape([4]), iid=4,
          extra=f_bytes(8, pb.literal(shape([4]), 8, struct.pack("<4f", 1, 2, 3, 4))))
    c.param("x", 0, shape([4]), iid=2)
    return mod(c, (5, shape([4])))


def large_ids():
    base = 1 << 40
    c = Computation("main", first_id=base)
    x = c.param("x", 0, shape([4]), iid=base + 7)
    y = c.param("y", 1, shape([4]), iid=3)
    s = c.add("sum", "add", shape([4]), [x, y], iid=base * 3 + 1)
    body, cid = c.encode(s, comp_id=base * 5)
    return pb.module("m", [(body, cid, "main")], host_shape=c.program_shape(s))


def unknown_fields():
    # Canonical placement: unknown fields after every known one.
    c = Computation("main")
    x = c.param("x", 0, shape([4]))
    y = c.add("neg", "negate", shape([4]), [x],
              tail=f_bytes(998, b"opaque-bytes") + f_int(999, 12345))
    return mod(c, y) + f_bytes(500, b"module-level unknown")


def unknown_fields_inside():
    # Not canonical: unknown fields between known ones (a writer other than
    # XLA's); they come back after the known fields.
    c = Computation("main")
    x = c.param("x", 0, shape([4]))
    y = c.add("neg", "negate", shape([4]), [x],
              extra=f_int(999, 12345) + f_bytes(998, b"opaque-bytes"))
    return mod(c, y)


def dynamic():
    c = Computation("main")
    x = c.param("x", 0, shape([4, 3], dynamic=[True, False]))
    y = c.add("neg", "negate", shape([4, 3], dynamic=[True, False]), [x])
    return mod(c, y)


def hetero_tuple():
    c = Computation("main")
    a = c.param("a", 0, shape([2]))
    b = c.param("b", 1, shape([], pb.S32))
    t = c.add("t", "tuple", tuple_shape(a[1], b[1], a[1], a[1]), [a, b, a, a])
    tok = c.add("tok", "after-all", shape([], pb.TOKEN))
    t2 = c.add("t2", "tuple", tuple_shape(t[1], tok[1]), [t, tok])
    return mod(c, t2)


def _wide(n):
    """A root tuple of N + 1 operands whose types alternate (a run of equal
    types each), the last a custom-call over the other N."""
    c = Computation("main")
    a = c.param("a", 0, shape([2]))
    b = c.param("b", 1, shape([3]))
    ops = [a if i % 2 == 0 else b for i in range(n)]
    cc = c.add("cc", "custom-call", shape([2]), ops)
    t = c.add("t", "tuple", tuple_shape(*[o[1] for o in ops + [cc]]), ops + [cc])
    return mod(c, t)


def wide_tuple():
    return _wide(100)


def too_wide_tuple():
    return _wide(1100)


def generic_ops():
    c = Computation("main")
    a = c.param("a", 0, shape([2]))
    u = c.add("u", "my-new-opcode", shape([2]), [a, a])
    # (an opcode the shape verifier leaves alone: it refuses an add of three)
    s = c.add("s", "stochastic-convert", shape([2]), [a, u, a])
    # after-all takes any number of one type; here two (a token, an array)
    tok = c.add("tok", "after-all", shape([], pb.TOKEN))
    aa = c.add("aa", "after-all", shape([], pb.TOKEN), [tok, s])
    t = c.add("t", "tuple", tuple_shape(s[1], aa[1]), [s, aa])
    return mod(c, t)


def tuple_literal():
    c = Computation("main")
    ts = tuple_shape(shape([], pb.F32), shape([], pb.S32))
    lit = f_bytes(1, ts) + f_bytes(10, pb.literal(shape([], pb.F32), 8, struct.pack("<f", 2.0))) \
        + f_bytes(10, pb.literal(shape([], pb.S32), 4, pb.varint(9)))
    k = c.add("k", "constant", ts, extra=f_bytes(8, lit))
    return mod(c, k)


def empty_literal():
    """An s32[] constant whose literal holds no element."""
    c = Computation("main")
    z = c.add("z", "constant", shape([], pb.S32),
              extra=f_bytes(8, pb.literal(shape([], pb.S32), 4, b"")))
    return mod(c, z)


def multi_comp():
    body = Computation("add_one", first_id=1)
    p = body.param("p", 0, shape([]))
    one = body.add("one", "constant", shape([]),
                   extra=f_bytes(8, pb.literal(shape([]), 8, struct.pack("<f", 1))))
    r = body.add("r", "add", shape([]), [p, one])
    b_enc, b_id = body.encode(r)
    main = Computation("main", first_id=10)
    x = main.param("x", 0, shape([]))
    call = main.add("call", "call", shape([]), [x], tail=f_packed(38, [b_id]))
    m_enc, m_id = main.encode(call)
    # Entry first, callee after: the entry is not the last computation.
    return pb.module("m", [(m_enc, m_id, "main"), (b_enc, b_id, "add_one")], entry_index=0,
                     host_shape=main.program_shape(call))


def zero_size():
    c = Computation("main")
    k = c.add("k", "constant", shape([0, 3]), extra=f_bytes(8, f_bytes(1, shape([0, 3]))))
    return mod(c, k)


def deep_tuple():
    # A parameter shape nested 10,000 tuples deep (~280 KB).
    s = shape([2])
    for _ in range(10000):
        s = f_int(2, pb.TUPLE) + f_bytes(4, s)
    c = Computation("main")
    x = c.param("x", 0, s)
    return mod(c, x)


def deep_tuple_field_zero():
    # deep_tuple with a field numbered 0 (a key written long, 0x80 0x00)
    # opening every level: protobuf-c reads such a level as a message.
    s = shape([2])
    for _ in range(10000):
        s = b"\x80\x00\x00" + f_int(2, pb.TUPLE) + f_bytes(4, s)
    c = Computation("main")
    x = c.param("x", 0, s)
    return mod(c, x)


def tab_name():
    # A module name with a tab and a newline: still a bare module.
    c, y = simple()
    body, cid = c.encode(y)
    return pb.module("my\tmodel\n", [(body, cid, "main")], host_shape=c.program_shape(y))


def _named(n):
    c, y = simple()
    body, cid = c.encode(y)
    return pb.module("n" * n, [(body, cid, "main")], host_shape=c.program_shape(y))


def name_35():
    # the binary starts "\n#", like an MLIR attribute alias
    return _named(35)


def name_33():
    # the binary starts "\n!", like an MLIR type alias
    return _named(33)


def _empty_name(comp, param):
    c = Computation(comp)
    a = c.param(param, 0, shape([2]))
    t = c.add("t", "tuple", tuple_shape(a[1]), [a])
    body, cid = c.encode(t)
    return pb.module("m", [(body, cid, comp)], host_shape=c.program_shape(t))


def empty_comp_name():
    # The entry computation is named "".
    return _empty_name("", "x")


def empty_param_name():
    # The entry's parameter is named "".
    return _empty_name("main", "")


def dup_comp_ids():
    a = Computation("a", first_id=1)
    ya = a.add("n", "negate", shape([4]), [a.param("x", 0, shape([4]))])
    b = Computation("b", first_id=10)
    yb = b.add("n2", "negate", shape([4]), [b.param("x2", 0, shape([4]))])
    ea, _ = a.encode(ya, comp_id=100)
    eb, _ = b.encode(yb, comp_id=100)
    return pb.module("m", [(ea, 100, "a"), (eb, 100, "b")], entry_index=0,
                     host_shape=a.program_shape(ya))


def one_bit():
    # 1-element and several-element U1/S1 literals keep their values.
    c = Computation("main")
    u = c.add("u", "constant", shape([1], pb.U2 + 4), extra=f_bytes(8, pb.literal(shape([1], 31), 31, b"\x01")))
    v = c.add("v", "constant", shape([3], 30), extra=f_bytes(8, pb.literal(shape([3], 30), 30, b"\x01\x00\x01")))
    t = c.add("t", "tuple", tuple_shape(u[1], v[1]), [u, v])
    return mod(c, t)


def param_operands():
    # A parameter that lists operand ids (odd, but kept as it is).
    c = Computation("main")
    x = c.add("x", "parameter", shape([4]), [(2, None)], extra=f_int(9, 0), iid=1)
    c.params.append((0, "x", shape([4])))
    y = c.add("y", "negate", shape([4]), [x], iid=2)
    return mod(c, y)


def bad_instruction():
    """An instruction with a field of wire type 7 (no such type)."""
    c = Computation("main")
    x = c.param("x", 0, shape([4]))
    y = c.add("neg", "negate", shape([4]), [x], tail=b"\xff\x07")
    return mod(c, y)


def _layout_literal(minor_to_major):
    """An f32[2,3] constant 1..6 whose literal shape has the layout given:
    XLA keeps the data in that order, so {0,1} means [[1,3,5],[2,4,6]]."""
    s = (f_int(2, pb.F32) + f_packed(3, [2, 3]) +
         f_bytes(5, f_packed(1, minor_to_major) + f_int(16, 1)))
    c = Computation("main")
    k = c.add("k", "constant", s,
              extra=f_bytes(8, f_bytes(1, s) + f_bytes(8, struct.pack("<6f", 1, 2, 3, 4, 5, 6))))
    x = c.param("x", 0, shape([2, 3]))
    y = c.add("y", "add", shape([2, 3]), [x, k])
    return mod(c, y)


def ids_across_computations():
    """Two computations that both use instruction id 1 (ids are unique in
    an HLO module)."""
    f = Computation("helper")
    a = f.param("a", 0, shape([4]), iid=1)
    fb, fid = f.encode(a, comp_id=10)
    c = Computation("main")
    x = c.param("x", 0, shape([4]), iid=1)
    y = c.add("y", "negate", shape([4]), [x], iid=2)
    body, cid = c.encode(y, comp_id=11)
    return pb.module("m", [(fb, fid, "helper"), (body, cid, "main")],
                     host_shape=c.program_shape(y))


def column_major_literal():
    return _layout_literal([0, 1])


def row_major_literal():
    return _layout_literal([1, 0])


# A layout holding a key that reads as field number 0 (0x80 0x00: a varint
# written long), which is no protobuf field.
_FIELD_ZERO_LAYOUT = f_int(2, pb.F32) + f_packed(3, [4]) + f_bytes(5, b"\x80\x00\x01")


def field_zero_instruction():
    c = Computation("main")
    x = c.param("x", 0, _FIELD_ZERO_LAYOUT)
    y = c.add("neg", "negate", shape([4]), [x])
    return mod(c, y)


def field_zero_module():
    c, y = simple()
    body, cid = c.encode(y)
    host = f_bytes(1, _FIELD_ZERO_LAYOUT) + f_bytes(2, shape([4])) + f_bytes(3, "x")
    return pb.module("m", [(body, cid, "main")], host_shape=host)


def _bad_name(field, bad):
    """A module whose string FIELD holds the bytes BAD (b"\\xff", not UTF-8,
    or b"\\0"). The entry, main, calls add_one; its instruction 3 is where
    a bad instruction name or opcode goes."""
    def n(name, here):
        return name.encode()[:2] + bad + name.encode()[2:] if field == here else name
    body = Computation(n("add_one", "comp"), first_id=1)
    p = body.param("p", 0, shape([]))
    one = body.add("one", "constant", shape([]),
                   extra=f_bytes(8, pb.literal(shape([]), 8, struct.pack("<f", 1))))
    r = body.add("r", "add", shape([]), [p, one])
    b_enc, b_id = body.encode(r)
    main = Computation("main", first_id=10)
    x = main.param(n("x", "param"), 0, shape([]))
    y = main.param("y", 1, shape([]))
    # where the constant came from (inline-weights writes it)
    origin = f_bytes(536870000, f_bytes(1, n("/w.npy", "weight-file")) +
                     f_bytes(2, n("k", "weight-param")) + f_int(3, 1))
    k = main.add("k", "constant", shape([]),
                 extra=f_bytes(8, pb.literal(shape([]), 8, struct.pack("<f", 2))), tail=origin)
    s = main.add(n("sum", "instr"), n("add", "opcode"), shape([]), [x, y])
    call = main.add("call", "call", shape([]), [s], tail=f_packed(38, [b_id]))
    m = main.add("m", "multiply", shape([]), [call, k])
    m_enc, m_id = main.encode(m)
    if field == "param-names":  # the program shape's, not the instruction's
        ps = main.program_shape(m)
        m_enc = m_enc.replace(f_bytes(4, ps), f_bytes(4, ps.replace(
            f_bytes(3, "x"), f_bytes(3, b"x" + bad), 1)), 1)
    mod = pb.module(n("mlp", "module"), [(m_enc, m_id, "main"), (b_enc, b_id, "add_one")],
                    entry_index=0, host_shape=main.program_shape(m))
    if field == "entry":
        mod = mod.replace(f_bytes(2, "main"), f_bytes(2, b"ma" + bad + b"in"), 1)
    return mod


SCENARIOS = {n.replace("_", "-"): f for n, f in list(globals().items())
             if callable(f) and not n.startswith("_") and
             n not in ("simple", "mod", "Computation", "f_bytes", "f_int", "f_packed", "shape",
                       "tuple_shape")}


def strip_field(data, field):
    """DATA (a message) without its top-level fields numbered FIELD."""
    out, i = b"", 0
    while i < len(data):
        start = i
        k, i = pb.read_varint(data, i)
        wire = k & 7
        if wire == 0:
            _, i = pb.read_varint(data, i)
        elif wire == 2:
            n, i = pb.read_varint(data, i)
            i += n
        else:
            i += {1: 8, 5: 4}[wire]
        if k >> 3 != field:
            out += data[start:i]
    return out


def main():
    if len(sys.argv) == 4 and sys.argv[1] in ("wrap", "wrap-split", "wrap-bad", "wrap-cut",
                                              "wrap-empty-first"):
        data = open(sys.argv[2], "rb").read()
        if sys.argv[1] == "wrap":
            out = pb.wrap_hloproto(data)
        elif sys.argv[1] == "wrap-split":
            # the module in two hlo_module fields, cut after its first field:
            # protobuf merges them into the one module
            cut = 1 + len(pb.varint(data[1])) + data[1] if data[1] < 0x80 else None
            assert cut, "first field too long for this test"
            out = pb.wrap_hloproto(data[:cut]) + pb.wrap_hloproto(data[cut:])
        elif sys.argv[1] == "wrap-empty-first":
            # an empty hlo_module field, then the module
            out = pb.wrap_hloproto(b"") + pb.wrap_hloproto(data)
        elif sys.argv[1] == "wrap-cut":
            # the module cut every 5 bytes, each piece an hlo_module field:
            # no piece is a message by itself, so none may be merged (the
            # depth of a nested field cut across pieces hides from a check
            # of the pieces one at a time)
            out = b"".join(pb.wrap_hloproto(data[i:i + 5]) for i in range(0, len(data), 5))
        else:
            # a buffer_assignment whose bytes are no message (wire type 7)
            out = pb.wrap_hloproto(data) + f_bytes(3, b"\x0f")
        open(sys.argv[3], "wb").write(out)
        return
    if len(sys.argv) == 5 and sys.argv[1] == "bad-name":
        # hlogen.py bad-name FIELD {utf8,nul} OUT
        bad = {"utf8": b"\xff", "nul": b"\0"}[sys.argv[3]]
        open(sys.argv[4], "wb").write(_bad_name(sys.argv[2], bad))
        return
    if len(sys.argv) == 4 and sys.argv[1] == "strip-host":
        # the module without its host_program_shape (field 4)
        open(sys.argv[3], "wb").write(strip_field(open(sys.argv[2], "rb").read(), 4))
        return
    if len(sys.argv) != 3 or sys.argv[1] not in SCENARIOS:
        sys.exit("usage: hlogen.py {%s} OUT | hlogen.py wrap IN OUT" % ",".join(sorted(SCENARIOS)))
    data = SCENARIOS[sys.argv[1]]()
    open(sys.argv[2], "wb").write(data)


if __name__ == "__main__":
    main()
