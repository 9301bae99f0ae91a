#!/usr/bin/env python3
"""Reads an input node's raw events until SIGTERM and writes them as "µs type code value" lines
(CLOCK_MONOTONIC stamps), for Tests/vm/evaluate_forwarding.py to time a forwarded swipe on the clone.

  clone_frames.py NODE OUT"""
import fcntl, os, select, signal, struct, sys, time

node, out = sys.argv[1], sys.argv[2]
EVENT = struct.Struct("llHHi")
fd = os.open(node, os.O_RDONLY | os.O_NONBLOCK)
fcntl.ioctl(fd, 0x400445A0, struct.pack("i", time.CLOCK_MONOTONIC))  # EVIOCSCLOCKID
lines = []
running = True


def stop(*_):
    global running
    running = False


signal.signal(signal.SIGTERM, stop)
open(out + ".ready", "w").close()
while running:
    try:
        r, _, _ = select.select([fd], [], [], 0.2)
    except InterruptedError:
        continue
    if not r:
        continue
    try:
        data = os.read(fd, EVENT.size * 64)
    except BlockingIOError:
        continue
    for k in range(0, len(data), EVENT.size):
        sec, usec, t, c, v = EVENT.unpack_from(data, k)
        lines.append(f"{sec * 1_000_000 + usec} {t} {c} {v}\n")
open(out, "w").write("".join(lines))
