#!/usr/bin/env python3
"""ignored_signal.py INPUT -- CMD...: runs CMD (which reads the FIFO
INPUT, made here) with SIGHUP ignored, as nohup leaves it, sends it SIGHUP
while it waits for its input, then feeds it INPUT.src. Prints CMD's exit
status: a signal ignored at start must stay ignored."""
import os
import signal
import subprocess
import sys
import time

fifo = sys.argv[1]
cmd = sys.argv[sys.argv.index("--") + 1:]
os.mkfifo(fifo)
p = subprocess.Popen(cmd, preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_IGN))
time.sleep(1.0)  # opt sets up its handlers, then blocks opening the FIFO
p.send_signal(signal.SIGHUP)
time.sleep(0.2)
# Opening a FIFO with no reader would block for ever if CMD died of the
# signal: poll for a reader instead.
for _ in range(100):
    try:
        fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        break
    except OSError:
        if p.poll() is not None:
            break
        time.sleep(0.1)
else:
    p.kill()
if p.poll() is None:
    os.set_blocking(fd, True)
    with os.fdopen(fd, "wb") as w:
        w.write(open(fifo + ".src", "rb").read())
print("exit", p.wait())
