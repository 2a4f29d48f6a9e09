"""A tiny HloModuleProto writer for examples and tests (wire format only).

Field numbers follow XLA's hlo.proto / xla_data.proto (see
../../dialect/hlo.proto). No protobuf library is needed.
"""

PRED, S8, S16, S32, S64, U8, U16, U32, U64, F16, F32, F64 = range(1, 13)
TUPLE, OPAQUE, C64, BF16, TOKEN, C128 = 13, 14, 15, 16, 17, 18
F8E5M2, F8E4M3FN, S4, U4 = 19, 20, 21, 22
F8E4M3B11FNUZ, F8E5M2FNUZ, F8E4M3FNUZ, S2, U2, F8E4M3, F8E3M4 = range(23, 30)
S1, U1 = 30, 31


def varint(n):
    if n < 0:
        n += 1 << 64
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def read_varint(buf, i):
    """The varint at BUF[I]: (its value, the index after it)."""
    n = shift = 0
    while True:
        b = buf[i]
        i += 1
        n |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return n, i


def key(field, wire):
    return varint(field << 3 | wire)


def f_int(field, n):
    """A varint field; proto3 omits zero."""
    return key(field, 0) + varint(n) if n else b""


def f_bytes(field, data):
    if isinstance(data, str):
        data = data.encode()
    return key(field, 2) + varint(len(data)) + data


def f_packed(field, values):
    if not values:
        return b""
    return f_bytes(field, b"".join(varint(v) for v in values))


def layout(rank):
    """XLA's default layout as XLA writes it."""
    return f_packed(1, list(range(rank - 1, -1, -1))) + f_int(16, 1)


def shape(dims, et=F32, dynamic=None):
    s = f_int(2, et) + f_packed(3, dims)
    if et not in (TUPLE, TOKEN, OPAQUE):
        s += f_bytes(5, layout(len(dims)))
    if dynamic:
        s += f_packed(6, [1 if d else 0 for d in dynamic])
    return s


def tuple_shape(*elts):
    return f_int(2, TUPLE) + b"".join(f_bytes(4, e) for e in elts)


def wrap_hloproto(module):
    """The HloProto wrapper form: field 1 = hlo_module."""
    return f_bytes(1, module)


class Computation:
    """Instructions are (id, shape) handles; ids count up from first_id."""

    def __init__(self, name, first_id=1):
        self.name = name
        self.instrs = []
        self.next_id = first_id
        self.params = []

    def add(self, name, opcode, shp, operands=(), extra=b"", iid=None,
            metadata=None, tail=b""):
        """extra: fields numbered below 35 (id); tail: fields above 36."""
        if iid is None:
            iid = self.next_id
        self.next_id = max(self.next_id, iid + 1)
        msg = f_bytes(1, name) + f_bytes(2, opcode) + f_bytes(3, shp)
        if metadata is not None:
            msg += f_bytes(7, metadata)
        msg += extra + f_int(35, iid) + f_packed(36, [o[0] for o in operands]) + tail
        self.instrs.append((iid, msg))
        return (iid, shp)

    def param(self, name, number, shp, **kw):
        h = self.add(name, "parameter", shp, extra=f_int(9, number), **kw)
        self.params.append((number, name, shp))
        return h

    def encode(self, root, comp_id=None, order=None, program_shape=True):
        """order: a list of instruction ids giving the stored order."""
        if comp_id is None:
            comp_id = self.next_id
        instrs = self.instrs
        if order is not None:
            by_id = dict(instrs)
            instrs = [(i, by_id[i]) for i in order]
        body = f_bytes(1, self.name) + b"".join(f_bytes(2, m) for _, m in instrs)
        if program_shape:
            body += f_bytes(4, self.program_shape(root))
        return body + f_int(5, comp_id) + f_int(6, root[0]), comp_id

    def program_shape(self, root):
        ps = sorted(self.params)
        return (b"".join(f_bytes(1, s) for _, _, s in ps) + f_bytes(2, root[1]) +
                b"".join(f_bytes(3, n) for _, n, _ in ps))


def module(name, computations, entry_index=-1, host_shape=None, module_id=1):
    """computations: list of (encoded_comp, comp_id, comp_name)."""
    entry = computations[entry_index]
    m = f_bytes(1, name) + f_bytes(2, entry[2])
    m += b"".join(f_bytes(3, c[0]) for c in computations)
    if host_shape is not None:
        m += f_bytes(4, host_shape)
    return m + f_int(5, module_id) + f_int(6, entry[1])


def literal(shp, field, data):
    """A LiteralProto with its shape and one data field (bytes or packed)."""
    return f_bytes(1, shp) + f_bytes(field, data)
