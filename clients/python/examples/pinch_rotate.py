#!/usr/bin/env python3
"""An app that owns a region with a pinch and a rotation recognized together, and prints them.

    python3 pinch_rotate.py                          # the whole screen
    python3 pinch_rotate.py --frame 0 0 50% 100%     # its left half

asyncio: the library's main style. The region and its gestures exist while the app runs; if the
daemon restarts, the library attaches them again."""

import argparse
import asyncio
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))  # run from a checkout
import gestured  # noqa: E402


def number_or_percent(text: str):
    return text if text.endswith("%") else float(text)


async def run(args) -> int:
    async with await gestured.connect(args.socket) as client:
        reply = await client.attach(
            {"id": "canvas", "frame": args.frame},
            [{"id": "zoom", "kind": "pinch", "simultaneous-with": ["turn"]},
             {"id": "turn", "kind": "rotation"}],
            parent=args.parent)
        print(f"attached {reply['regions']} with {reply['gestures']}", flush=True)
        ended = 0
        async for event in client:
            if isinstance(event, gestured.Gesture):
                if event.kind == "pinch":
                    print(f"zoom {event.state} scale {event.scale:.2f}", flush=True)
                elif event.kind == "rotation":
                    print(f"turn {event.state} rotation {math.degrees(event.rotation):.0f}°", flush=True)
                if event.state in ("ended", "cancelled"):
                    ended += 1
                    if args.exit_after is not None and ended >= args.exit_after:
                        return 0
            elif isinstance(event, (gestured.Disconnected, gestured.Reconnected, gestured.Detached)):
                print(f"{event.type}: {event.to_dict()}", flush=True)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--socket", help="the daemon's socket (default: the lookup gesturectl uses)")
    parser.add_argument("--parent", default="screen", help="the config region to attach under (default: screen)")
    parser.add_argument("--frame", nargs=4, type=number_or_percent, default=[0, 0, "100%", "100%"],
                        metavar=("X", "Y", "W", "H"), help="surface units or percentages of the parent")
    parser.add_argument("--exit-after", type=int, metavar="N", help="stop after N gestures ended")
    args = parser.parse_args()
    try:
        return asyncio.run(run(args))
    except gestured.GesturedError as error:
        print(f"pinch_rotate.py: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
