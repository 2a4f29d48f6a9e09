#!/usr/bin/python3
"""A frozen model in HLO text with constants of many kinds, and checks.

  frozen.py gen OUT.hlo          writes the module
  frozen.py npy DIR              checks each .npy in DIR/weights against the
                                 constant it should hold (numpy), prints one
                                 line per file
  frozen.py neff UNPACKED        finds every constant's bytes in the const
                                 files of an unpacked NEFF

Constants (min-bytes=4096 takes the first eight; the rest stay unless
min-bytes=0): w f32[64,64]; w_tie, the same bytes (one .npy for both);
h f16[64,64]; b bf16[32,64]; i s32[1024]; t f32[32,64]{0,1} (a column-major
layout); p pred[4096]; q f8e4m3fn[4096]; and small f32[4], scalar f32[],
empty f32[0]. The computation `side` holds a large constant of its own
(it stays: only the entry's are outlined).
"""
import glob
import os
import struct
import sys

import numpy as np


def f8e4m3fn(byte):
    s, e, m = byte >> 7, (byte >> 3) & 15, byte & 7
    v = (m / 8.0) * 2.0 ** -6 if e == 0 else (1 + m / 8.0) * 2.0 ** (e - 7)
    return -v if s else v


def consts():
    """name -> (hlo type, layout text, little-endian C-order bytes, text values)"""
    w = (np.arange(64 * 64, dtype=np.float32).reshape(64, 64) * 0.25 - 512)
    h = (np.arange(64 * 64, dtype=np.float16).reshape(64, 64) % 512) * np.float16(0.5)
    bvals = (np.arange(32 * 64, dtype=np.float32).reshape(32, 64) % 256) - 128  # exact in bf16
    bbytes = (bvals.view(np.uint32) >> 16).astype("<u2").tobytes()
    i = np.arange(1024, dtype=np.int32) * -7919
    t = np.arange(32 * 64, dtype=np.float32).reshape(32, 64) + 0.5
    p = (np.arange(4096) % 3 == 0)
    qbytes = bytes(b for b in (k % 256 for k in range(4096)))
    qbytes = bytes(0 if (x & 0x7f) == 0x7f else x for x in qbytes)  # no NaN
    q = [f8e4m3fn(x) for x in qbytes]
    small = np.array([1.5, -2, 3, 4], dtype=np.float32)
    return {
        "w": ("f32[64,64]", "", w.astype("<f4").tobytes(), w),
        "w_tie": ("f32[64,64]", "", w.astype("<f4").tobytes(), w),
        "h": ("f16[64,64]", "", h.astype("<f2").tobytes(), h),
        "b": ("bf16[32,64]", "", bbytes, bvals),
        "i": ("s32[1024]", "", i.astype("<i4").tobytes(), i),
        "t": ("f32[32,64]", "{0,1}", t.astype("<f4").tobytes(), t),
        "p": ("pred[4096]", "", p.astype(np.uint8).tobytes(), p),
        "q": ("f8e4m3fn[4096]", "", qbytes, np.array(q)),
        "small": ("f32[4]", "", small.tobytes(), small),
        "scalar": ("f32[]", "", struct.pack("<f", 42.0), np.float32(42.0)),
        "empty": ("f32[0]", "", b"", np.zeros(0, np.float32)),
    }


def text(values, hlo_type):
    v = np.asarray(values)
    if v.ndim == 0:
        return fmt(v.item(), hlo_type)
    if v.ndim == 1:
        return "{" + ", ".join(fmt(x, hlo_type) for x in v.tolist()) + "}"
    return "{ " + ", ".join(text(r, hlo_type) for r in v) + " }"


def fmt(x, hlo_type):
    if hlo_type.startswith("pred"):
        return "true" if x else "false"
    if hlo_type.startswith("s32"):
        return str(int(x))
    return repr(float(x))


def gen(path):
    c = consts()
    lines = ["// RUN lines live in the .test files beside Inputs/", "HloModule frozen", "",
             "%side (a: f32[1024]) -> f32[1024] {",
             "  %a = f32[1024] parameter(0)",
             "  %%k = f32[1024] constant(%s)" % text(np.arange(1024, dtype=np.float32), "f32"),
             "  ROOT %s = f32[1024] add(f32[1024] %a, f32[1024] %k)", "}", "",
             "ENTRY %main (x: f32[64,64], y: f32[1024]) -> (f32[64,64], f32[64,64], f16[64,64], "
             "bf16[32,64], s32[1024], f32[32,64], pred[4096], f32[4096], f32[4], f32[], f32[0], "
             "f32[1024]) {",
             "  %x = f32[64,64] parameter(0)",
             "  %y = f32[1024] parameter(1)"]
    for name, (ty, layout, _, values) in c.items():
        if name == "h":  # a constant after an op: the stored order matters
            lines.append("  %d1 = f32[64,64] dot(f32[64,64] %x, f32[64,64] %w), "
                         "lhs_contracting_dims={1}, rhs_contracting_dims={0}")
        lines.append("  %%%s = %s%s constant(%s)" % (name, ty, layout, text(values, ty)))
    lines.append("  %d2 = f32[64,64] dot(f32[64,64] %x, f32[64,64] %w_tie), "
                 "lhs_contracting_dims={1}, rhs_contracting_dims={0}")
    outs = ["d1", "d2"]
    for name in ("h", "b", "i", "t"):
        ty = c[name][0]
        lines.append("  %%u_%s = %s add(%s %%%s, %s %%%s)" % (name, ty, ty, name, ty, name))
        outs.append("u_" + name)
    lines.append("  %u_p = pred[4096] and(pred[4096] %p, pred[4096] %p)")
    lines.append("  %u_q = f32[4096] convert(f8e4m3fn[4096] %q)")
    outs += ["u_p", "u_q"]
    for name in ("small", "scalar", "empty"):
        ty = c[name][0]
        lines.append("  %%u_%s = %s add(%s %%%s, %s %%%s)" % (name, ty, ty, name, ty, name))
        outs.append("u_" + name)
    lines.append("  %u_side = f32[1024] call(f32[1024] %y), to_apply=%side")
    outs.append("u_side")
    lines.append("  ROOT %%out = (f32[64,64], f32[64,64], f16[64,64], bf16[32,64], s32[1024], "
                 "f32[32,64], pred[4096], f32[4096], f32[4], f32[], f32[0], f32[1024]) tuple(%s)"
                 % ", ".join("%" + o for o in outs))
    lines.append("}")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def npy(d):
    c = consts()
    for path in sorted(glob.glob(os.path.join(d, "weights", "*.npy"))):
        a = np.load(path, allow_pickle=False)
        with open(path, "rb") as f:
            raw = f.read()
        hl = struct.unpack("<H", raw[8:10])[0]
        payload = raw[10 + hl:]
        names = [n for n, v in c.items() if v[2] == payload and
                 tuple(a.shape) == tuple(np.asarray(v[3]).shape)]
        print("%s: %s %s holds %s" % (os.path.basename(path), a.dtype.str, list(a.shape),
                                        " ".join(names) or "NOTHING KNOWN"))


def neff(unpacked):
    blobs = []
    for path in sorted(glob.glob(os.path.join(unpacked, "**", "*.npy"), recursive=True)):
        raw = open(path, "rb").read()
        blobs.append(raw[10 + struct.unpack("<H", raw[8:10])[0]:])
    for name, (_, _, data, _) in consts().items():
        found = any(data in b for b in blobs) if data else True
        print("%s: %s" % (name, "found" if found else "MISSING"))


if __name__ == "__main__":
    {"gen": gen, "npy": npy, "neff": neff}[sys.argv[1]](sys.argv[2])
