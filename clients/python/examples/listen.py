#!/usr/bin/env python3
"""Prints the daemon's gestures (and touches) as they happen, as `gesturectl listen` does.

    python3 listen.py --kind swipe            # every swipe
    python3 listen.py --touches '*' --json    # every touch stream, as JSON lines

Blocking: the script style of the library (`gestured.listen`)."""

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))  # run from a checkout
import gestured  # noqa: E402


def text(event: gestured.Event) -> str:
    if isinstance(event, gestured.Gesture):
        values = []
        if event.taps is not None:
            values.append(f"taps {event.taps}")
        if event.direction:
            values.append(event.direction)
        if event.translation:
            values.append(f"Δ {event.translation.x:.1f},{event.translation.y:.1f}")
        if event.scale is not None:
            values.append(f"scale {event.scale:.2f}")
        if event.rotation is not None:
            values.append(f"rotation {event.rotation:.2f} rad")
        if event.location and not event.translation:
            values.append(f"at {event.location.x:.1f},{event.location.y:.1f}")
        mark = " (synthesized)" if event.synthesized else ""
        return f"{event.gesture:<18} {event.kind:<10} {event.state:<10} {event.fingers}  {'  '.join(values)}{mark}"
    if isinstance(event, gestured.Touch):
        return (f"touch {event.id} {event.phase:<10} {event.location.x:.1f},{event.location.y:.1f}"
                f"  region {event.region}  responder {event.responder}")
    if isinstance(event, gestured.Explain):
        return f"explain {event.gesture}: {event.from_state} → {event.to_state}  {event.reason}"
    if isinstance(event, gestured.Dropped):
        return f"dropped {event.count} lines (this listener read too slowly)"
    return json.dumps(event.to_dict())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--socket", help="the daemon's socket (default: the lookup gesturectl uses)")
    parser.add_argument("--gesture", action="append", help="a gesture id of the config (repeatable)")
    parser.add_argument("--kind", action="append", help="tap, long-press, pan, swipe, pinch, rotation, edge-pan")
    parser.add_argument("--region", action="append", help="a region id of the config (repeatable)")
    parser.add_argument("--device", action="append", help="a device name (repeatable)")
    parser.add_argument("--touches", action="append", help="a region whose touch stream to print ('*': all)")
    parser.add_argument("--explain", action="store_true", help="also why recognizers changed state")
    parser.add_argument("--json", action="store_true", help="print the protocol's JSON lines")
    parser.add_argument("--count", type=int, help="stop after this many gesture lines")
    parser.add_argument("--wait", action="store_true", help="wait for the daemon to start instead of failing")
    args = parser.parse_args()
    seen = 0
    try:
        for event in gestured.listen(args.socket, gestures=args.gesture, kinds=args.kind, regions=args.region,
                                     devices=args.device, touches=args.touches, explain=args.explain, wait=args.wait):
            print(json.dumps(event.to_dict(), ensure_ascii=False) if args.json else text(event), flush=True)
            if isinstance(event, gestured.Gesture):
                seen += 1
                if args.count is not None and seen >= args.count:
                    return 0
    except gestured.GesturedError as error:
        print(f"listen.py: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
