# Pens' part of evaluate.py (Tests/vm/pens.sh wrote the live files, run.sh the replays): run inside
# evaluate.py, whose `out`, `check`, `read_lines`, `gestures`, `signature`, `hotplug` and `removal` it uses.


def check_pens():
    for name in ("pen-default", "pen-bound"):
        check(f"{name}: hotplug seen through libudev", name in hotplug)
        check(f"{name}: device removal seen", name in removal)

    # 1. The Cintiq's pen with the default config: pen touches with pressure and tilt, hover lines, no gesture.
    live = [t for t in read_lines(os.path.join(out, "live-pen-default.jsonl")) if t.get("type") == "touch"]
    replay = [t for t in read_lines(os.path.join(out, "replay-pen-default.jsonl")) if t.get("type") == "touch"]
    began = [t for t in live if t.get("phase") == "began"]
    check("pen-default: pen touches through the kernel (kind pen, as many as the replay's)",
          len(began) == len([t for t in replay if t.get("phase") == "began"]) > 0
          and all(t.get("kind") == "pen" for t in live),
          f"live began={len(began)} replay began={len([t for t in replay if t.get('phase') == 'began'])} "
          f"kinds={sorted(set(str(t.get('kind')) for t in live))}")
    touching = [t for t in live if t.get("phase") in ("began", "moved", "ended")]
    check("pen-default: every contact line has a pressure in (0, 1] and a tilt",
          bool(touching) and all(0 < t.get("pressure", 0) <= 1 and "altitude" in t and "azimuth" in t for t in touching),
          f"{[(t.get('phase'), t.get('pressure'), t.get('altitude')) for t in touching[:5]]}")
    check("pen-default: the first contact's pressure and tilt are the replay's",
          bool(began) and bool(replay) and
          [round(began[0].get(k, -1), 5) for k in ("pressure", "altitude", "azimuth")] ==
          [round(next(t for t in replay if t.get("phase") == "began").get(k, -1), 5) for k in ("pressure", "altitude", "azimuth")],
          f"live={began[:1]}")
    phases = [t.get("phase") for t in live]
    check("pen-default: hovering lines, and one hover-ended",
          "hovering" in phases and phases.count("hover-ended") == [t.get("phase") for t in replay].count("hover-ended"),
          f"hovering={phases.count('hovering')} hover-ended={phases.count('hover-ended')}")
    check("pen-default: no gesture (the default config's gestures take fingers)",
          not gestures(os.path.join(out, "live-pen-default.jsonl")))

    # 2. The DTH2242's pen with a pen tap and a pen pan bound: the replay's gestures.
    live_g = gestures(os.path.join(out, "live-pen-bound.jsonl"))
    replay_g = gestures(os.path.join(out, "replay-pen-bound.jsonl"))
    taps = [g for g in live_g if g["gesture"] == "pen-tap" and g["state"] == "recognized"]
    strokes = [g for g in live_g if g["gesture"] == "pen-stroke"]
    check("pen-bound: six pen taps and one pen stroke with its pressure",
          len(taps) == 6 and [g["state"] for g in strokes][:1] == ["began"] and strokes[-1:] and strokes[-1]["state"] == "ended"
          and all(g.get("pressure", 0) > 0 for g in strokes),
          f"{[(g['gesture'], g['state'], g.get('pressure')) for g in live_g]}")
    check("pen-bound: kernel path gives the same sequence as gestured replay", signature(live_g) == signature(replay_g),
          f"\n  live:   {signature(live_g)}\n  replay: {signature(replay_g)}")
