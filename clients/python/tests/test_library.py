"""The library's own rules, without the daemon: line types, the socket lookup, error paths, and a
stand-in server for what the real daemon cannot be made to do (another protocol version)."""

import asyncio
import json
import os
import tempfile
import unittest

from support import run

import gestured
from gestured.socket_path import socket_candidates


class ReadmeTests(unittest.TestCase):
    """The README is all an app needs: every event class, with every attribute, in its table."""

    def test_every_event_class_and_attribute_is_in_the_readme(self):
        import dataclasses
        from gestured import events
        with open(os.path.join(os.path.dirname(__file__), "..", "README.md"), encoding="utf-8") as f:
            readme = f.read()
        rows = [line for line in readme.splitlines() if line.startswith("| `")]
        for name in events.__all__:
            cls = getattr(events, name)
            if not (isinstance(cls, type) and issubclass(cls, events.Event)) or cls is events.Event:
                continue
            row = next((r for r in rows if f"`{name}`" in r.split("|")[1]), None)
            self.assertIsNotNone(row, f"README.md: no row of the events table for {name}")
            for f in dataclasses.fields(cls):
                if f.name not in ("extra", "synthesized"):
                    self.assertIn(f"`{f.name}`", row, f"README.md: {name}'s row lacks its attribute {f.name}")
        for promise in ("`synthesized`", "is `None`", "listen(path=", "`Disconnected`", "`Reconnected`"):
            self.assertIn(promise, readme)

    def test_synthesized_is_false_on_the_daemons_lines_and_true_on_the_librarys(self):
        for line in ({"type": "gesture", "gesture": "g"}, {"type": "touch", "id": 1}, {"type": "dropped", "count": 1},
                     {"type": "future"}):
            self.assertFalse(gestured.parse_line(line).synthesized, line)
        self.assertTrue(gestured.Disconnected(reason="x").synthesized)
        self.assertTrue(gestured.Reconnected(path="/p").synthesized)
        self.assertIsNone(gestured.parse_line({"type": "gesture", "gesture": "g"}).scale)
        self.assertEqual(gestured.Reconnected(path="/p").to_dict(), {"type": "reconnected", "path": "/p", "synthesized": True})


class LineTests(unittest.TestCase):
    def test_every_key_of_a_gesture_line_becomes_an_attribute_and_unknown_keys_are_kept(self):
        line = {"type": "gesture", "gesture": "zoom", "kind": "pinch", "state": "changed", "time": 1.5,
                "device": "ELAN", "region": "screen", "fingers": 2, "location": {"x": 1, "y": 2},
                "scale": 1.25, "scaleVelocity": 0.5, "futureKey": [1]}
        event = gestured.parse_line(line)
        self.assertIsInstance(event, gestured.Gesture)
        self.assertEqual((event.scale, event.scale_velocity, event.location), (1.25, 0.5, gestured.Point(1, 2)))
        self.assertEqual(event.extra, {"futureKey": [1]})
        self.assertTrue(event.in_progress)
        self.assertEqual(event.to_dict(), line)

    def test_touch_explain_dropped_and_detached_lines(self):
        touch = gestured.parse_line({"type": "touch", "phase": "began", "id": 17, "location": {"x": 10, "y": 20},
                                     "region": "button", "responder": "panel", "tapCount": 1, "time": 12.3,
                                     "device": "ELAN"})
        self.assertEqual((touch.tap_count, touch.responder, touch.in_progress), (1, "panel", True))
        chained = gestured.parse_line({"type": "touch", "phase": "began", "id": 18, "location": {"x": 5, "y": 6},
                                       "region": "window:12", "chain": ["window:12", "output:eDP-1", "screen"],
                                       "tapCount": 1, "time": 12.5, "device": "ELAN"})
        self.assertEqual((chained.chain, chained.extra), (["window:12", "output:eDP-1", "screen"], {}))
        self.assertEqual(chained.to_dict()["chain"], ["window:12", "output:eDP-1", "screen"])
        explain = gestured.parse_line({"type": "explain", "gesture": "tap", "region": "screen", "from": "possible",
                                       "to": "failed", "time": 12.4, "reason": "moved 7.2 mm > 5 mm", "routine": True})
        self.assertEqual((explain.from_state, explain.to_state, explain.routine), ("possible", "failed", True))
        self.assertEqual(explain.to_dict()["from"], "possible")
        self.assertEqual(gestured.parse_line({"type": "dropped", "count": 3}).count, 3)
        detached = gestured.parse_line({"type": "detached", "region": "kb", "reason": "gone"})
        self.assertEqual((detached.region, detached.reason), ("kb", "gone"))
        unknown = gestured.parse_line({"type": "future", "a": 1})
        self.assertEqual((type(unknown), unknown.to_dict()), (gestured.UnknownLine, {"type": "future", "a": 1}))

    def test_pen_lines_carry_kind_pressure_tilt_buttons_and_hover(self):
        began = {"type": "touch", "phase": "began", "id": 2, "location": {"x": 128.46, "y": 55.055}, "tapCount": 1,
                 "time": 0.027962, "device": "Wacom Cintiq 13HD touch Pen", "kind": "pen", "pressure": 0.10894,
                 "altitude": 1.053415, "azimuth": 1.039533, "buttons": ["stylus"]}
        touch = gestured.parse_line(began)
        self.assertEqual((touch.touch_type, touch.pressure, touch.altitude, touch.azimuth, touch.buttons),
                         ("pen", 0.10894, 1.053415, 1.039533, ["stylus"]))
        self.assertFalse(touch.hovering)
        self.assertEqual(touch.extra, {})
        self.assertEqual(touch.to_dict(), began)
        hover = gestured.parse_line({"type": "touch", "phase": "hovering", "id": 1, "location": {"x": 1, "y": 2},
                                     "tapCount": 0, "time": 0.1, "device": "P", "kind": "eraser", "distance": 0.49,
                                     "buttons": []})
        self.assertEqual((hover.hovering, hover.in_progress, hover.touch_type, hover.distance), (True, False, "eraser", 0.49))
        finger = gestured.parse_line({"type": "touch", "phase": "began", "id": 3, "location": {"x": 1, "y": 2},
                                      "tapCount": 1, "time": 0.2, "device": "F"})
        self.assertEqual((finger.touch_type, finger.pressure, finger.buttons), ("finger", None, None))
        self.assertNotIn("kind", finger.to_dict())
        pan = gestured.parse_line({"type": "gesture", "gesture": "pen-stroke", "kind": "pan", "state": "changed",
                                   "time": 1.0, "device": "P", "region": "screen", "fingers": 1, "pressure": 0.25})
        self.assertEqual((pan.pressure, pan.extra), (0.25, {}))

    def test_an_error_names_each_path_of_its_problems(self):
        error = gestured.RequestError("attach", "regions.children[1].frame: needs 4 items, got 2; "
                                                "gestures[0].movement: unknown unit 'kg'; nothing was attached")
        self.assertEqual(error.paths, ["regions.children[1].frame", "gestures[0].movement"])
        self.assertEqual(error.path, "regions.children[1].frame")
        self.assertIsNone(gestured.RequestError("attach", "limit: this would give you 65 regions").path)


class SocketLookupTests(unittest.TestCase):
    def test_the_lookup_is_gesturectls(self):
        self.assertEqual(socket_candidates({"GESTURED_SOCKET": "/s", "XDG_RUNTIME_DIR": "/x"}, False), ["/s"])
        self.assertEqual(socket_candidates({"GESTURED_SOCKET": "", "XDG_RUNTIME_DIR": "/run/user/7/"}, False),
                         ["/run/user/7/gestured/gestured.sock", "/run/gestured/gestured.sock"])
        self.assertEqual(socket_candidates({"XDG_RUNTIME_DIR": "/run/user/7"}, True), ["/run/gestured/gestured.sock"])
        self.assertEqual(socket_candidates({}, False), ["/run/gestured/gestured.sock"])

    def test_no_daemon_names_the_paths_tried(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "none.sock")
            with self.assertRaises(gestured.NoDaemon) as caught:
                run(gestured.connect(path))
            self.assertIn(path, str(caught.exception))


class StandInServerTests(unittest.TestCase):
    """A server that greets as told, for what the daemon itself never sends."""

    def serve(self, greeting: bytes, after=b""):
        async def main(check):
            with tempfile.TemporaryDirectory() as d:
                path = os.path.join(d, "s")

                async def handle(reader, writer):
                    writer.write(greeting)
                    await reader.readline()
                    writer.write(after)
                    await writer.drain()
                    await reader.read()
                    writer.close()
                server = await asyncio.start_unix_server(handle, path)
                async with server:
                    await check(path)
        return main

    def test_another_protocol_version_is_a_clear_error(self):
        async def check(path):
            with self.assertRaises(gestured.ProtocolVersionError) as caught:
                await gestured.connect(path)
            self.assertEqual((caught.exception.theirs, caught.exception.ours), (2, 1))
            self.assertIn("speaks protocol 2; this library speaks protocol 1", str(caught.exception))
        run(self.serve(b'{"type":"hello","protocol":2,"version":"9.0.0","commit":"x"}\n')(check))

    def test_a_refusal_at_the_door_is_raised_with_its_message(self):
        async def check(path):
            with self.assertRaises(gestured.GesturedError) as caught:
                await gestured.connect(path)
            self.assertIn("too many clients (512); try again later", str(caught.exception))
        run(self.serve(b'{"type":"error","message":"too many clients (512); try again later"}\n')(check))

    def test_a_reply_longer_than_asyncios_64_KiB_default_arrives_whole(self):
        big = {"type": "response", "request": "status", "ok": True, "gestures": ["g%06d" % i for i in range(40000)],
               "id": 1}
        line = json.dumps(big).encode() + b"\n"
        self.assertGreater(len(line), 256 * 1024)

        async def check(path):
            async with await gestured.connect(path, reconnect=False) as client:
                reply = await client.status()
                self.assertEqual(len(reply["gestures"]), 40000)
        run(self.serve(b'{"type":"hello","protocol":1,"version":"0.1.0","commit":"x"}\n', line)(check))

    def test_a_request_over_the_daemons_line_limit_is_refused_before_sending(self):
        async def check(path):
            async with await gestured.connect(path, reconnect=False) as client:
                with self.assertRaises(ValueError) as caught:
                    await client.attach({"id": "x" * 70000, "frame": [0, 0, 1, 1]})
                self.assertIn("over the daemon's limit of 65536 bytes", str(caught.exception))
        run(self.serve(b'{"type":"hello","protocol":1,"version":"0.1.0","commit":"x"}\n')(check))


if __name__ == "__main__":
    unittest.main()
