#!/usr/bin/env python3
"""Forwarding latency through the real kernel: creates a uinput touchscreen (the source), waits for
a reader's device to appear, then writes frames of a one-finger drag to the source and, for each,
times the moment its SYN_REPORT can be read from the reader's node (CLOCK_MONOTONIC, µs).

  forward_latency.py clone NAME OUT FRAMES [PID]   source named NAME; reads the gestured clone of it
  forward_latency.py direct NAME OUT FRAMES        reads the source itself (the kernel alone, for the ratio)

Writes OUT as "p50 p99 max count stamp50 stamp99 wake50 wake99" in µs: the whole delay, then its two
parts: from the write to the kernel's timestamp of the frame the reader gets (the kernel alone: the
source's; through a clone: the writer of the clone, its wake-up, read, work and write, included), and
from that timestamp to the reader having it (the reader's wake-up and read). With PID (the
forwarder), two more fields: the forwarder's CPU time per frame (µs) and its times scheduled per frame
over the timed frames (/proc/PID/schedstat), which tell its own work from the kernel's."""
import fcntl, glob, os, select, struct, sys, time

UI_SET_EVBIT, UI_SET_KEYBIT, UI_SET_ABSBIT, UI_SET_PROPBIT = 0x40045564, 0x40045565, 0x40045567, 0x4004556E
UI_DEV_CREATE, UI_DEV_DESTROY = 0x5501, 0x5502
EV_SYN, EV_KEY, EV_ABS = 0, 1, 3
BTN_TOUCH = 0x14A
ABS_X, ABS_Y, ABS_MT_SLOT, ABS_MT_X, ABS_MT_Y, ABS_MT_ID = 0, 1, 0x2F, 0x35, 0x36, 0x39
EVENT = struct.Struct("llHHi")

mode, name, out, frames = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
forwarder = sys.argv[5] if len(sys.argv) > 5 else None


def schedstat():
    """The forwarder's (ns on a CPU, times run) summed over its threads, or None."""
    if forwarder is None:
        return None
    ns = runs = 0
    for task in glob.glob(f"/proc/{forwarder}/task/*/schedstat"):
        try:
            fields = open(task).read().split()
        except OSError:
            continue
        ns, runs = ns + int(fields[0]), runs + int(fields[2])
    return ns, runs

ui = os.open("/dev/uinput", os.O_WRONLY | os.O_NONBLOCK)
for ev in (EV_SYN, EV_KEY, EV_ABS):
    fcntl.ioctl(ui, UI_SET_EVBIT, ev)
fcntl.ioctl(ui, UI_SET_KEYBIT, BTN_TOUCH)
absmax, absmin = [0] * 64, [0] * 64
for code, hi in ((ABS_X, 4000), (ABS_Y, 3000), (ABS_MT_SLOT, 9), (ABS_MT_X, 4000), (ABS_MT_Y, 3000), (ABS_MT_ID, 65535)):
    fcntl.ioctl(ui, UI_SET_ABSBIT, code)
    absmax[code] = hi
fcntl.ioctl(ui, UI_SET_PROPBIT, 1)  # INPUT_PROP_DIRECT
setup = struct.pack("80sHHHHi64i64i64i64i", name.encode(), 3, 0x1234, 0x5678, 1, 0, *absmax, *absmin, *([0] * 64), *([0] * 64))
os.write(ui, setup)
fcntl.ioctl(ui, UI_DEV_CREATE)


def node_named(wanted_clone):
    for sysdir in glob.glob("/sys/class/input/event*"):
        try:
            n = open(sysdir + "/device/name").read().strip()
            phys = open(sysdir + "/device/phys").read().strip()
        except OSError:
            continue
        if n == name and phys.startswith("gestured-clone:") == wanted_clone:
            return "/dev/input/" + os.path.basename(sysdir)
    return None


deadline = time.monotonic() + 60
node = None
while time.monotonic() < deadline and node is None:
    node = node_named(mode == "clone")
    if node is None:
        time.sleep(0.1)
if node is None:
    open(out, "w").write("no-device\n")
    sys.exit(1)
time.sleep(1.0)  # the daemon has grabbed the source and is reading it
reader = os.open(node, os.O_RDONLY | os.O_NONBLOCK)
EVIOCSCLOCKID = 0x400445A0
fcntl.ioctl(reader, EVIOCSCLOCKID, struct.pack("i", time.CLOCK_MONOTONIC))  # stamps comparable with monotonic_ns


def write(events):
    os.write(ui, b"".join(EVENT.pack(0, 0, t, c, v) for t, c, v in events))


def drain():
    try:
        while os.read(reader, EVENT.size * 64):
            pass
    except BlockingIOError:
        pass


samples, stamps, wakes = [], [], []
x = 1000
write([(EV_ABS, ABS_MT_SLOT, 0), (EV_ABS, ABS_MT_ID, 1), (EV_ABS, ABS_MT_X, x), (EV_ABS, ABS_MT_Y, 1500),
       (EV_KEY, BTN_TOUCH, 1), (EV_ABS, ABS_X, x), (EV_ABS, ABS_Y, 1500), (EV_SYN, 0, 0)])
time.sleep(0.2)
drain()
before = schedstat()
for i in range(frames):
    x = 1000 + (i % 200) * 5
    start = time.monotonic_ns()
    write([(EV_ABS, ABS_MT_X, x), (EV_ABS, ABS_X, x), (EV_SYN, 0, 0)])
    got = None
    while got is None:
        r, _, _ = select.select([reader], [], [], 0.5)
        if not r:
            break
        data = os.read(reader, EVENT.size * 64)
        for k in range(0, len(data), EVENT.size):
            sec, usec, t, c, _ = EVENT.unpack_from(data, k)
            if t == EV_SYN and c == 0:
                got = sec * 1_000_000_000 + usec * 1000
    if got is not None:
        now = time.monotonic_ns()
        samples.append((now - start) / 1000)
        stamps.append((got - start) / 1000)
        wakes.append((now - got) / 1000)
    time.sleep(0.01)
after = schedstat()
write([(EV_ABS, ABS_MT_ID, -1), (EV_KEY, BTN_TOUCH, 0), (EV_SYN, 0, 0)])
time.sleep(0.2)
for s in (samples, stamps, wakes):
    s.sort()
if samples:
    pick = lambda s, q: s[min(len(s) - 1, int(q * len(s)))]
    open(out, "w").write(f"{pick(samples, 0.5):.0f} {pick(samples, 0.99):.0f} {samples[-1]:.0f} {len(samples)} "
                         f"{pick(stamps, 0.5):.0f} {pick(stamps, 0.99):.0f} {pick(wakes, 0.5):.0f} {pick(wakes, 0.99):.0f}"
                         + (f" {(after[0] - before[0]) / 1000 / frames:.0f} {(after[1] - before[1]) / frames:.2f}"
                            if before and after else "") + "\n")
else:
    open(out, "w").write("no-samples\n")
fcntl.ioctl(ui, UI_DEV_DESTROY)
