"""The daemon going away mid-gesture and coming back (the real binary, killed and started again)."""

import unittest

from support import DRAG, NO_GESTURES, Daemon, events_until, run

import gestured

PAD = {"id": "pad", "frame": [0, 0, "100%", "100%"]}
DRAG_GESTURE = [{"id": "drag", "kind": "pan"}]


class ReconnectTests(unittest.TestCase):
    def test_a_daemon_killed_mid_gesture_gives_cancelled_then_a_restart_reattaches_and_gestures_arrive_again(self):
        # The attach starts the recording: a one-finger drag of 1.4 s, a pan from ~0.1 s in.
        daemon = Daemon(inject=[DRAG], config=NO_GESTURES, extra=["--inject-when-subscribed"])
        self.addCleanup(daemon.close)

        async def main():
            client = await gestured.connect(daemon.socket, backoff_initial=0.02, backoff_max=0.2)
            async with client:
                await client.attach(PAD, DRAG_GESTURE, parent="screen")
                began = await events_until(client, lambda e: getattr(e, "state", None) == "began")
                self.assertEqual(began[-1].gesture, "drag")
                self.assertFalse(began[-1].synthesized)
                daemon.kill()
                got = await events_until(client, lambda e: isinstance(e, gestured.Disconnected))
                ends = [e for e in got if isinstance(e, gestured.Gesture) and e.state in ("ended", "cancelled")]
                self.assertEqual(len(ends), 1, got)
                cancelled = ends[0]
                self.assertEqual((cancelled.gesture, cancelled.state, cancelled.region, cancelled.synthesized),
                                 ("drag", "cancelled", "pad", True))
                self.assertEqual(cancelled.to_dict()["synthesized"], True)
                self.assertFalse(client.connected)

                daemon.start()   # same socket, same recording, held back until an attach
                got = await events_until(client, lambda e: isinstance(e, gestured.Reconnected))
                self.assertEqual(got[-1].path, daemon.socket)
                self.assertEqual(got[-1].hello.protocol, 1)
                # Re-attached: the attach started the recording again, and its pan reaches the app.
                again = gestures_of(await events_until(client, lambda e: getattr(e, "state", None) == "ended"))
                self.assertEqual([e.gesture for e in again], ["drag"] * len(again))
                self.assertEqual(again[0].state, "began")
                self.assertFalse(any(e.synthesized for e in again))
                status = await client.status()
                self.assertEqual((status["attachedRegions"], status["attachedGestures"]), (1, 1))
                self.assertEqual(client.reconnections, 1)
        run(main())

    def test_without_reconnection_the_iterator_raises_connection_lost_after_the_cancellations(self):
        daemon = Daemon(inject=[DRAG], config=NO_GESTURES, extra=["--inject-when-subscribed"])
        self.addCleanup(daemon.close)

        async def main():
            client = await gestured.connect(daemon.socket, reconnect=False)
            async with client:
                await client.attach(PAD, DRAG_GESTURE, parent="screen")
                await events_until(client, lambda e: getattr(e, "state", None) == "began")
                daemon.kill()
                got = await events_until(client, lambda e: isinstance(e, gestured.Disconnected))
                self.assertEqual([(e.state, e.synthesized) for e in gestures_of(got)][-1], ("cancelled", True))
                with self.assertRaises(gestured.ConnectionLost):
                    await client.next_event(10)
                with self.assertRaises(gestured.ConnectionLost):
                    await client.status()
        run(main())


def gestures_of(events):
    return [e for e in events if isinstance(e, gestured.Gesture)]


if __name__ == "__main__":
    unittest.main()
