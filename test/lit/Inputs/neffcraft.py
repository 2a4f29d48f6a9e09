#!/usr/bin/env python3
"""Makes damaged or hostile NEFFs from a good one, for the neff tool tests.

    neffcraft.py KIND IN OUT
      header      flip a byte of the header's payload MD5
      member      change a byte of a constant member (header MD5 redone)
      bom         change an MD5 in bom.json (header MD5 redone)
      signature   change the IR signature in neff.json (BOM and header redone)
      traversal   add a member named ../evil.txt
      bomb        add a 64 MiB member of zeros (64 KiB compressed)
      truncate    cut the file in the middle of the payload
      duplicate   add a second, 2-byte sg00/def.json (header MD5 redone)
      plain       the same tar, not compressed (header size and MD5 redone)
      zeros       a payload of 4096 zero bytes (header size and MD5 redone)
      trailing    8 junk bytes after the gzip stream (header size and MD5 redone)
      twomembers  the same tar as two gzip members, which gzip allows (redone)
      crc         the gzip trailer's CRC changed (header MD5 redone)
      cut         the payload's first half only (header size and MD5 redone)
      notrailer   the payload without its gzip trailer (CRC, size) (redone)
      tarjunk     text after the tar's end-of-archive blocks, inside the gzip
                  stream, where tar readers stop (redone)
      memberlist  neff.json's member list leaves out its last member (BOM and
                  header redone)
      graph       kelf-0.json names a definition the package does not hold
                  (BOM and header redone)
      bomtwice    bom.json lists its first entry twice and leaves out its
                  last, so the entry count still matches (header MD5 redone)
      escape      add a member whose name holds a terminal escape sequence
      escapedup   add that member twice (unpack fails on the second copy)
      dotname     add ./kelf-0.json, the path of kelf-0.json (BOM, header MD5
                  and uuid redone: valid but for the name)
      folderclash add kelf-0.json/x, under a path that is a member (redone
                  likewise)
      repack      the same members in a new tar (header MD5 and uuid redone)
      rekeyed     change a byte of a constant member, then redo its BOM entry,
                  the IR signature, neff.json's entry, header MD5 and uuid:
                  only the MD5 in the member's name is wrong
      npymagic    the same with the member's first byte (its .npy magic)
      mtime       that, with kelf-0.json's mtime 1234 (header MD5 redone)
      owner       that, with kelf-0.json owned by root:root (redone)
      resflags    a reserved gzip header flag (FLG 0x20) set in the first member
                  (header MD5 redone)
      resflags2   the same tar as two gzip members, the second with FLG 0x80
                  (redone)
      gzmtime     the first gzip member's header with MTIME 1234 (header MD5
                  and uuid redone: valid but for the time)
      gzmtime2    the same tar as two gzip members, the second with MTIME 1234
                  (redone likewise)
      dbg         add sg00/notes.dbg, listed in neff.json and bom.json and signed
                  as the rule says (signature, BOM, header MD5 and uuid redone:
                  valid)
      splitmagic  two stored gzip members, the first 1048575 bytes long, so
                  the second's magic straddles a 1 MiB read (redone; valid)
"""
import gzip
import hashlib
import io
import json
import struct
import sys
import tarfile
import zlib


def read(path):
    data = open(path, "rb").read()
    members = []
    with tarfile.open(fileobj=io.BytesIO(data[1024:]), mode="r:gz") as t:
        for m in t.getmembers():
            members.append((m.name, t.extractfile(m).read()))
    return data[:1024], members


def entry(name, size):
    """A member's tar entry as neff-pack writes it: time 0, nobody's."""
    info = tarfile.TarInfo(name)
    info.size = size
    info.uname = info.gname = "nobody"
    return info


def pack(header, members, extra=None, touch=None):
    """TOUCH(info), when given, changes each entry before it is written."""
    buf = io.BytesIO()
    with gzip.GzipFile(fileobj=buf, mode="wb", compresslevel=1, mtime=0) as gz:
        with tarfile.open(fileobj=gz, mode="w", format=tarfile.PAX_FORMAT) as t:
            for name, data in members:
                info = entry(name, len(data))
                if touch:
                    touch(info)
                t.addfile(info, io.BytesIO(data))
            if extra:
                extra(t)
    payload = buf.getvalue()
    h = bytearray(header)
    h[16:24] = struct.pack("<Q", len(payload))
    h[172:188] = hashlib.md5(payload).digest()
    return bytes(h) + payload


def extra_member(name, data):
    """An EXTRA for pack(): one more member, written after the others."""
    def add(t):
        t.addfile(entry(name, len(data)), io.BytesIO(data))
    return add


def redo_uuid(neff):
    """The uuid neff-pack derives from the header's payload MD5."""
    h = bytearray(neff[:1024])
    h[204:220] = hashlib.md5(b"weightpack-uuid:" + h[172:188].hex().encode()).digest()
    return bytes(h) + neff[1024:]


def main():
    kind, src, dst = sys.argv[1:4]
    header, members = read(src)
    if kind == "header":
        out = bytearray(open(src, "rb").read())
        out[172] ^= 0x01
        out = bytes(out)
    elif kind in ("plain", "zeros"):
        data = open(src, "rb").read()
        payload = gzip.decompress(data[1024:]) if kind == "plain" else bytes(4096)
        h = bytearray(data[:1024])
        h[16:24] = struct.pack("<Q", len(payload))
        h[172:188] = hashlib.md5(payload).digest()
        out = bytes(h) + payload
    elif kind in ("trailing", "twomembers", "crc", "cut", "notrailer", "tarjunk",
                  "splitmagic", "resflags", "resflags2", "gzmtime", "gzmtime2"):
        data = open(src, "rb").read()
        payload = data[1024:]
        if kind == "trailing":
            payload += b"JUNK0123"
        elif kind == "twomembers":
            tar = gzip.decompress(payload)
            half = len(tar) // 2
            payload = (gzip.compress(tar[:half], 1, mtime=0) +
                       gzip.compress(tar[half:], 1, mtime=0))
        elif kind == "resflags":
            p = bytearray(payload)
            p[3] |= 0x20
            payload = bytes(p)
        elif kind == "resflags2":
            tar = gzip.decompress(payload)
            half = len(tar) // 2
            second = bytearray(gzip.compress(tar[half:], 1, mtime=0))
            second[3] |= 0x80
            payload = gzip.compress(tar[:half], 1, mtime=0) + bytes(second)
        elif kind == "gzmtime":
            payload = payload[:4] + struct.pack("<I", 1234) + payload[8:]
        elif kind == "gzmtime2":
            tar = gzip.decompress(payload)
            half = len(tar) // 2
            payload = (gzip.compress(tar[:half], 1, mtime=0) +
                       gzip.compress(tar[half:], 1, mtime=1234))
        elif kind == "cut":
            payload = payload[:len(payload) // 2]
        elif kind == "splitmagic":
            tar = gzip.decompress(payload)

            def stored(data):
                c = zlib.compressobj(0, zlib.DEFLATED, 31)
                return c.compress(data) + c.flush()
            n = 1048575 - len(tar) - 200
            first = stored(tar + bytes(n))
            while len(first) < 1048575:
                n += 1
                first = stored(tar + bytes(n))
            assert len(first) == 1048575
            payload = first + stored(bytes(4096))
        elif kind == "notrailer":
            payload = payload[:-8]
        elif kind == "tarjunk":
            tar = gzip.decompress(payload)
            payload = gzip.compress(tar + b"hidden after the end of the archive\n" * 8, 1, mtime=0)
        else:
            p = bytearray(payload)
            p[-8] ^= 0x01
            payload = bytes(p)
        h = bytearray(data[:1024])
        h[16:24] = struct.pack("<Q", len(payload))
        h[172:188] = hashlib.md5(payload).digest()
        out = bytes(h) + payload
        if kind in ("gzmtime", "gzmtime2"):
            out = redo_uuid(out)
    elif kind == "truncate":
        out = open(src, "rb").read()
        out = out[:1024 + (len(out) - 1024) // 2]
    else:
        extra = None
        ms = dict(members)
        if kind == "member":
            name = next(n for n in ms if n.endswith(".npy") or n.endswith(".bin"))
            b = bytearray(ms[name])
            b[-1] ^= 0x01
            ms[name] = bytes(b)
        elif kind == "bom":
            bom = json.loads(ms["bom.json"])
            bom["members"][-1]["md5"] = "0" * 32
            ms["bom.json"] = (json.dumps(bom, indent=1) + "\n").encode()
        elif kind == "signature":
            neff = json.loads(ms["neff.json"])
            neff["ir_signature"] = "f" * 32
            ms["neff.json"] = (json.dumps(neff, indent=1) + "\n").encode()
            bom = json.loads(ms["bom.json"])
            for e in bom["members"]:
                if e["name"] == "neff.json":
                    e["md5"] = hashlib.md5(ms["neff.json"]).hexdigest()
                    e["size"] = len(ms["neff.json"])
            ms["bom.json"] = (json.dumps(bom, indent=1) + "\n").encode()
        elif kind in ("memberlist", "graph"):
            if kind == "memberlist":
                neff = json.loads(ms["neff.json"])
                neff["members"] = neff["members"][:-1]
                ms["neff.json"] = (json.dumps(neff, indent=1) + "\n").encode()
            else:
                ms["kelf-0.json"] = b'{"definition": "sg99/def.json", "name": "sg99"}\n'
            bom = json.loads(ms["bom.json"])
            for e in bom["members"]:
                if e["name"] in ("neff.json", "kelf-0.json"):
                    e["md5"] = hashlib.md5(ms[e["name"]]).hexdigest()
                    e["size"] = len(ms[e["name"]])
            ms["bom.json"] = (json.dumps(bom, indent=1) + "\n").encode()
        elif kind == "bomtwice":
            bom = json.loads(ms["bom.json"])
            bom["members"][-1] = bom["members"][0]
            ms["bom.json"] = (json.dumps(bom, indent=1) + "\n").encode()
        elif kind in ("escape", "escapedup"):
            ms["sg00/\x1b[2Jx.bin"] = b"x"
            if kind == "escapedup":
                extra = extra_member("sg00/\x1b[2Jx.bin", b"x")
        elif kind in ("dotname", "folderclash"):
            if kind == "dotname":
                ms["./kelf-0.json"] = ms["kelf-0.json"]
            else:
                ms["kelf-0.json/x"] = b"x"
            bom = json.loads(ms.pop("bom.json"))
            for n in ("./kelf-0.json", "kelf-0.json/x"):
                if n in ms:
                    bom["members"].append({"name": n, "size": len(ms[n]),
                                           "md5": hashlib.md5(ms[n]).hexdigest()})
            ms["bom.json"] = (json.dumps(bom, indent=1) + "\n").encode()
        elif kind == "traversal":
            ms["../evil.txt"] = b"outside\n"
        elif kind == "duplicate":
            extra = extra_member("sg00/def.json", b"{}")
        elif kind == "bomb":
            def add_bomb(t):
                info = entry("sg00/zeros.bin", 64 << 20)

                class Zeros(io.RawIOBase):
                    left = 64 << 20

                    def readable(self):
                        return True

                    def readinto(self, b):
                        n = min(len(b), self.left)
                        b[:n] = bytes(n)
                        self.left -= n
                        return n
                t.addfile(info, io.BufferedReader(Zeros(), 1 << 20))
            extra = add_bomb
        elif kind == "repack":
            pass
        elif kind in ("rekeyed", "npymagic", "dbg"):
            bom = json.loads(ms["bom.json"])
            neff = json.loads(ms["neff.json"])
            if kind == "dbg":
                name = "sg00/notes.dbg"
                ms[name] = b"debug notes\n"
                bom["members"].append({"name": name, "size": 0, "md5": ""})
                neff["members"] = sorted(neff["members"] + [name])
                ms["neff.json"] = (json.dumps(neff, indent=1) + "\n").encode()
            else:
                name = next(n for n in ms if n.endswith(".npy") or n.endswith(".bin"))
                b = bytearray(ms[name])
                b[0 if kind == "npymagic" else -1] ^= 0x01
                ms[name] = bytes(b)
            md5 = {e["name"]: e["md5"] for e in bom["members"]}
            md5[name] = hashlib.md5(ms[name]).hexdigest()
            signed = "".join("%s\n%s\n" % (n, md5[n]) for n in sorted(md5)
                             if n.rsplit("/", 1)[-1].endswith(".npy")
                             or ".dbg" in n.rsplit("/", 1)[-1])
            neff = json.loads(ms["neff.json"])
            neff["ir_signature"] = hashlib.md5(signed.encode()).hexdigest()
            ms["neff.json"] = (json.dumps(neff, indent=1) + "\n").encode()
            md5["neff.json"] = hashlib.md5(ms["neff.json"]).hexdigest()
            for e in bom["members"]:
                e["md5"] = md5[e["name"]]
                e["size"] = len(ms[e["name"]])
            ms["bom.json"] = (json.dumps(bom, indent=1) + "\n").encode()
        elif kind == "mtime":
            def touch(info):
                if info.name == "kelf-0.json":
                    info.mtime = 1234
        elif kind == "owner":
            def touch(info):
                if info.name == "kelf-0.json":
                    info.uname = info.gname = "root"
        else:
            sys.exit("unknown kind " + kind)
        out = pack(header, list(ms.items()), extra,
                   touch if kind in ("mtime", "owner") else None)
        if kind in ("dotname", "folderclash", "repack", "mtime", "owner", "rekeyed",
                    "npymagic", "dbg"):
            out = redo_uuid(out)
    open(dst, "wb").write(out)


if __name__ == "__main__":
    main()
