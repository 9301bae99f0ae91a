#!/usr/bin/env python3
"""The on-screen keyboard of docs/protocol.md ("Apps"): a keyboard region along the bottom of the
screen with an Enter key, a tap on the key presses it, a swipe down dismisses the keyboard.

    python3 keyboard.py
    python3 keyboard.py --frame 0 50% 100% 50%

What the app sends is the protocol's attach, written with the library:

    {"request":"attach","parent":"screen","regions":{"id":"kb","frame":[0,"60%","100%","40%"],"publish-touches":true,
     "children":[{"id":"enter","frame":["85%",0,"15%","25%"],"control":true,"min-hit-size":[48,48]}]},
     "gestures":[{"id":"press","kind":"tap","region":"enter"},{"id":"dismiss","kind":"swipe","directions":["down"]}]}
"""

import argparse
import asyncio
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))  # run from a checkout
import gestured  # noqa: E402

KEYS = [{"id": "enter", "frame": ["85%", 0, "15%", "25%"], "control": True, "min-hit-size": [48, 48]}]
GESTURES = [{"id": "press", "kind": "tap", "region": "enter"},
            {"id": "dismiss", "kind": "swipe", "directions": ["down"]}]


def number_or_percent(text: str):
    return text if text.endswith("%") else float(text)


async def run(args) -> int:
    async with await gestured.connect(args.socket) as client:
        await client.attach({"id": "kb", "frame": args.frame, "publish-touches": True, "children": KEYS},
                            GESTURES, parent="screen")
        print("keyboard shown", flush=True)
        presses = 0
        async for event in client:
            if not isinstance(event, gestured.Gesture):
                continue
            if event.gesture == "press" and event.state == "recognized":
                presses += 1
                print(f"enter pressed at {event.location.x:.0f},{event.location.y:.0f}", flush=True)
                if args.exit_after is not None and presses >= args.exit_after:
                    return 0
            elif event.gesture == "dismiss" and event.state in ("recognized", "ended"):
                await client.update("kb", hidden=True)
                print("keyboard dismissed", flush=True)
                return 0
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--socket", help="the daemon's socket (default: the lookup gesturectl uses)")
    parser.add_argument("--frame", nargs=4, type=number_or_percent, default=[0, "60%", "100%", "40%"],
                        metavar=("X", "Y", "W", "H"), help="where the keyboard is (default: the bottom 40 %%)")
    parser.add_argument("--exit-after", type=int, metavar="N", help="stop after N presses of Enter")
    args = parser.parse_args()
    try:
        return asyncio.run(run(args))
    except gestured.GesturedError as error:
        print(f"keyboard.py: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
