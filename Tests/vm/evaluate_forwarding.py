# Forwarding's part of evaluate.py (Tests/vm/forwarding.sh wrote the files): run inside
# evaluate.py, whose `out` and `check` it uses. Each line of forwarding-checks.txt is one check;
# the figures are printed (measured, not asserted).


def plain_lines(path):
    try:
        with open(path) as f:
            return [line.rstrip("\n") for line in f if line.strip()]
    except OSError:
        return []


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
    v = figures.get("cpu", [])
    if len(v) == 3 and all(x.isdigit() for x in v) and int(v[0]) > 0 and int(v[2]) > 0:
        events, g, l = (int(x) for x in v)
        per = lambda ns: ns / 1e6 / events * 1000
        print(f"  CPU per 1,000 events ({events} events): gestured forwarding {per(g):.1f} ms, "
              f"libinput debug-events on the clone {per(l):.1f} ms; ratio {g / l:.2f}")
    else:
        print(f"  CPU: {' '.join(v) or 'missing'}")


check_forwarding()
