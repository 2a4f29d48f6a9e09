#!/usr/bin/env python3
"""birdata.py MLIR FILE NAME: prints MLIR with const file NAME's
`assembled = "..."` replaced by `data = dense<"0x...">` holding FILE's
bytes, so the data form can be tested (bir-lower writes assembled files)."""
import re
import sys

text = open(sys.argv[1]).read()
data = open(sys.argv[2], "rb").read()
name = sys.argv[3]
pat = re.compile(r'assembled = "[^"]*", (size = \d+ : i64, sym_name = "%s")' % re.escape(name))
new, n = pat.subn(lambda m: 'data = dense<"0x%s"> : tensor<%dxui8>, %s'
                  % (data.hex().upper(), len(data), m.group(1)), text)
if n != 1:
    sys.exit("birdata.py: const file %s: %d assembled forms found" % (name, n))
sys.stdout.write(new)
