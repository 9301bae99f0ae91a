"""The library against the real daemon, with injected real recordings (Tests/Fixtures)."""

import asyncio
import os
import re
import unittest

from support import (CIRCLE, DRAG, NO_GESTURES, PINCH, REPO, SCROLL, TAP, Daemon, events_until, run)

import gestured


def gestures(events):
    return [e for e in events if isinstance(e, gestured.Gesture)]


class DaemonTestCase(unittest.TestCase):
    def daemon(self, *args, **kwargs) -> Daemon:
        daemon = Daemon(*args, **kwargs)
        self.addCleanup(daemon.close)
        return daemon


class SubscribeTests(DaemonTestCase):
    def test_subscribe_receives_the_recordings_gestures_as_typed_events(self):
        daemon = self.daemon(inject=[DRAG], extra=["--inject-when-subscribed"])

        async def main():
            async with await gestured.connect(daemon.socket) as client:
                with open(os.path.join(REPO, "debian", "changelog")) as f:
                    version = re.match(r"gestured \(([^)]+)\)", f.readline()).group(1)
                self.assertEqual(client.hello.protocol, 1)
                self.assertEqual(client.hello.version, version)
                reply = await client.subscribe(kinds=["pan"], devices=["EP0430M09"])
                self.assertEqual(reply.request, "subscribe")
                got = await events_until(client, lambda e: getattr(e, "state", None) in ("ended", "cancelled"))
                pans = gestures(got)
                self.assertEqual([e.state for e in pans][0], "began")
                self.assertIn("changed", [e.state for e in pans])
                self.assertEqual(pans[-1].state, "ended")
                self.assertTrue(all(e.kind == "pan" and e.device == "EP0430M09" and e.gesture == "pan"
                                    and isinstance(e.translation, gestured.Point) and not e.synthesized
                                    for e in pans), pans)
        run(main())

    def test_requests_sent_together_get_their_own_replies(self):
        daemon = self.daemon()

        async def main():
            async with await gestured.connect(daemon.socket) as client:
                status, devices, hit = await asyncio.gather(client.status(), client.devices(), client.hit_test(5, 5))
                self.assertEqual((status.request, devices.request, hit.request), ("status", "devices", "hit-test"))
                self.assertEqual(status["protocol"], 1)
                self.assertEqual(hit["chain"], ["screen"])
                self.assertEqual(len({status.id, devices.id, hit.id}), 3)
        run(main())

    def test_the_socket_lookup_finds_the_daemon_through_GESTURED_SOCKET(self):
        daemon = self.daemon()
        saved = os.environ.get("GESTURED_SOCKET")
        os.environ["GESTURED_SOCKET"] = daemon.socket
        self.addCleanup(lambda: os.environ.pop("GESTURED_SOCKET") if saved is None
                        else os.environ.__setitem__("GESTURED_SOCKET", saved))

        async def main():
            async with await gestured.connect() as client:
                self.assertEqual(client.path, daemon.socket)
                self.assertEqual((await client.status())["protocol"], 1)
        run(main())


class AttachTests(DaemonTestCase):
    def test_an_attached_tap_reaches_its_client_under_its_own_ids(self):
        daemon = self.daemon(inject=[TAP], extra=["--inject-when-subscribed"])

        async def main():
            async with await gestured.connect(daemon.socket) as client:
                reply = await client.attach({"id": "button", "frame": [100, 50, 60, 40]},
                                            [{"id": "press", "kind": "tap"}], parent="screen")
                self.assertEqual((reply["region"], reply["regions"], reply["gestures"]),
                                 ("button", ["button"], ["press"]))
                got = gestures(await events_until(client, lambda e: isinstance(e, gestured.Gesture)))
                self.assertEqual((got[-1].gesture, got[-1].region, got[-1].state, got[-1].fingers, got[-1].taps),
                                 ("press", "button", "recognized", 1, 1))
        run(main())

    def test_a_touchs_began_line_carries_the_hit_chain_under_the_clients_own_ids(self):
        daemon = self.daemon(inject=[TAP], extra=["--inject-when-subscribed"])

        async def main():
            async with await gestured.connect(daemon.socket) as client:
                await client.attach({"id": "button", "frame": [100, 50, 60, 40], "publish-touches": True},
                                    [{"id": "press", "kind": "tap"}], parent="screen")
                got = await events_until(client, lambda e: isinstance(e, gestured.Touch)
                                         and e.phase in ("ended", "cancelled"))
                touches = [e for e in got if isinstance(e, gestured.Touch)]
                self.assertEqual((touches[0].phase, touches[0].region, touches[0].chain),
                                 ("began", "button", ["button", "screen"]))
                self.assertEqual([t.chain for t in touches[1:]], [None] * (len(touches) - 1))
        run(main())

    def test_an_invalid_attach_raises_the_daemons_error_with_its_path_and_the_connection_stays_usable(self):
        daemon = self.daemon()

        async def main():
            async with await gestured.connect(daemon.socket) as client:
                regions = {"id": "kb", "frame": [0, 0, "100%", "100%"],
                           "children": [{"id": "k1", "frame": [0, 0, 10, 10]}, {"id": "k2", "frame": [10, 0]}]}
                with self.assertRaises(gestured.RequestError) as caught:
                    await client.attach(regions, [{"id": "press", "kind": "tap", "region": "k1"}], parent="screen")
                error = caught.exception
                self.assertEqual(error.request, "attach")
                self.assertEqual(error.path, "regions.children[1].frame")
                self.assertIn("got 2", error.message)
                self.assertIn("nothing was attached", error.message)
                with self.assertRaises(gestured.RequestError) as caught:
                    await client.attach({"id": "g", "frame": [0, 0, 1, 1]},
                                        [{"id": "g", "kind": "tap", "movement": "5kg"}])
                self.assertEqual(caught.exception.path, "gestures[0].movement")
                self.assertEqual((await client.hit_test(5, 5))["chain"], ["screen"])
                regions["children"][1]["frame"] = [10, 0, 10, 10]
                await client.attach(regions, [{"id": "press", "kind": "tap", "region": "k1"}], parent="screen")
                self.assertEqual((await client.hit_test(5, 5))["chain"], ["k1", "kb", "screen"])
                with self.assertRaises(gestured.RequestError) as caught:
                    await client.update("nowhere", hidden=True)
                self.assertEqual(caught.exception.request, "update")
        run(main())


if __name__ == "__main__":
    unittest.main()
