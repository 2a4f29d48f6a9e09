#!/usr/bin/env python3
"""interrupt.py DELAY OUT_DIR -- CMD...: runs CMD, sends it SIGTERM after
DELAY seconds, and checks the all-or-nothing rule: CMD either exited 0
having made OUT_DIR, or was interrupted and OUT_DIR does not exist.
Exit 1 (with a reason) when neither holds."""
import os
import signal
import subprocess
import sys
import time


def main():
    delay, out = float(sys.argv[1]), sys.argv[2]
    cmd = sys.argv[sys.argv.index("--") + 1:]
    p = subprocess.Popen(cmd)
    time.sleep(delay)
    if p.poll() is None:
        p.send_signal(signal.SIGTERM)  # (SIGINT may be ignored under a test runner)
    rc = p.wait()
    if rc == 0:
        if not os.path.isdir(out):
            sys.exit("exit 0 but %s was not made" % out)
        print("finished before the signal")
    elif rc == -signal.SIGTERM:
        if os.path.exists(out):
            sys.exit("interrupted, but %s is left behind: %s" % (out, os.listdir(out)))
        print("interrupted, nothing left")
    else:
        sys.exit("exit status %d" % rc)


if __name__ == "__main__":
    main()
