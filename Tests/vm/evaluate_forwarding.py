# Forwarding's part of evaluate.py (Tests/vm/forwarding.sh wrote the files): run inside
# evaluate.py, whose `out` and `check` it uses. Each line of forwarding-checks.txt is one check;
# the figures are printed (measured, not asserted).


def plain_lines(path):
    try:
        with open(path) as f:
            return [line.rstrip("\n") for line in f if line.strip()]
    except OSError:
        return []


def swipe_stop_ms(name):
    """From the real swipe's recording and the clone's frames: how long after the source's first frame
    with three fingers the clone's fingers last moved. Until the third finger lands every source frame
    is one clone frame, so a clone frame before that is timed by its source frame's recorded time
    (evemu-play's pace on the loaded emulated CPU does not count); a later one by the clone's own
    clock from its first frame."""
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Fixtures", "chromiumos-autotest")
    try:
        source = [(float(t) * 1e6, int(ty, 16), int(c, 16), int(v)) for t, ty, c, v in
                  (line.split()[1:5] for line in open(os.path.join(root, name + ".evemu")) if line.startswith("E: "))]
        clone = [(float(t), int(ty), int(c), int(v)) for t, ty, c, v in
                 (line.split() for line in open(os.path.join(out, f"fwd-clone-frames-{name}.txt")))]
    except OSError as e:
        return f"unknown ({e})"

    def frames(rows):  # (frame times, index of the first frame with three down, of the last moving a finger already down)
        slot, down, landed, moved, times, third, last = 0, set(), set(), False, [], None, None
        for t, ty, code, value in rows:
            if ty == 3 and code == 0x2F:
                slot = value
            elif ty == 3 and code == 0x39:
                if value >= 0:
                    down.add(slot)
                    landed.add(slot)
                else:
                    down.discard(slot)
            elif ty == 3 and code in (0x35, 0x36) and slot in down and slot not in landed:
                moved = True
            elif ty == 0 and code == 0:
                third = len(times) if third is None and len(down) >= 3 else third
                last = len(times) if moved else last
                times.append(t)
                moved, landed = False, set()
        return times, third, last

    s_times, s_third, _ = frames(source)
    c_times, _, c_last = frames(clone)
    if s_third is None or not c_times:
        return "unknown"
    if c_last is None:
        return "never"
    if c_last < s_third:
        return f"{(s_times[c_last] - s_times[s_third]) / 1000:.1f} ms (clone frame {c_last}, third finger at frame {s_third})"
    return f"{((c_times[c_last] - c_times[0]) - (s_times[s_third] - s_times[0])) / 1000:.1f} ms (by the clone's clock)"


def check_forwarding():
    print("\n== Forwarding: what the desktop gets through the clone (Tests/vm/forwarding.sh) ==")
    lines = plain_lines(os.path.join(out, "forwarding-checks.txt"))
    check("forwarding: the section ran", bool(lines), "no forwarding-checks.txt")
    for line in lines:
        status, name, detail = (line.split("|", 2) + ["", ""])[:3]
        check("forwarding: " + name, status == "ok", detail)
    figures = {}
    for line in plain_lines(os.path.join(out, "forwarding-figures.txt")):
        key, _, rest = line.partition(" ")
        figures[key] = rest.split()
    for key, label in (("latency-direct", "the kernel alone (reader of the device)"),
                       ("latency-clone", "through gestured (reader of the clone)")):
        v = figures.get(key, [])
        if len(v) >= 4 and v[0].isdigit():
            print(f"  latency, {label}: p50 {v[0]} µs, p99 {v[1]} µs, max {v[2]} µs over {v[3]} frames")
        else:
            print(f"  latency, {label}: {' '.join(v) or 'missing'}")
    d, c = figures.get("latency-direct", []), figures.get("latency-clone", [])
    if len(d) >= 3 and len(c) >= 3 and d[0].isdigit() and c[0].isdigit() and int(d[0]) > 0:
        print(f"  latency ratio clone / direct: p50 {int(c[0]) / int(d[0]):.2f}, p99 {int(c[1]) / max(1, int(d[1])):.2f}")
    # The stripped part of each field of a latency line: its two parts (writer → stamp, stamp → reader).
    if len(d) >= 8 and len(c) >= 8 and all(x.isdigit() for x in d[:8] + c[:8]):
        print(f"  latency parts, p50 / p99 µs: write → kernel stamp: direct {d[4]} / {d[5]}, clone {c[4]} / {c[5]} "
              f"(the hop: {int(c[4]) - int(d[4])} / {int(c[5]) - int(d[5])}); stamp → reader: direct {d[6]} / {d[7]}, "
              f"clone {c[6]} / {c[7]}")
    for key, label in (("latency-floor", "through the least hop (scripts/profiling/hop-floor.c)"),):
        v = figures.get(key, [])
        if len(v) >= 4 and v[0].isdigit() and len(d) >= 3 and d[0].isdigit():
            print(f"  latency, {label}: p50 {v[0]} µs, p99 {v[1]} µs; ratio to direct p50 {int(v[0]) / int(d[0]):.2f}, "
                  f"p99 {int(v[1]) / max(1, int(d[1])):.2f}")
    # The forwarder's own CPU time and times scheduled per frame (the last two fields, when measured).
    for key, label in (("latency-floor", "the least hop"), ("latency-clone", "gestured")):
        v = figures.get(key, [])
        if len(v) >= 10:
            print(f"  forwarder per frame, {label}: {v[8]} µs CPU, scheduled {v[9]} times")
    for line in plain_lines(os.path.join(out, "forwarding-figures.txt")):
        parts = line.split()
        if parts[0] != "real-swipe" or len(parts) < 4:
            continue
        name = parts[1]
        stop = swipe_stop_ms(name)
        print(f"  real swipe {name}: libinput scroll events before the swipe: device {parts[2]}, clone {parts[3]}; "
              f"the clone's fingers last moved {stop} after the third finger landed")
    v = figures.get("cpu", [])
    if len(v) == 3 and all(x.isdigit() for x in v) and int(v[0]) > 0 and int(v[2]) > 0:
        events, g, l = (int(x) for x in v)
        per = lambda ns: ns / 1e6 / events * 1000
        print(f"  CPU per 1,000 events ({events} events): gestured forwarding {per(g):.1f} ms, "
              f"libinput debug-events on the clone {per(l):.1f} ms; ratio {g / l:.2f}")
    else:
        print(f"  CPU: {' '.join(v) or 'missing'}")


check_forwarding()
