#!/usr/bin/env python3
"""twofuncs.py IN OUT [NAME]: copies BIR function @sg00 of IN as a second
function (@sg01, or NAME) after it, for multi-function BIR tests."""
import re
import sys

text = open(sys.argv[1]).read()
m = re.search(r"  func.func @sg00\(\).*?\n  }\n", text, re.S)
name = sys.argv[3] if len(sys.argv) > 3 else "sg01"
copy = m.group(0).replace("@sg00", "@" + name, 1)
open(sys.argv[2], "w").write(text[:m.end()] + copy + text[m.end():])
