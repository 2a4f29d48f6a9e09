#!/usr/bin/env python3
"""stopsig.py SIGNAL OUT_DIR [ignored | after=SECONDS] -- CMD...: runs CMD
(an unpack into OUT_DIR) and sends it SIGNAL (a name: PIPE, QUIT, HUP,
TERM, ...) as soon as OUT_DIR appears, that is while it writes members,
or, with after=SECONDS, that long after it started.

Without "ignored": CMD must die of SIGNAL with OUT_DIR taken back, or (if
it was done first) exit 0 with OUT_DIR made. With "ignored": CMD starts
with SIGNAL ignored (as under nohup) and must keep it so: exit 0 with
OUT_DIR made. Exit 1 (with a reason) otherwise."""
import os
import signal
import subprocess
import sys
import time


def main():
    sig = getattr(signal, "SIG" + sys.argv[1])
    out = sys.argv[2]
    opt = sys.argv[3] if sys.argv[3] != "--" else ""
    ignored = opt == "ignored"
    after = float(opt[len("after="):]) if opt.startswith("after=") else None
    cmd = sys.argv[sys.argv.index("--") + 1:]
    # (runs after subprocess has reset SIGPIPE to its default)
    pre = (lambda: signal.signal(sig, signal.SIG_IGN)) if ignored else None
    p = subprocess.Popen(cmd, preexec_fn=pre)
    if after is not None:
        time.sleep(after)
    else:
        deadline = time.monotonic() + 30
        while not os.path.exists(out) and p.poll() is None and time.monotonic() < deadline:
            time.sleep(0.0005)
    if p.poll() is None:
        p.send_signal(sig)
    rc = p.wait()
    if rc == 0:
        if not os.path.isdir(out):
            sys.exit("exit 0 but %s was not made" % out)
        print("finished")
    elif rc == -sig and not ignored:
        if os.path.exists(out):
            sys.exit("killed, but %s is left behind: %s" % (out, os.listdir(out)))
        print("interrupted, nothing left")
    else:
        sys.exit("exit status %d" % rc)


if __name__ == "__main__":
    main()
