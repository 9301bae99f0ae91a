"""The examples of clients/python/examples, run as an app would run them, against the real daemon."""

import json
import os
import subprocess
import sys
import unittest

from support import CIRCLE, CLIENT, REPO, TAP, Daemon

EXAMPLES = os.path.join(CLIENT, "examples")

# The config the pinch-and-rotation app runs under: a screen with no gestures of its own, so that
# this test is about the client and the example. Under the default config the screen's two-finger
# pan competes: an attached region keeps its gestures over the screen's, but only for a bounded
# time (docs/recognizers.md, "No endless holds"): the circle below moves its fingers 5 mm together
# before it turns (its 8° come 1.3 s after landing), so there the screen's pan takes it after 150 ms
# and the app gets the zoom only. The engine's tests judge that arbitration (HandFamilyTests,
# WideTurnScenarioTests, HoldLengthTests).
PINCH_ROTATION_CONFIG = "version: 1\ngestures: []\n"
# A real two-finger zoom (a touchpad's; an attached region covers a touchpad's surface as well).
# The N-Trig recording of PINCH holds one finger alone for 1.3 s first: the default config's
# long press rightly takes it before the second finger lands.
ZOOM = os.path.join(REPO, "Tests", "Fixtures", "chromiumos-touchmtb", "tmtb-link-pinch-zoom_in.evemu")


def run_example(name, *args, timeout=30):
    result = subprocess.run([sys.executable, os.path.join(EXAMPLES, name)] + list(args),
                            capture_output=True, text=True, timeout=timeout)
    return result


class ExampleTests(unittest.TestCase):
    def daemon(self, *args, **kwargs):
        daemon = Daemon(*args, **kwargs)
        self.addCleanup(daemon.close)
        return daemon

    def test_the_listener_prints_the_recordings_tap(self):
        daemon = self.daemon(inject=[TAP], extra=["--inject-when-subscribed"])
        result = run_example("listen.py", "--socket", daemon.socket, "--kind", "tap", "--json", "--count", "1")
        self.assertEqual(result.returncode, 0, result.stderr)
        lines = [json.loads(line) for line in result.stdout.splitlines()]
        self.assertEqual([(l["type"], l["gesture"], l["state"]) for l in lines], [("gesture", "tap", "recognized")])

    def test_the_pinch_and_rotation_app_prints_both_gestures(self):
        # Two fingers spreading on a touchpad (a real zoom in) and two fingers circling on a
        # touchscreen (a rotation of 25°), on two devices at once.
        daemon = self.daemon(inject=[ZOOM, CIRCLE], config=PINCH_ROTATION_CONFIG, extra=["--inject-when-subscribed"])
        result = run_example("pinch_rotate.py", "--socket", daemon.socket, "--exit-after", "2")
        self.assertEqual(result.returncode, 0, result.stderr)
        lines = result.stdout.splitlines()
        self.assertEqual(lines[0], "attached ['canvas'] with ['zoom', 'turn']")
        for gesture in ("zoom", "turn"):
            states = [line.split()[1] for line in lines[1:] if line.startswith(gesture + " ")]
            self.assertEqual(states[0], "began", lines)
            self.assertIn("changed", states, lines)
            self.assertEqual(states[-1], "ended", lines)
        # Every zoom line carries its scale, growing as the fingers spread (the recording zooms in
        # to about 3.5×); the circle turns the rotation by more than 20°.
        scales = [float(line.split()[-1]) for line in lines if line.startswith("zoom ")]
        self.assertEqual(scales, sorted(scales), lines)
        self.assertGreater(scales[-1], 3, lines)
        turned = [int(line.split()[-1].rstrip("°")) for line in lines if line.startswith("turn ended")]
        self.assertGreater(turned[0], 20, lines)

    def test_the_keyboard_of_the_protocol_doc_presses_enter_on_a_tap(self):
        # The recording's tap lands at (126.9, 71): a keyboard at (30, 60), 100 × 100, has its Enter
        # key (85 %, 0, 15 %, 25 % of it) at (115, 60)-(130, 85).
        daemon = self.daemon(inject=[TAP], extra=["--inject-when-subscribed"])
        result = run_example("keyboard.py", "--socket", daemon.socket, "--frame", "30", "60", "100", "100",
                             "--exit-after", "1")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout.splitlines(), ["keyboard shown", "enter pressed at 127,71"])


if __name__ == "__main__":
    unittest.main()
