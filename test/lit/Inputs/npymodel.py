#!/usr/bin/env python3
"""Builds model directories for the inline-weights tests, with real numpy.

    npymodel.py SCENARIO OUT_DIR      write a model directory
    npymodel.py check OUT.pb DIR      compare the literals of an exported
                                      module with what numpy reads from
                                      DIR's weight files (exit 1 on a
                                      difference)

Every model is one entry computation whose parameters are the weights (and
maybe a runtime input "x"), returning a tuple of all parameters.
"""
import json
import os
import struct
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "tools", "py"))
import hlopb as pb  # noqa: E402

# numpy dtype string -> XLA PrimitiveType
PRIM = {"bool": pb.PRED, "int8": pb.S8, "int16": pb.S16, "int32": pb.S32,
        "int64": pb.S64, "uint8": pb.U8, "uint16": pb.U16, "uint32": pb.U32,
        "uint64": pb.U64, "float16": pb.F16, "float32": pb.F32,
        "float64": pb.F64, "complex64": pb.C64, "complex128": pb.C128}


def sample(dtype, shape, seed):
    rng = np.random.default_rng(seed)
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return rng.integers(0, 2, size=shape).astype(dt)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        return rng.integers(info.min, info.max, size=shape, dtype=dt, endpoint=True)
    if dt.kind == "c":
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dt)
    return rng.standard_normal(shape).astype(dt)


def raw_npy(path, descr, shape, data, version=(1, 0), fortran=False):
    """An .npy written by hand, for dtypes numpy cannot save (ml_dtypes)."""
    shp = "(%s)" % (", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else ""))
    d = "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (descr, fortran, shp)
    pre = 10 if version[0] == 1 else 12
    total = (pre + len(d) + 1 + 63) // 64 * 64
    hdr = d + " " * (total - pre - len(d) - 1) + "\n"
    lenf = struct.pack("<H", len(hdr)) if pre == 10 else struct.pack("<I", len(hdr))
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY" + bytes(version) + lenf + hdr.encode("latin1") + data)


class Model:
    def __init__(self, out):
        self.out = out
        self.params = []  # (name, prim, shape, npy relative path or None)
        self.root_params = None  # return only the first N parameters
        os.makedirs(os.path.join(out, "weights"), exist_ok=True)

    def weight(self, name, arr, prim=None, fname=None, save=None):
        rel = "weights/%s.npy" % (fname or name)
        path = os.path.join(self.out, rel)
        if save is not None:
            save(path)
        else:
            np.save(path, arr)
        if prim is None:
            prim = PRIM[np.dtype(arr.dtype).name]
        self.params.append((name, prim, list(arr.shape) if arr is not None else [], rel))
        return rel

    def input(self, name, prim, shape):
        self.params.append((name, prim, shape, None))

    def hlo(self):
        c = pb.Computation("main")
        handles = [c.param(n, i, pb.shape(s, p)) for i, (n, p, s, _) in enumerate(self.params)]
        if self.root_params is not None:
            handles = handles[:self.root_params]
        root = c.add("out", "tuple", pb.tuple_shape(*[h[1] for h in handles]), handles)
        order = None
        if getattr(self, "params_stored_reversed", False):
            order = [i for i, _ in reversed(c.instrs[:len(self.params)])] + [root[0]]
        body, cid = c.encode(root, order=order)
        return pb.module(getattr(self, "module_name", "model"), [(body, cid, "main")],
                         host_shape=c.program_shape(root))

    def write(self, form="object", wrapper=False, model_name="model.hlo.pb", extra_meta=None):
        data = self.hlo()
        if wrapper:
            data = pb.wrap_hloproto(data)
        with open(os.path.join(self.out, model_name), "wb") as f:
            f.write(data)
        if form == "object":
            wf = {n: rel for n, _, _, rel in self.params if rel}
        elif form == "numbers":
            wf = {str(i): rel for i, (_, _, _, rel) in enumerate(self.params) if rel}
        else:
            wf = [rel for _, _, _, rel in self.params]
        meta = {"model_files": [model_name], "weight_files": wf, "other": {"ignored": True}}
        if extra_meta:
            meta.update(extra_meta)
        with open(os.path.join(self.out, "metadata.json"), "w") as f:
            json.dump(meta, f, indent=1)


def scenario_dtypes(out):
    m = Model(out)
    for i, name in enumerate(PRIM):
        m.weight("w_" + name, sample(name, (2, 3), i))
        dt = np.dtype(name)
        if dt.itemsize > 1:  # the same type stored big-endian
            m.weight("be_" + name, sample(name, (3,), 100 + i).astype(dt.newbyteorder(">")),
                     prim=PRIM[name])
    # ml_dtypes types saved as raw void / '<f1' bytes, typed by the parameter.
    bf = np.array([0x3f80, 0xc000, 0x4049], dtype="<u2")
    m.weight("bf16", bf, prim=pb.BF16,
             save=lambda p: raw_npy(p, "<V2", (3,), bf.tobytes()))
    m.weight("bf16_plain", bf, prim=pb.BF16,
             save=lambda p: np.save(p, bf.view("V2")))
    f8 = np.array([0x38, 0xb8, 0x00, 0x7e], dtype="u1")
    m.weight("f8e4m3fn", f8, prim=pb.F8E4M3FN,
             save=lambda p: raw_npy(p, "<V1", (4,), f8.tobytes()))
    m.weight("f8e5m2", f8, prim=pb.F8E5M2,
             save=lambda p: raw_npy(p, "<f1", (4,), f8.tobytes()))
    m.input("x", pb.F32, [4])
    m.write()


def scenario_forms(out, form, wrapper=False):
    m = Model(out)
    m.input("x", pb.F32, [2])
    m.weight("w", sample("float32", (2, 2), 1))
    m.input("y", pb.S32, [])
    m.weight("b", sample("float32", (2,), 2))
    m.write(form=form, wrapper=wrapper)


def scenario_layouts(out):
    m = Model(out)
    m.weight("f2d", np.asfortranarray(sample("float32", (3, 4), 1)))
    m.weight("f3d", np.asfortranarray(sample("int16", (2, 3, 4), 2)))
    m.weight("f3d_be", np.asfortranarray(sample("float64", (2, 2, 3), 3)).astype(">f8"),
             prim=pb.F64)
    m.weight("frow", np.asfortranarray(sample("float32", (1, 5), 4)))
    m.weight("scalar", np.array(3.5, dtype=np.float32))
    m.weight("empty", np.zeros((0, 4), dtype=np.float32))
    arr = sample("float32", (2, 2), 5)
    m.weight("v2", arr, save=lambda p: raw_npy(p, "<f4", (2, 2), arr.tobytes(), version=(2, 0)))
    m.weight("v3", arr, save=lambda p: raw_npy(p, "<f4", (2, 2), arr.tobytes(), version=(3, 0)))
    m.write()


def scenario_bir(out):
    """Weights and literal constants covering every TensorClass rule:
    w (dot weight), w_t (dot weight through a transpose), eye (identity
    matrix weight), bias and scale (not dot weights), wf (Fortran order, so
    converted), literal constants small (shared file) and large (own file),
    and a literal identity matrix."""
    m = Model(out)
    rng = np.random.default_rng(7)
    arrays = {
        "w": rng.standard_normal((4, 4)).astype(np.float32),
        "w_t": rng.standard_normal((4, 4)).astype(np.float32),
        "eye": np.eye(4, dtype=np.float32),
        "bias": rng.standard_normal((4,)).astype(np.float32),
        "scale": rng.standard_normal((2, 4)).astype(np.float32),
        "wf": np.asfortranarray(rng.standard_normal((4, 4)).astype(np.float32)),
    }
    for name, arr in arrays.items():
        np.save(os.path.join(out, "weights", name + ".npy"), arr)
    c = pb.Computation("main")
    f4 = pb.shape([2, 4])
    w44 = pb.shape([4, 4])
    x = c.param("x", 0, f4)
    p = {n: c.param(n, i + 1, pb.shape(list(a.shape)))
         for i, (n, a) in enumerate(arrays.items())}
    dd = pb.f_bytes(30, pb.f_packed(1, [1]) + pb.f_packed(2, [0]))

    def lit(name, shp, field, data):
        return c.add(name, "constant", shp, extra=pb.f_bytes(8, pb.literal(shp, field, data)))
    k_scalar = lit("k_scalar", pb.shape([]), 8, struct.pack("<f", 0.5))
    k_half = lit("k_half", pb.shape([5], pb.F16), 11, struct.pack("<5e", 1, 2, 3, 4, 5))
    k_int = lit("k_int", pb.shape([3], pb.S32), 4, b"".join(pb.varint(v) for v in (1, 2, 3)))
    k_vec = lit("k_vec", pb.shape([16]), 8, struct.pack("<16f", *range(16)))
    k_big = lit("k_big", pb.shape([2048]), 8, struct.pack("<2048f", *range(2048)))
    k_eye = lit("k_eye", w44, 8, np.eye(4, dtype=np.float32).tobytes())
    d1 = c.add("d1", "dot", f4, [x, p["w"]], dd)
    wt = c.add("wt", "transpose", w44, [p["w_t"]], pb.f_packed(14, [1, 0]))
    d2 = c.add("d2", "dot", f4, [d1, wt], dd)
    d3 = c.add("d3", "dot", f4, [d2, p["eye"]], dd)
    d4 = c.add("d4", "dot", f4, [d3, p["wf"]], dd)
    d5 = c.add("d5", "dot", f4, [d4, k_eye], dd)
    bb = c.add("bb", "broadcast", f4, [p["bias"]], pb.f_packed(14, [1]))
    a1 = c.add("a1", "add", f4, [d5, bb])
    m1 = c.add("m1", "multiply", f4, [a1, p["scale"]])
    sb = c.add("sb", "broadcast", f4, [k_scalar])
    m2 = c.add("m2", "multiply", f4, [m1, sb])
    root = c.add("out", "tuple", pb.tuple_shape(f4, pb.shape([5], pb.F16), pb.shape([3], pb.S32),
                                                pb.shape([16]), pb.shape([2048])),
                 [m2, k_half, k_int, k_vec, k_big])
    body, cid = c.encode(root)
    with open(os.path.join(out, "model.hlo.pb"), "wb") as f:
        f.write(pb.module("birtest", [(body, cid, "main")], host_shape=c.program_shape(root)))
    with open(os.path.join(out, "metadata.json"), "w") as f:
        json.dump({"model_files": "model.hlo.pb",
                   "weight_files": {n: "weights/%s.npy" % n for n in arrays}}, f)


# Two different 128-byte blocks with the same MD5 (Wang et al.).
COLLISION_A = bytes.fromhex(
    "d131dd02c5e6eec4693d9a0698aff95c2fcab58712467eab4004583eb8fb7f89"
    "55ad340609f4b30283e488832571415a085125e8f7cdc99fd91dbdf280373c5b"
    "d8823e3156348f5bae6dacd436c919c6dd53e2b487da03fd02396306d248cda0"
    "e99f33420f577ee8ce54b67080a80d1ec69821bcb6a8839396f9652b6ff72a70")
COLLISION_B = bytes.fromhex(
    "d131dd02c5e6eec4693d9a0698aff95c2fcab50712467eab4004583eb8fb7f89"
    "55ad340609f4b30283e4888325f1415a085125e8f7cdc99fd91dbd7280373c5b"
    "d8823e3156348f5bae6dacd436c919c6dd53e23487da03fd02396306d248cda0"
    "e99f33420f577ee8ce54b67080280d1ec69821bcb6a8839396f965ab6ff72a70")


def scenario_dedup(out, reverse=False):
    """Weights for the de-dup key: a tied pair (w_a, w_b), the same bytes
    as f32 and as s32 (f_same, i_same), the MD5 collision pair (coll_a,
    coll_b) and a copy of one of them (coll_a2). REVERSE writes the
    parameters in the opposite order."""
    m = Model(out)
    rng = np.random.default_rng(11)
    w = rng.standard_normal((16, 16)).astype(np.float32)
    same = np.arange(64, dtype=np.int32)
    weights = [
        ("w_a", w), ("w_b", w.copy()),
        ("f_same", same.view(np.float32)), ("i_same", same.copy()),
        ("coll_a", np.frombuffer(COLLISION_A, dtype=np.uint8)),
        ("coll_b", np.frombuffer(COLLISION_B, dtype=np.uint8)),
        ("coll_a2", np.frombuffer(COLLISION_A, dtype=np.uint8)),
    ]
    if reverse:
        weights.reverse()
    for name, arr in weights:
        m.weight(name, arr)
    m.write()


def scenario_reshaped(out):
    """The same f32 bytes as (16, 16) twice and as (256,): one key, one
    file, which no longer holds one kind of tensor."""
    m = Model(out)
    w = np.random.default_rng(12).standard_normal((16, 16)).astype(np.float32)
    m.weight("w_a", w)
    m.weight("w_b", w.copy())
    m.weight("w_flat", w.reshape(256))
    m.write()


def scenario_many(out, n=4000):
    """N small weights (some tied): def.json and bir.json of several MiB."""
    m = Model(out)
    for i in range(n):
        m.weight("w%d" % i, sample("float32", (4,), i % (n // 2)))
    m.write()


def bad_npy(out, mutate, prim=pb.F32, shape=(4,)):
    """A model with one weight 'w' whose file is written by MUTATE(path)."""
    m = Model(out)
    m.params.append(("w", prim, list(shape), "weights/w.npy"))
    mutate(os.path.join(out, "weights", "w.npy"))
    m.write()


def good_bytes(shape=(4,), dtype="<f4"):
    return np.arange(int(np.prod(shape)), dtype=dtype).tobytes()


def scenario_error(out, kind):
    if kind == "bad-magic":
        bad_npy(out, lambda p: open(p, "wb").write(b"NOTNUMPY" + b"\0" * 100))
    elif kind == "npz":
        def npz(p):
            with open(p, "wb") as f:
                np.savez(f, w=np.zeros(4, dtype=np.float32))
        bad_npy(out, npz)
    elif kind == "pickle":
        import pickle
        bad_npy(out, lambda p: pickle.dump(np.zeros(4, dtype=np.float32), open(p, "wb"),
                                           protocol=4))
    elif kind == "cut-header":
        bad_npy(out, lambda p: open(p, "wb").write(b"\x93NUMPY\x01\x00\x10"))
    elif kind == "empty-path":
        m = Model(out)
        m.weight("w", np.zeros(4, dtype=np.float32))
        m.write(extra_meta={"weight_files": {"w": ""}})
    elif kind == "bad-version":
        bad_npy(out, lambda p: raw_npy(p, "<f4", (4,), good_bytes(), version=(9, 0)))
    elif kind == "header-past-end":
        bad_npy(out, lambda p: open(p, "wb").write(b"\x93NUMPY\x01\x00\xff\x7f{'descr'"))
    elif kind == "header-too-big":
        def big(p):
            d = "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }"
            hdr = d + " " * (70000 - len(d) - 1) + "\n"
            open(p, "wb").write(b"\x93NUMPY\x02\x00" + struct.pack("<I", len(hdr)) +
                                hdr.encode() + good_bytes())
        bad_npy(out, big)
    elif kind == "bad-dict":
        def bad(p):
            hdr = "{'descr': '<f4' 'fortran_order': False}".ljust(117) + "\n"
            open(p, "wb").write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(hdr)) +
                                hdr.encode() + good_bytes())
        bad_npy(out, bad)
    elif kind == "object-dtype":
        bad_npy(out, lambda p: np.save(p, np.array([1, "a", None, 2.0], dtype=object),
                                       allow_pickle=True))
    elif kind == "shape-overflow":
        bad_npy(out, lambda p: raw_npy(p, "<f4", (1 << 40, 1 << 40), b""))
    elif kind == "shape-leading-zero":
        # (010,): numpy refuses it (Python 3), Python 2 read it as octal 8
        bad_npy(out, lambda p: raw_npy(p, "<f4", ("010",), good_bytes((10,))), shape=(10,))
    elif kind == "short-payload":
        bad_npy(out, lambda p: raw_npy(p, "<f4", (4,), good_bytes()[:12]))
    elif kind == "long-payload":
        bad_npy(out, lambda p: raw_npy(p, "<f4", (4,), good_bytes() + b"junk"))
    elif kind == "shape-mismatch":
        bad_npy(out, lambda p: np.save(p, np.zeros(5, dtype=np.float32)))
    elif kind == "bool-byte":
        # numpy reads it as [True, True, False, True]; the first byte is 2
        bad_npy(out, lambda p: raw_npy(p, "|b1", (4,), bytes([0, 1, 2, 1])), prim=pb.PRED)
    elif kind in ("bool-raw", "bool-raw-byte"):
        # raw void bytes for a bool parameter: taken when each is 0 or 1
        last = 2 if kind == "bool-raw-byte" else 1
        bad_npy(out, lambda p: raw_npy(p, "|V1", (4,), bytes([0, 1, last, 1])), prim=pb.PRED)
    elif kind == "u1-raw-byte":
        # raw void bytes for a 1-bit integer parameter: 0 or 1 like a bool
        bad_npy(out, lambda p: raw_npy(p, "|V1", (4,), bytes([0, 1, 2, 255])), prim=pb.U1)
    elif kind == "f1-into-s8":
        # ml_dtypes' '<f1' holds float8 bytes: not an int8 parameter's
        bad_npy(out, lambda p: raw_npy(p, "<f1", (4,), bytes([0x38, 0xb8, 0, 0x7e])),
                prim=pb.S8)
    elif kind == "dtype-mismatch":
        bad_npy(out, lambda p: np.save(p, np.zeros(4, dtype=np.int32)))
    elif kind == "missing-npy":
        bad_npy(out, lambda p: None)
    elif kind in ("escape", "absolute", "symlink-out"):
        m = Model(out)
        outside = os.path.join(os.path.dirname(os.path.abspath(out)), "outside.npy")
        np.save(outside, np.zeros(4, dtype=np.float32))
        rel = {"escape": "../outside.npy", "absolute": outside,
               "symlink-out": "weights/link.npy"}[kind]
        if kind == "symlink-out":
            os.symlink(outside, os.path.join(out, "weights", "link.npy"))
        m.params.append(("w", pb.F32, [4], rel))
        m.write()
    elif kind in ("sibling-link", "sibling-dir"):
        # The weight's real path is in OUT-evil/, a sibling whose name begins
        # with the model directory's: inside by a plain prefix match only.
        # sibling-link: weights/w.npy links there; sibling-dir: weights
        # itself does (weights/w.npy is a plain file in a linked directory).
        m = Model(out)
        evil = os.path.abspath(out).rstrip("/") + "-evil"
        os.makedirs(evil, exist_ok=True)
        np.save(os.path.join(evil, "w.npy"), np.zeros(4, dtype=np.float32))
        if kind == "sibling-link":
            os.symlink(os.path.join(evil, "w.npy"), os.path.join(out, "weights", "w.npy"))
        else:
            os.rmdir(os.path.join(out, "weights"))
            os.symlink(evil, os.path.join(out, "weights"))
        m.params.append(("w", pb.F32, [4], "weights/w.npy"))
        m.write()
    elif kind == "huge":
        # 2.5 GiB and 4 MiB weights in sparse files (no disk is used).
        m = Model(out)
        for name, n in (("big_one", (1 << 29) + (1 << 27)), ("w2", 1 << 20), ("small", 4)):
            def sparse(p, n=n):
                raw_npy(p, "<f4", (n,), b"")
                with open(p, "r+b") as f:
                    f.truncate(os.path.getsize(p) + 4 * n)
            m.params.append((name, pb.F32, [n], "weights/%s.npy" % name))
            sparse(os.path.join(out, "weights", name + ".npy"))
        m.write()
    elif kind == "unknown-param":
        m = Model(out)
        m.weight("w", np.zeros(4, dtype=np.float32))
        m.write(extra_meta={"weight_files": {"w": "weights/w.npy", "nope": "weights/w.npy"}})
    elif kind == "param-case":
        m = Model(out)
        m.weight("Wq", np.zeros(4, dtype=np.float32))
        m.write(extra_meta={"weight_files": {"wq": "weights/Wq.npy"}})
    elif kind == "two-params-one-name":
        # parameters 0 and 1 are both named "w"; weight_files names "w"
        m = Model(out)
        m.weight("w", np.zeros(4, dtype=np.float32))
        m.weight("w", np.ones(4, dtype=np.float32), fname="w_other")
        m.write()
    elif kind == "named-twice":
        m = Model(out)
        m.weight("w", np.zeros(4, dtype=np.float32))
        m.write(extra_meta={"weight_files": {"w": "weights/w.npy", "0": "weights/w.npy"}})
    elif kind in ("digit-name-ambiguous", "digit-name-same"):
        # a parameter named "0": ambiguous unless it is also number 0
        m = Model(out)
        if kind == "digit-name-ambiguous":
            m.weight("a", np.zeros(4, dtype=np.float32))
        m.weight("0", np.ones(4, dtype=np.float32), fname="w0")
        m.write(extra_meta={"weight_files": {"0": "weights/w0.npy"}})
    elif kind == "number-out-of-range":
        m = Model(out)
        m.weight("w", np.zeros(4, dtype=np.float32))
        m.write(extra_meta={"weight_files": {"7": "weights/w.npy"}})
    elif kind == "weight-files-type":
        m = Model(out)
        m.weight("w", np.zeros(4, dtype=np.float32))
        m.write(extra_meta={"weight_files": "weights/w.npy"})
    elif kind in ("weight-files-missing", "empty-key"):
        m = Model(out)
        m.weight("w", np.zeros(4, dtype=np.float32))
        m.write(extra_meta={"weight_files": {"": "weights/w.npy"}} if kind == "empty-key" else {})
        if kind == "weight-files-missing":
            meta = json.load(open(os.path.join(out, "metadata.json")))
            del meta["weight_files"]
            json.dump(meta, open(os.path.join(out, "metadata.json"), "w"))
    else:
        sys.exit("unknown scenario " + kind)


# --- checking exported literals against numpy -----------------------------

def fields(buf):
    """Top-level (field, wire, value) of a protobuf message."""
    i, out = 0, []
    while i < len(buf):
        tag, i = pb.read_varint(buf, i)
        f, w = tag >> 3, tag & 7
        if w == 0:
            v, i = pb.read_varint(buf, i)
        elif w == 2:
            n, i = pb.read_varint(buf, i)
            v, i = buf[i:i + n], i + n
        elif w == 1:
            v, i = buf[i:i + 8], i + 8
        elif w == 5:
            v, i = buf[i:i + 4], i + 4
        else:
            raise ValueError("wire type %d" % w)
        out.append((f, w, v))
    return out


def literal_bytes(lit):
    """The data of a LiteralProto as little-endian element bytes."""
    for f, w, v in fields(lit):
        if f == 1:
            continue
        if f == 2:  # preds: packed varints, one byte each
            vals, i = [], 0
            while i < len(v):
                x, i = pb.read_varint(v, i)
                vals.append(x)
            return bytes(vals)
        if f in (4, 5, 6, 7):  # s32 s64 u32 u64 packed varints
            fmt = {4: "<i", 5: "<q", 6: "<I", 7: "<Q"}[f]
            vals, i = [], 0
            while i < len(v):
                x, i = pb.read_varint(v, i)
                if f in (4, 5) and x >= 1 << 63:
                    x -= 1 << 64
                vals.append(x)
            return b"".join(struct.pack(fmt, x) for x in vals)
        return bytes(v)  # floats, doubles, complex: packed LE; others: bytes
    return b""


def check(pb_path, model_dir):
    mod = fields(open(pb_path, "rb").read())
    consts = {}
    for f, _, comp in mod:
        if f != 3:
            continue
        for g, _, ins in fields(comp):
            if g != 2:
                continue
            d = {k: v for k, _, v in fields(ins)}
            if d.get(2) == b"constant" and 8 in d:
                consts[d[1].decode()] = literal_bytes(d[8])
                if 536870000 in d:  # weightpack's origin: also by parameter number
                    origin = {k: v for k, _, v in fields(d[536870000])}
                    consts[str(origin.get(3, 0))] = consts[d[1].decode()]
    meta = json.load(open(os.path.join(model_dir, "metadata.json")))
    wf = meta["weight_files"]
    if isinstance(wf, list):
        wf = {str(i): rel for i, rel in enumerate(wf) if rel}
    bad = 0
    for name, rel in sorted(wf.items()):
        path = os.path.join(model_dir, rel)
        try:
            a = np.load(path, allow_pickle=False)
        except (TypeError, ValueError):
            # ml_dtypes' '<f1' is not loadable by numpy: take the raw payload.
            raw = open(path, "rb").read()
            pre = 10 if raw[6] == 1 else 12
            hlen = struct.unpack("<H" if pre == 10 else "<I", raw[8:pre])[0]
            a = np.frombuffer(raw[pre + hlen:], dtype=np.uint8)
        want = np.ascontiguousarray(a).astype(a.dtype.newbyteorder("<")).tobytes()
        if a.dtype.kind == "b":
            want = np.ascontiguousarray(a).astype(np.uint8).tobytes()
        got = consts.get(name)
        if got != want:
            print("MISMATCH %s: %d bytes vs numpy's %d" % (name, len(got or b""), len(want)))
            bad += 1
        else:
            print("ok %s %s %s" % (name, a.dtype.str, a.shape))
    return 1 if bad else 0


def scenario_lanes(out):
    """About 90 weights, each a constant file of its own (with
    small-weight-threshold=0): byte lengths on both sides of MD5's 64-byte
    blocks and of the 64 KiB pieces files are hashed in, tied copies, and
    the MD5 collision pair, so that SIMD lanes start, end and refill at
    every kind of boundary."""
    m = Model(out)
    m.root_params = 2
    rng = np.random.default_rng(17)
    lengths = [1, 2, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129, 1000, 4095, 4096,
               65471, 65472, 65535, 65536, 65537, 131072, 131137, 200003, 262144, 300001]
    i = 0
    for rep in range(3):
        for n in lengths:
            m.weight("u%d" % i, rng.integers(0, 256, size=n + rep, dtype=np.uint8))
            i += 1
    first = rng.integers(0, 256, size=70001, dtype=np.uint8)
    for k in range(6):
        m.weight("tied%d" % k, first.copy())
    m.weight("coll_a", np.frombuffer(COLLISION_A, dtype=np.uint8))
    m.weight("coll_b", np.frombuffer(COLLISION_B, dtype=np.uint8))
    m.write()


def scenario_wide(out):
    """100 weights of 100 shapes, all returned: a root tuple whose operand
    type changes 100 times (the hlo dialect's wide op)."""
    m = Model(out)
    for i in range(100):
        m.weight("w%d" % i, sample("float32", (i + 1,), i))
    m.write()


def scenario_identities(out):
    """Identity matrices of complex dtypes (1 + 0i on the diagonal), and
    complex matrices that are not: an imaginary part on the diagonal, or
    off it."""
    m = Model(out)
    m.weight("eye_c64", np.eye(3, dtype=np.complex64))
    m.weight("eye_c128", np.eye(3, dtype=np.complex128))
    m.weight("eye_i", np.eye(3, dtype=np.complex64) * 1j)
    off = np.eye(3, dtype=np.complex64)
    off[0, 1] = 1j
    m.weight("off", off)
    m.write()


def scenario_small_dtypes(out):
    """Small weights of four dtypes: 40 f32[4] (their shared file is the
    bulk), one each of s32[4], f16[4] and bool[4]."""
    m = Model(out)
    for i in range(40):
        m.weight("f%d" % i, sample("float32", (4,), i))
    m.weight("i", sample("int32", (4,), 100))
    m.weight("h", sample("float16", (4,), 101))
    m.weight("b", sample("bool", (4,), 102))
    m.write()


def scenario_sizable(out):
    """Random f16 weights of about 28 MiB in all (one tied copy) and a few
    small biases: a compressed payload of several 8 MiB output blocks."""
    m = Model(out)
    rng = np.random.default_rng(13)
    big = rng.standard_normal((5 * 1024 * 1024 + 5,)).astype(np.float16)
    m.weight("w0", big)
    m.weight("w1", rng.standard_normal((4 * 1024 * 1024 - 3,)).astype(np.float16))
    m.weight("w0_tied", big.copy())
    for i in range(3):
        m.weight("b%d" % i, sample("float32", (256,), i))
    m.write()


def scenario_eye64(out):
    """One 64x64 f32 identity weight: 16 KiB, so mapped, and bir-lower
    reads its bytes to find it is an identity."""
    m = Model(out)
    m.weight("w", np.eye(64, dtype=np.float32))
    m.write()


def scenario_named_sg00(out):
    """An HloModuleProto named "sg00", the name of bir-lower's function."""
    m = Model(out)
    m.module_name = "sg00"
    m.weight("w", sample("float32", (8,), 1))
    m.write()


def scenario_stored_order(out):
    """Parameters stored against their numbers (XLA keeps no order): x,
    number 1, before the weight w, number 0."""
    m = Model(out)
    m.weight("w", sample("float32", (4,), 1))
    m.input("x", pb.F32, [4])
    m.params_stored_reversed = True
    m.write()


def scenario_unnamed(out):
    """An HloModuleProto without a name (proto3's empty string)."""
    m = Model(out)
    m.module_name = ""
    m.weight("w", sample("float32", (8,), 1))
    m.input("x", pb.F32, [8])
    m.write()


def scenario_shape_names(out):
    """One weight, w (instruction "w.1"), negated. The computation's program
    shape names it "a" and the host's "b", and both give the result without
    a layout: neither is the shape export derives, nor are they equal, until
    inlining w leaves two equal shapes of the result alone."""
    os.makedirs(os.path.join(out, "weights"), exist_ok=True)
    np.save(os.path.join(out, "weights", "w.npy"), sample("float32", (4,), 1))
    c = pb.Computation("main")
    w = c.param("w.1", 0, pb.shape([4]))
    root = c.add("neg", "negate", pb.shape([4]), [w])
    bare = pb.f_int(2, pb.F32) + pb.f_packed(3, [4])

    def ps(name):
        return pb.f_bytes(1, pb.shape([4])) + pb.f_bytes(2, bare) + pb.f_bytes(3, name)
    body = (pb.f_bytes(1, "main") + b"".join(pb.f_bytes(2, m) for _, m in c.instrs) +
            pb.f_bytes(4, ps("a")) + pb.f_int(5, 3) + pb.f_int(6, root[0]))
    data = pb.module("shapes", [(body, 3, "main")], host_shape=ps("b"))
    with open(os.path.join(out, "model.hlo.pb"), "wb") as f:
        f.write(data)
    with open(os.path.join(out, "metadata.json"), "w") as f:
        json.dump({"model_files": ["model.hlo.pb"], "weight_files": {"w.1": "weights/w.npy"}}, f)


def scenario_readback(out):
    """Weights whose printed hex spans many of MLIR's output chunks."""
    m = Model(out)
    rng = np.random.default_rng(21)
    m.weight("big", rng.standard_normal((150001,)).astype(np.float16))
    m.weight("odd", rng.standard_normal((3, 4099)).astype(np.float32))
    m.write()


def scenario_names(out):
    """Parameter names that are no plain file names: TensorFlow scopes with
    slashes, dots, spaces, non-ASCII, a name of 300 characters, and two names
    that only differ where a file name could not. Each weight is 8 KiB or
    more (a constant file of its own) with bytes of its own."""
    m = Model(out)
    names = ["dense/kernel", "dense_kernel", "..", ".", "-rf", "a b\tc", "gewicht/\u00fcber",
             "x" * 300, "dense/kernel/.."]
    for i, name in enumerate(names):
        m.weight(name, sample("float32", (2048 + i,), 50 + i), fname="w%d" % i)
    m.write()


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "check":
        sys.exit(check(sys.argv[2], sys.argv[3]))
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    kind, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    if kind == "dtypes":
        scenario_dtypes(out)
    elif kind == "layouts":
        scenario_layouts(out)
    elif kind in ("object", "numbers", "list"):
        scenario_forms(out, kind)
    elif kind == "wrapper":
        scenario_forms(out, "object", wrapper=True)
    elif kind == "bir":
        scenario_bir(out)
    elif kind == "dedup":
        scenario_dedup(out)
    elif kind == "dedup-reversed":
        scenario_dedup(out, reverse=True)
    elif kind == "reshaped":
        scenario_reshaped(out)
    elif kind == "many":
        scenario_many(out)
    elif kind == "sizable":
        scenario_sizable(out)
    elif kind == "eye64":
        scenario_eye64(out)
    elif kind == "named-sg00":
        scenario_named_sg00(out)
    elif kind == "stored-order":
        scenario_stored_order(out)
    elif kind == "unnamed":
        scenario_unnamed(out)
    elif kind == "shape-names":
        scenario_shape_names(out)
    elif kind == "readback":
        scenario_readback(out)
    elif kind == "lanes":
        scenario_lanes(out)
    elif kind == "wide":
        scenario_wide(out)
    elif kind == "identities":
        scenario_identities(out)
    elif kind == "small-dtypes":
        scenario_small_dtypes(out)
    elif kind == "names":
        scenario_names(out)
    else:
        scenario_error(out, kind)


if __name__ == "__main__":
    main()
