"""Back-pressure as docs/protocol.md ("Slow clients") has it: a client that does not read has its
lines dropped and counted, and a `dropped` line says how many once it caught up."""

import asyncio
import unittest

from support import SCROLL, Daemon, run

import gestured

COPIES = 24
# Every touch published (the root's touch stream), and a queue of two lines per client.
CONFIG = """version: 1
regions: { id: screen, publish-touches: true }
gestures:
  - { id: scroll, kind: pan, min-fingers: 2, max-fingers: 2 }
socket: { queue-limit: 2 }
"""


async def wait_for(condition, timeout, what):
    loop = asyncio.get_event_loop()
    end = loop.time() + timeout
    while not condition():
        if loop.time() > end:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        await asyncio.sleep(0.01)


def streamed(events):
    return [e for e in events if isinstance(e, (gestured.Gesture, gestured.Touch))]


class SlowReaderTests(unittest.TestCase):
    def test_a_reader_that_stops_reading_gets_a_dropped_event_counting_what_it_missed(self):
        # The two-finger scroll played as 24 devices at once: about 2500 touch and gesture lines (500 KB, more than the
        # kernel buffers of a socket) in 0.7 s,
        # started by the second subscribe.
        daemon = Daemon(inject=[SCROLL] * COPIES, config=CONFIG, extra=["--inject-after", "2"])
        self.addCleanup(daemon.close)

        async def main():
            fast = await gestured.connect(daemon.socket)
            slow = await gestured.connect(daemon.socket, max_buffered_events=1)
            async with fast, slow:
                fast_events = []

                async def read_fast():
                    async for event in fast:
                        fast_events.append(event)
                reading = asyncio.ensure_future(read_fast())
                await fast.subscribe(touches=["*"])
                await slow.subscribe(touches=["*"])
                # The slow client's app takes nothing until every recording has ended.
                await wait_for(lambda: daemon.log.count("injected recording finished") >= COPIES, 20,
                               f"the end of the recordings; log:\n{daemon.log}")
                self.assertLessEqual(slow.buffered_events, 1)
                # Replies come after every line queued before them: the fast client has all.
                await fast.status()
                total = len(streamed(fast_events))
                self.assertGreater(total, 2000)
                self.assertFalse([e for e in fast_events if isinstance(e, gestured.Dropped)])
                # A request makes the slow client read again (replies are never held up).
                await slow.status()
                got = []
                loop = asyncio.get_event_loop()
                end = loop.time() + 10

                def counted():
                    return len(streamed(got)) + sum(e.count for e in got if isinstance(e, gestured.Dropped))
                while counted() < total:
                    got.append(await slow.next_event(max(0.01, end - loop.time())))
                drops = [e for e in got if isinstance(e, gestured.Dropped)]
                self.assertTrue(drops, got[:5])
                self.assertGreater(sum(e.count for e in drops), 0)
                self.assertEqual(len(streamed(got)) + sum(e.count for e in drops), total)
                reading.cancel()
        run(main())


if __name__ == "__main__":
    unittest.main()
