#!/usr/bin/env python3
"""Checks opt --stats-json reports against what they describe.

    statscheck.py STATS [--model DIR] [--neff FILE INFO_JSON] [--no-neff]
                  [--stages a,b,c]

Every check that holds prints one "ok: ..." line (for FileCheck); the
first that fails prints "FAIL: ..." and exits 1.

  --model DIR        tensors_planted is the number of weights DIR's
                     metadata.json maps, bytes_read their .npy payloads'
                     bytes (numpy's nbytes)
  --neff FILE INFO   the NEFF's numbers against FILE itself and against
                     `neff info --json FILE` (INFO): unique blobs, bytes
                     saved, sizes, the gzip payload's uncompressed size
  --no-neff          no NEFF was written: its counts are null
  --stages LIST      the stage names, in order
"""
import gzip
import json
import os
import sys

import numpy as np


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def same(what, got, want):
    if got != want:
        fail("%s: report %r, expected %r" % (what, got, want))
    print("ok: %s = %r" % (what, got))


def main():
    args = sys.argv[1:]
    with open(args.pop(0)) as f:
        st = json.load(f)
    keys = ["version", "input", "output", "seconds", "peak_rss_kib", "stages", "totals"]
    same("top-level keys", list(st), keys)
    same("version", st["version"], 1)
    tot = st["totals"]
    same("totals keys", list(tot), [
        "tensors_planted", "bytes_read", "files_placed", "bytes_placed", "unique_blobs",
        "bytes_saved", "bytes_written", "payload_bytes", "uncompressed_bytes", "member_bytes",
        "compression_ratio"])
    for s in st["stages"]:
        if list(s) != ["name", "seconds", "peak_rss_kib"] or s["seconds"] < 0 or \
                s["peak_rss_kib"] <= 0:
            fail("bad stage %r" % s)
    if st["seconds"] < sum(s["seconds"] for s in st["stages"]) - 0.01:
        fail("the stages add up to more than the run")
    print("ok: stages well formed")
    while args:
        a = args.pop(0)
        if a == "--stages":
            same("stages", [s["name"] for s in st["stages"]], args.pop(0).split(","))
        elif a == "--model":
            d = args.pop(0)
            with open(os.path.join(d, "metadata.json")) as f:
                files = json.load(f)["weight_files"]
            same("tensors_planted", tot["tensors_planted"], len(files))
            nbytes = sum(np.load(os.path.join(d, p)).nbytes for p in files.values())
            same("bytes_read", tot["bytes_read"], nbytes)
        elif a == "--neff":
            path = args.pop(0)
            with open(args.pop(0)) as f:
                info = json.load(f)
            with open(path, "rb") as f:
                data = f.read()
            same("bytes_written", tot["bytes_written"], len(data))
            same("payload_bytes", tot["payload_bytes"], info["data_size"])
            same("member_bytes", tot["member_bytes"], info["uncompressed_size"])
            same("member_bytes (sum)", tot["member_bytes"],
                 sum(m["size"] for m in info["members"]))
            same("uncompressed_bytes", tot["uncompressed_bytes"],
                 len(gzip.decompress(data[info["header_size"]:])))
            same("unique_blobs", tot["unique_blobs"], info["dedup"]["unique_files"])
            same("bytes_saved", tot["bytes_saved"], info["dedup"]["bytes_saved"])
            ratio = tot["uncompressed_bytes"] / tot["payload_bytes"]
            if abs(tot["compression_ratio"] - ratio) > 1e-4:
                fail("compression_ratio %r, expected %r" % (tot["compression_ratio"], ratio))
            print("ok: compression_ratio")
        elif a == "--no-neff":
            for k in ["bytes_written", "payload_bytes", "uncompressed_bytes", "member_bytes",
                      "compression_ratio"]:
                same(k, tot[k], None)
        else:
            fail("unknown argument " + a)


main()
