#!/usr/bin/env python3
"""flip.py IN OUT OFFSET...: OUT is IN with bit 1 of the byte at each
OFFSET flipped (a negative offset counts from the end)."""
import sys

data = bytearray(open(sys.argv[1], "rb").read())
for offset in sys.argv[3:]:
    data[int(offset)] ^= 0x02
open(sys.argv[2], "wb").write(data)
