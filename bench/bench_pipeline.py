#!/usr/bin/env python3
"""Benchmark of the whole pipeline against peers and the machine's limit.

    bench/bench_pipeline.py [--case mixed|big|many|many-dead|moe|all] [--runs 3]
        [--opt build/bin/opt] [--work /tmp/wp-bench]
        mixed: [--weights 48] [--weight-mib 8] [--tied 0.25] [--biases 2000]
        big:   [--big-gib 4] [--big-peers] [--digest-cache]
        many:  [--many 100000] [--many-elems 256]
        moe:   [--moe 64x256x64]

Cases (synthetic model directories: HLO proto + metadata.json + .npy; in
each, as in a real model, every weight is an operand of an instruction):
  mixed  f16 weights in a chain of dots, a fraction of them tied copies,
         small f32 biases in a chain of adds
  big    one f16 weight of --big-gib GiB, negated (peers only with
         --big-peers: the Python peer holds the whole weight in memory, twice);
         with --digest-cache only weightpack, with an empty digest cache
         (cold) against the one a run filled (warm)
  many   --many weights of f32[--many-elems], one .npy file each, a chain
         of adds
  many-dead  the same weights, only the first returned: the unrealistic
         earlier "many" model, a labelled variant (not in "all")
  moe    a mixture of experts: layers x experts x 3 f16 matrices (gate,
         up, down) used as a gated MLP, the experts' outputs summed
On the same input in the same run it times:
  weightpack   opt MODEL --inline-weights --bir-lower --neff-pack -o OUT
  python       a reference packer written here: numpy + hashlib + tarfile
               with gzip level 1, the same de-dup key, a deterministic tar
  gnu-tar      GNU tar's reproducible mode + gzip -1 over the unique blobs
and the floor: `md5sum` of the NEFF weightpack wrote (the payload's MD5,
one stream no core count shortens); for "big" also `md5sum` of the weight
file before it (its key MD5 names its member, so it ends before the
payload's starts: "the two MD5 passes"). Then the limit: a plain read of the inputs, an MD5 pass over the unique
bytes (md5sum), and the fastest gzip-compatible compressor found (igzip
with 1 and with 2 threads, else pigz, else gzip) at level 1 over the
unique bytes, each tool reading the files itself. "limit" is the slowest
of those three: the time a perfectly overlapped pipeline could not beat. For
"big" it also runs weightpack on the same model with a 16-byte weight, so
the weight's own cost in peak RSS shows, and runs GNU tar + gzip -1 (the
Python peer only with --big-peers: it holds the weight in memory twice).
Last, one more weightpack run with --mlir-timing prints the time of each
stage.

Figures: median of --runs runs (by wall time): wall and CPU seconds, peak
RSS and blocks read from disk (GNU time, on the command itself; the page
cache is warm after the first run, so disk reads are mostly 0), and
ratios. Needs /usr/bin/time (Debian "time"); igzip (Debian "isal") or pigz
make the compressor limit honest. Benchmarks are not tests.
"""
import argparse
import gzip
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
WORK = "/tmp"
sys.path.insert(0, os.path.join(HERE, "..", "tools", "py"))
import hlopb as pb  # noqa: E402

import numpy as np  # noqa: E402


def write_big_npy(path, n_elems, rng):
    """An f16 .npy of N_ELEMS elements written in 64 MiB pieces, so that
    making a 4 GiB weight does not need 4 GiB of memory."""
    side = n_elems  # one dimension: the shape does not matter to packing
    with open(path, "wb") as f:
        np.lib.format.write_array_header_1_0(
            f, {"descr": "<f2", "fortran_order": False, "shape": (side,)})
        left = n_elems
        while left:
            n = min(left, 32 << 20)
            f.write(rng.standard_normal(n, dtype=np.float32).astype(np.float16).tobytes())
            left -= n


DOT_DIMS = pb.f_bytes(30, pb.f_packed(1, [1]) + pb.f_packed(2, [0]))  # h[.,k] x w[k,.]


def make_model(out, n_weights, weight_mib, tied, n_biases, bias_elems=256, big_elems=0,
               used=True):
    """A model directory. USED (the default, as in a real model): every
    weight feeds an instruction of the entry computation: the matrices a
    chain of dots from an f16[4,side] input, the biases a chain of adds from
    an f32[bias_elems] input, the big weight a negate; the root is the tuple
    of the chains' ends. Not USED: the root returns only the first two
    parameters and every other weight is dead (the old, unrealistic model,
    kept as the labelled variant many-dead)."""
    if os.path.exists(out):
        shutil.rmtree(out)
    os.makedirs(os.path.join(out, "weights"))
    rng = np.random.default_rng(2026)
    side = int((weight_mib * (1 << 20) // 2) ** 0.5)
    c = pb.Computation("main")
    if used:
        xm = c.param("x", 0, pb.shape([4, max(side, 1)], pb.F16))
        xb = c.param("xb", 1, pb.shape([bias_elems]))
        handles = [xm, xb]
        num = 2
    else:
        handles = [c.param("x", 0, pb.shape([4]))]
        num = 1
    h, hb, outs = handles[0], handles[-1], []
    wf = {}
    n_tied = int(n_weights * tied)
    originals = []
    for i in range(n_weights):
        name = "w%d" % i
        if i >= n_weights - n_tied and originals:
            arr = originals[i % len(originals)]
        else:
            arr = rng.standard_normal((side, side), dtype=np.float32).astype(np.float16)
            originals.append(arr)
        np.save(os.path.join(out, "weights", name + ".npy"), arr)
        w = c.param(name, num, pb.shape([side, side], pb.F16))
        handles.append(w)
        if used:
            h = c.add("h%d" % i, "dot", pb.shape([4, side], pb.F16), [h, w], extra=DOT_DIMS)
        wf[name] = "weights/%s.npy" % name
        num += 1
    if used and n_weights:
        outs.append(h)
    if big_elems:
        write_big_npy(os.path.join(out, "weights", "big.npy"), big_elems, rng)
        w = c.param("big", num, pb.shape([big_elems], pb.F16))
        handles.append(w)
        if used:
            outs.append(c.add("big.neg", "negate", w[1], [w]))
        wf["big"] = "weights/big.npy"
        num += 1
    for i in range(n_biases):
        name = "b%d" % i
        arr = rng.standard_normal(bias_elems).astype(np.float32)
        np.save(os.path.join(out, "weights", name + ".npy"), arr)
        b = c.param(name, num, pb.shape([bias_elems]))
        handles.append(b)
        if used:
            hb = c.add("hb%d" % i, "add", b[1], [hb, b])
        wf[name] = "weights/%s.npy" % name
        num += 1
    if used and n_biases:
        outs.append(hb)
    if not used:
        outs = handles[:2]
    write_module(out, c, outs, wf)


def write_module(out, c, outs, wf):
    root = c.add("out", "tuple", pb.tuple_shape(*[o[1] for o in outs]), outs)
    body, cid = c.encode(root)
    with open(os.path.join(out, "model.hlo.pb"), "wb") as f:
        f.write(pb.module("bench", [(body, cid, "main")], host_shape=c.program_shape(root)))
    with open(os.path.join(out, "metadata.json"), "w") as f:
        json.dump({"model_files": "model.hlo.pb", "weight_files": wf}, f)


def make_moe_model(out, layers=64, experts=256, dim=64):
    """A mixture-of-experts layout: LAYERS layers of EXPERTS experts, each
    three f16[DIM,DIM] matrices (gate, up, down) used as a gated MLP does:
    down(gate(h) * up(h)), the experts' outputs summed into the next
    layer's input. Every weight is used; no two are equal."""
    if os.path.exists(out):
        shutil.rmtree(out)
    os.makedirs(os.path.join(out, "weights"))
    rng = np.random.default_rng(2027)
    c = pb.Computation("main")
    hs = pb.shape([4, dim], pb.F16)
    ws = pb.shape([dim, dim], pb.F16)
    h = c.param("x", 0, hs)
    num, wf = 1, {}
    for layer in range(layers):
        acc = None
        for e in range(experts):
            mats = {}
            for part in ("gate", "up", "down"):
                name = "l%d.e%d.%s" % (layer, e, part)
                arr = rng.standard_normal((dim, dim), dtype=np.float32).astype(np.float16)
                np.save(os.path.join(out, "weights", name + ".npy"), arr)
                wf[name] = "weights/%s.npy" % name
                mats[part] = c.param(name, num, ws)
                num += 1
            pre = "l%d.e%d." % (layer, e)
            g = c.add(pre + "g", "dot", hs, [h, mats["gate"]], extra=DOT_DIMS)
            u = c.add(pre + "u", "dot", hs, [h, mats["up"]], extra=DOT_DIMS)
            m = c.add(pre + "m", "multiply", hs, [g, u])
            d = c.add(pre + "d", "dot", hs, [m, mats["down"]], extra=DOT_DIMS)
            acc = d if acc is None else c.add(pre + "sum", "add", hs, [acc, d])
        h = acc
    write_module(out, c, [h], wf)


def python_peer(model, out_neff, blob_dir=None):
    """The reference packer: same key (MD5 + dtype + memory type)."""
    meta = json.load(open(os.path.join(model, "metadata.json")))
    uniq = {}
    for name, rel in sorted(meta["weight_files"].items()):
        a = np.load(os.path.join(model, rel))
        data = np.ascontiguousarray(a).tobytes()
        key = hashlib.md5(data).hexdigest() + a.dtype.name + "Const"
        if key not in uniq:
            uniq[key] = data
    buf = io.BytesIO()
    with gzip.GzipFile(fileobj=buf, mode="wb", compresslevel=1, mtime=0) as gz:
        with tarfile.open(fileobj=gz, mode="w", format=tarfile.PAX_FORMAT) as t:
            for key in sorted(uniq):
                info = tarfile.TarInfo("sg00/%s.bin" % key)
                info.size = len(uniq[key])
                info.uname = info.gname = "nobody"
                t.addfile(info, io.BytesIO(uniq[key]))
    with open(out_neff, "wb") as f:
        f.write(bytes(1024) + buf.getvalue())
    if blob_dir:
        os.makedirs(blob_dir, exist_ok=True)
        for key, data in uniq.items():
            with open(os.path.join(blob_dir, key + ".bin"), "wb") as f:
                f.write(data)


def run(cmd, shell=False):
    """Wall, CPU, peak RSS and disk reads of one run, measured by GNU time
    on the command itself (wait4 here would count this Python process)."""
    stats = os.path.join(WORK, ".time")
    if shell:
        cmd = ["/usr/bin/time", "-f", "%e %U %S %M %I", "-o", stats, "sh", "-c", cmd]
    else:
        cmd = ["/usr/bin/time", "-f", "%e %U %S %M %I", "-o", stats] + cmd
    if subprocess.call(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) != 0:
        sys.exit("failed: %s" % " ".join(cmd))
    e, u, s, m, i = open(stats).read().split()[-5:]
    return {"wall": float(e), "cpu": float(u) + float(s), "rss": int(m) / 1024.0,
            "read": int(i) * 512}


def median(cmd, runs, shell=False, before=None):
    rs = []
    for _ in range(runs):
        if before:
            before()
        rs.append(run(cmd, shell))
    rs.sort(key=lambda r: r["wall"])
    return rs[len(rs) // 2]


def compressors():
    """The gzip-compatible compressors to try at level 1, fastest kind
    first: every igzip thread count that could win, else pigz, else gzip.
    Each reads the files itself (a pipe from cat cost igzip half its speed
    on a 4 GiB file: that would flatter the limit)."""
    if shutil.which("igzip"):
        return [("igzip -1 -T 1", "igzip -1 -c -T 1"), ("igzip -1 -T 2", "igzip -1 -c -T 2")]
    for tool in ("pigz", "gzip"):
        if shutil.which(tool):
            return [("%s -1" % tool, "%s -1 -c" % tool)]
    return []


def stages(a, model, out):
    """Each stage's wall time and the peak RSS so far, from --mlir-timing."""
    # through GNU time, which forks: a child forked from this (large)
    # Python process would start with its peak RSS
    p = subprocess.run(["/usr/bin/time", "-o", os.devnull, a.opt, model, "--inline-weights",
                        "--bir-lower", "--neff-pack", "-o", out, "--mlir-timing"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    rows = []
    for line in p.stderr.splitlines():
        m = re.match(r"\s+([0-9.]+) \(\s*[0-9.]+%\)\s+(\w+)\s*(?:\((.*)\))?", line)
        if m:
            rows.append((m.group(2), float(m.group(1)), m.group(3) or ""))
    return rows


def bench_case(a, label, model_args, peers=True, baseline_args=None, tar=True,
               maker=make_model):
    """Builds one model (MAKER(dir, **MODEL_ARGS)), times everything on it,
    prints a table."""
    model = os.path.join(a.work, "model")
    maker(model, **model_args)
    blobs = os.path.join(a.work, "blobs")
    if os.path.exists(blobs):
        shutil.rmtree(blobs)
    os.makedirs(blobs)
    if peers:
        python_peer(model, os.path.join(a.work, "warm.neff"), blobs)  # also warms the cache
    else:
        # the unique bytes for the limit: each distinct payload once
        meta = json.load(open(os.path.join(model, "metadata.json")))
        for name, rel in sorted(meta["weight_files"].items()):
            src = os.path.join(model, rel)
            with open(src, "rb") as f:
                f.seek(len(npy_header_of(src)))
                with open(os.path.join(blobs, name + ".bin"), "wb") as o:
                    shutil.copyfileobj(f, o, 8 << 20)
    unique = sum(os.path.getsize(os.path.join(blobs, f)) for f in os.listdir(blobs))
    total = sum(os.path.getsize(os.path.join(model, "weights", f))
                for f in os.listdir(os.path.join(model, "weights")))
    out = os.path.join(a.work, "wp.neff")
    rows = {}
    if baseline_args:
        base = os.path.join(a.work, "baseline")
        make_model(base, **baseline_args)
        rows["weightpack, same model with a 16-byte weight"] = median(
            [a.opt, base, "--inline-weights", "--bir-lower", "--neff-pack", "-o", out], a.runs)
    rows["weightpack"] = median([a.opt, model, "--inline-weights", "--bir-lower", "--neff-pack",
                                 "-o", out], a.runs)
    rows["floor: md5sum of the NEFF"] = median(["md5sum", out], a.runs)
    if baseline_args:
        weights = os.path.join(model, "weights")
        rows["floor: md5sum of the weight file"] = median(
            ["md5sum"] + [os.path.join(weights, f) for f in sorted(os.listdir(weights))], a.runs)
    if peers:
        rows["python peer"] = median([sys.executable, os.path.abspath(__file__), "--peer", model,
                                      os.path.join(a.work, "py.neff")], a.runs)
    if peers or tar:
        rows["gnu tar + gzip -1"] = median(
            "cd %s && tar --sort=name --format=posix --pax-option=delete=atime,delete=ctime "
            "--mtime=@0 --owner=0 --group=0 --numeric-owner -cf - . | gzip -1 > %s" %
            (blobs, os.path.join(a.work, "gnu.tar.gz")), a.runs, shell=True)
    # find | xargs: a plain glob would overflow the command line at 100k files
    rows["limit: read inputs"] = median(
        "find %s/weights -type f -print0 | xargs -0 cat > /dev/null" % model, a.runs, shell=True)
    rows["limit: md5 unique"] = median(
        "find %s -type f -print0 | sort -z | xargs -0 md5sum > /dev/null" % blobs, a.runs,
        shell=True)
    for label_c, cmd in compressors():
        rows["compressor: %s unique" % label_c] = median(
            "find %s -type f -print0 | sort -z | xargs -0 %s > /dev/null" % (blobs, cmd),
            a.runs, shell=True)
    # /usr/bin/time reports wall time in hundredths: a smoke-sized run can
    # read 0.00, so ratios use that resolution as their floor
    TICK = 0.01
    # the limit: the slowest of reading, hashing and the fastest compressor
    fastest = [r["wall"] for k, r in rows.items() if k.startswith("compressor")]
    limit = max([TICK] + [r["wall"] for k, r in rows.items() if k.startswith("limit")] +
                ([min(fastest)] if fastest else []))
    print("## %s\n" % label)
    print("%.1f MiB in, %.1f MiB unique, %d weight files\n" %
          (total / 2**20, unique / 2**20, len(os.listdir(os.path.join(model, "weights")))))
    print("| run | wall s | cpu s | peak RSS MiB | disk read MiB | x weightpack |")
    print("|---|---|---|---|---|---|")
    wp = max(TICK, rows["weightpack"]["wall"])
    for k, r in rows.items():
        print("| %s | %.2f | %.2f | %.1f | %.1f | %.2f |" % (k, r["wall"], r["cpu"], r["rss"],
                                                           r["read"] / 2**20, r["wall"] / wp))
    print()
    if peers:
        print("weightpack vs python peer: %.1fx faster" % (rows["python peer"]["wall"] / wp))
    if "gnu tar + gzip -1" in rows:
        print("weightpack vs GNU tar + gzip -1: %.2fx faster" % (rows["gnu tar + gzip -1"]["wall"] / wp))
    floor = rows["floor: md5sum of the NEFF"]["wall"]
    if baseline_args:
        floor += rows["floor: md5sum of the weight file"]["wall"]
        print("weightpack vs the two MD5 passes (%.2f s): %.2fx" % (floor, wp / max(TICK, floor)))
    else:
        print("weightpack vs md5sum of its NEFF (%.2f s): %.2fx" % (floor, wp / max(TICK, floor)))
    print("weightpack vs the limit (%.2f s): %.2fx; throughput %.0f MiB/s of input" %
          (limit, wp / limit, total / 2**20 / wp))
    # What the NEFF format itself asks for, from this run's measurements:
    # the payload's MD5 (for the header) is one chain over the compressed
    # bytes, and it cannot start before the largest file's key MD5 (also
    # one chain) has ended, since the tar's member names hold the keys. No
    # number of cores shortens these two chains; the other MD5s (every
    # file's key, each member for the BOM) run many files to a core in
    # SIMD lanes and the compression on the other cores.
    # (Not for tens of thousands of files: the tools' per-file start-up, not
    # hashing or compressing, is then most of their time.)
    if fastest and os.path.exists(out) and len(os.listdir(blobs)) <= 10000:
        t_md5 = rows["limit: md5 unique"]["wall"]
        payload = os.path.getsize(out) / max(1, unique)
        largest = max(os.path.getsize(os.path.join(blobs, f)) for f in os.listdir(blobs))
        floor = t_md5 * (largest / max(1, unique) + payload)
        print("the format's floor here (the largest key's MD5, then the payload's): %.2f s; "
              "weightpack %.2fx of it" % (floor, wp / max(TICK, floor)))
    if baseline_args:
        b = rows["weightpack, same model with a 16-byte weight"]["rss"]
        print("peak RSS above the pipeline with a 16-byte weight: %.1f MiB" %
              (rows["weightpack"]["rss"] - b))
    print("\nweightpack's stages (one more run, --mlir-timing):\n")
    print("| stage | wall s | peak RSS so far |")
    print("|---|---|---|")
    for name, t, rss in stages(a, model, out):
        print("| %s | %.3f | %s |" % (name, t, rss))
    print(flush=True)
    for f in ("warm.neff", "wp.neff", "py.neff", "gnu.tar.gz"):
        try:
            os.remove(os.path.join(a.work, f))
        except OSError:
            pass
    for d in ("model", "blobs", "baseline"):
        shutil.rmtree(os.path.join(a.work, d), ignore_errors=True)


def bench_digest_cache(a, label, model_args, maker=make_model):
    """--digest-cache: weightpack alone on one model, cold (an empty
    digest cache, which the run fills) against warm (the cache a run
    filled), --runs each, medians; the NEFFs must be cmp-equal."""
    model = os.path.join(a.work, "model")
    maker(model, **model_args)
    cache = os.path.join(a.work, "digest-cache")
    cold, warm = os.path.join(a.work, "cold.neff"), os.path.join(a.work, "warm.neff")
    pipeline = ["--inline-weights", "--bir-lower", "--neff-pack", "--digest-cache=" + cache]
    run([a.opt, model] + pipeline + ["-o", warm], False)  # warms the page cache
    # git's racy rule: the weight must be a second older than the cache's write
    time.sleep(1.1)
    rows = {
        "weightpack, cold digest cache": median(
            [a.opt, model] + pipeline + ["-o", cold], a.runs,
            before=lambda: shutil.rmtree(cache, ignore_errors=True)),
    }
    rows["weightpack, warm digest cache"] = median([a.opt, model] + pipeline + ["-o", warm],
                                                   a.runs)
    same = subprocess.run(["cmp", cold, warm]).returncode == 0
    print("## %s: the digest cache\n" % label)
    print("| run | wall s | cpu s | peak RSS MiB |")
    print("|---|---|---|---|")
    for k, r in rows.items():
        print("| %s | %.2f | %.2f | %.1f |" % (k, r["wall"], r["cpu"], r["rss"]))
    ratio = rows["weightpack, warm digest cache"]["wall"] / max(
        0.01, rows["weightpack, cold digest cache"]["wall"])
    print("\nwarm / cold: %.2f; NEFFs %s\n" % (ratio, "cmp-equal" if same else "DIFFER"),
          flush=True)
    shutil.rmtree(model, ignore_errors=True)
    shutil.rmtree(cache, ignore_errors=True)
    for f in (cold, warm):
        os.remove(f)
    if not same:
        sys.exit("bench: the warm NEFF differs from the cold one")


def npy_header_of(path):
    with open(path, "rb") as f:
        np.lib.format.read_magic(f)
        np.lib.format.read_array_header_1_0(f)
        n = f.tell()
        f.seek(0)
        return f.read(n)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--opt", default=os.path.join(HERE, "..", "build", "bin", "opt"))
    ap.add_argument("--case", choices=["mixed", "big", "many", "many-dead", "moe", "all"],
                    default="mixed")
    ap.add_argument("--weights", type=int, default=48)
    ap.add_argument("--weight-mib", type=float, default=8)
    ap.add_argument("--tied", type=float, default=0.25)
    ap.add_argument("--biases", type=int, default=2000)
    ap.add_argument("--big-gib", type=float, default=4)
    ap.add_argument("--big-peers", action="store_true")
    ap.add_argument("--many", type=int, default=100000)
    ap.add_argument("--many-elems", type=int, default=256)
    ap.add_argument("--moe", default="64x256x64",
                    help="LAYERSxEXPERTSxDIM of the mixture-of-experts case")
    ap.add_argument("--digest-cache", action="store_true",
                    help="time weightpack alone, cold against warm digest cache")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--work", default="/tmp/wp-bench")
    a = ap.parse_args()
    global WORK
    WORK = a.work
    os.makedirs(a.work, exist_ok=True)
    cases = ["mixed", "big", "many", "moe"] if a.case == "all" else [a.case]
    if "mixed" in cases:
        bench_case(a, "mixed: %d f16 weights of %.1f MiB (%d%% tied), %d f32[256] biases" %
                   (a.weights, a.weight_mib, int(a.tied * 100), a.biases),
                   dict(n_weights=a.weights, weight_mib=a.weight_mib, tied=a.tied,
                        n_biases=a.biases))
    if "big" in cases and a.digest_cache:
        n = int(a.big_gib * (1 << 30)) // 2
        bench_digest_cache(a, "big: one f16 weight of %.2f GiB" % a.big_gib,
                           dict(n_weights=0, weight_mib=0, tied=0, n_biases=0, big_elems=n))
        cases.remove("big")
    if "big" in cases:
        n = int(a.big_gib * (1 << 30)) // 2
        bench_case(a, "big: one f16 weight of %.2f GiB" % a.big_gib,
                   dict(n_weights=0, weight_mib=0, tied=0, n_biases=0, big_elems=n),
                   peers=a.big_peers,
                   baseline_args=dict(n_weights=0, weight_mib=0, tied=0, n_biases=0,
                                      big_elems=8))
    if "many" in cases or "many-dead" in cases:
        dead = "many-dead" in cases
        bench_case(a, "%s: %d weights of f32[%d]%s" %
                   ("many-dead" if dead else "many", a.many, a.many_elems,
                    ", only the first returned (dead weights: no real model)" if dead
                    else ", each added into a chain"),
                   dict(n_weights=0, weight_mib=0, tied=0, n_biases=a.many,
                        bias_elems=a.many_elems, used=not dead))
    if "moe" in cases:
        layers, experts, dim = (int(v) for v in a.moe.split("x"))
        bench_case(a, "moe: %d layers x %d experts x 3 f16[%d,%d] (%d weights, every one used)" %
                   (layers, experts, dim, dim, layers * experts * 3),
                   dict(layers=layers, experts=experts, dim=dim), maker=make_moe_model)


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--peer":
        python_peer(sys.argv[2], sys.argv[3])
    else:
        main()
