#!/usr/bin/env python3
"""interrupt_placed.py SIG FIFO DIR -- CMD...: runs CMD, whose -o is FIFO
(made here, its pipe shrunk to one page and never read), so CMD blocks
writing its output once its passes have placed their files in DIR; then
sends it SIG (INT, TERM or HUP) and prints how it ended and what is left
of DIR. Never waits for ever: CMD is killed after 60 seconds."""
import array
import fcntl
import os
import signal
import subprocess
import sys
import termios
import time

F_SETPIPE_SZ = 1031


def main():
    sig = getattr(signal, "SIG" + sys.argv[1])
    fifo, out_dir = sys.argv[2], sys.argv[3]
    cmd = sys.argv[sys.argv.index("--") + 1:]
    os.mkfifo(fifo)
    # a reader that never reads: CMD's open succeeds, its writes stop
    r = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    size = fcntl.fcntl(r, F_SETPIPE_SZ, 4096)

    def defaults():
        # a test runner may start us with these ignored; opt keeps an
        # ignored signal ignored
        for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(s, signal.SIG_DFL)

    p = subprocess.Popen(cmd, preexec_fn=defaults)
    deadline = time.time() + 60
    while p.poll() is None and time.time() < deadline:
        n = array.array("i", [0])
        fcntl.ioctl(r, termios.FIONREAD, n)
        if n[0] >= size:
            break
        time.sleep(0.05)
    if p.poll() is not None:
        print("finished before the signal: exit", p.returncode)
    elif time.time() >= deadline:
        p.kill()
        print("timed out")
    else:
        time.sleep(0.2)  # blocked in write(2) by now
        p.send_signal(sig)
    try:
        rc = p.wait(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()
        rc = p.wait()
    os.close(r)
    print("killed by SIG%s" % signal.Signals(-rc).name[3:] if rc < 0 else "exit %d" % rc)
    if os.path.exists(out_dir):
        print("left:", " ".join(sorted(os.listdir(out_dir))) or "(empty directory)")
    else:
        print("nothing left")


if __name__ == "__main__":
    main()
