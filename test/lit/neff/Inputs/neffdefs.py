#!/usr/bin/env python3
"""Makes NEFFs with a changed def.json (or none), for the neff tensor tests.

    neffdefs.py KIND IN OUT
      nodef     sg00/def.json left out (kelf-0.json still names it)
      nograph   kelf-0.json and sg00/def.json left out, neff.json's graphs []
      names     tensor w1 renamed 'we"ird<U+0001>\u00e9<TAB>', b1 renamed
                'kelf-0.json' (a member's name too), zero renamed 'sg00/w1'
      pastend   w1's const_ap_offset far past its file
      badref    w1's referenced_var_id names no variable
      notjson   sg00/def.json is not JSON
      retype    w_out (float32 [16,4]) said to be float16 [32,4], its bytes kept
      renumber  every var_id and referenced_var_id 100 more
      overrun   w_out's const_ap_offset 4 bytes before its file's end (its
                bytes reach past it)
      moved     w3 (on w2's place in the shared member) moved to the member's
                first byte: the same member and MD5, another offset
The header's payload MD5 is redone; bom.json is left as it was.
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "Inputs"))
import neffcraft  # noqa: E402


def main():
    kind, src, dst = sys.argv[1:4]
    header, members = neffcraft.read(src)
    out = []
    for name, data in members:
        if name == "sg00/def.json":
            if kind in ("nodef", "nograph"):
                continue
            if kind == "notjson":
                data = b"{not json"
            else:
                d = json.loads(data)
                files = {v["var_id"]: v for v in d["var"] if v.get("type") == "file"}
                for v in d["var"]:
                    if kind == "renumber":
                        v["var_id"] += 100
                        if "referenced_var_id" in v:
                            v["referenced_var_id"] += 100
                    elif kind == "overrun" and v.get("name") == "w_out":
                        f = files[v["referenced_var_id"]]
                        v["const_ap_offset"] = f["size"] - f["data_offset"] - 4
                    if v.get("name") == "w1":
                        if kind == "names":
                            v["name"] = 'we"ird\x01\u00e9\t'
                        elif kind == "pastend":
                            v["const_ap_offset"] = 1 << 40
                        elif kind == "badref":
                            v["referenced_var_id"] = 999
                    elif kind == "moved" and v.get("name") == "w3":
                        v["const_ap_offset"] = v["from_off"] = 0
                    elif kind == "retype" and v.get("name") == "w_out":
                        v["dtype"] = v["to_dtype"] = v["from_dtype"] = "float16"
                        v["shape"] = [32, 4]
                    elif kind == "names" and v.get("name") == "b1":
                        v["name"] = "kelf-0.json"
                    elif kind == "names" and v.get("name") == "zero":
                        v["name"] = "sg00/w1"
                data = json.dumps(d, indent=1).encode()
        if kind == "nograph" and name == "kelf-0.json":
            continue
        if kind == "nograph" and name == "neff.json":
            d = json.loads(data)
            d["graphs"] = []
            data = json.dumps(d).encode()
        out.append((name, data))
    open(dst, "wb").write(neffcraft.pack(header, out))


if __name__ == "__main__":
    main()
