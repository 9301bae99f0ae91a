"""The real daemon for the tests: `gestured run --no-devices --socket S --inject REC ...`.

The binary is `$GESTURED_BIN_DIR/gestured`, else `.build/debug/gestured` of this repository (build it
with `swift build --product gestured`; scripts/test builds it). Recordings come from Tests/Fixtures.
Tests never sleep to let time pass: they wait for a condition, with a deadline."""

import asyncio
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from typing import Callable, List, Optional

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
CLIENT = os.path.join(REPO, "clients", "python")
sys.path.insert(0, os.path.join(CLIENT, "src"))

BIN_DIR = os.environ.get("GESTURED_BIN_DIR") or os.path.join(REPO, ".build", "debug")
GESTURED = os.path.join(BIN_DIR, "gestured")
FIXTURES = os.path.join(REPO, "Tests", "Fixtures", "evemu-devices")
DAEMON_FIXTURES = os.path.join(REPO, "Tests", "GestureDaemonTests", "Fixtures")

#: One one-finger tap at (126.9, 71) mm (the surface is the device's area in mm).
TAP = os.path.join(DAEMON_FIXTURES, "Wacom ISDv4 E6 Finger.single-tap-center.events")
#: One finger dragging up and down for 1.4 s (a pan begins ~0.1 s in).
DRAG = os.path.join(DAEMON_FIXTURES, "EP0430M09.1-finger-drag-up-down.events")
#: Two fingers landing and lifting on a touchscreen: a small pinch (began, 47 changed, ended; scale 0.99).
PINCH = os.path.join(FIXTURES, "touchscreens", "N-Trig MultiTouch.2-fingers-touch-release.events")
#: Two fingers circling: a rotation (began, 14 changed, ended; 25°).
CIRCLE = os.path.join(FIXTURES, "tablets", "Wacom ISDv4 E6 Finger.double-center-circle.events")
#: Two fingers scrolling down for 0.7 s: the default config's two-finger-pan, 72 changed lines.
SCROLL = os.path.join(FIXTURES, "touchscreens", "EP0430M09.2-finger-scroll-down.events")

#: A config with no gestures of its own, so an attached gesture has no rival on the root.
NO_GESTURES = "version: 1\ngestures: []\n"


def wait_until(condition: Callable[[], bool], timeout: float, what: str = "condition") -> None:
    """Polls `condition` until it holds; fails the test with `what` after `timeout` seconds."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return
        time.sleep(0.01)
    if not condition():
        raise AssertionError(f"timed out after {timeout} s waiting for {what}")


class Daemon:
    """A `gestured run` process on a private socket, with no input devices."""

    def __init__(self, inject: List[str] = (), config: Optional[str] = None, extra: List[str] = (),
                 directory: Optional[str] = None) -> None:
        if not os.access(GESTURED, os.X_OK):
            raise AssertionError(f"{GESTURED} is missing: build it with `swift build --product gestured`")
        self.dir = directory or tempfile.mkdtemp(prefix="gestured-py-test.")
        self.owns_dir = directory is None
        self.socket = os.path.join(self.dir, "gestured.sock")
        self.config_path: Optional[str] = None
        if config is not None:
            self.config_path = os.path.join(self.dir, "gestured.yaml")
            with open(self.config_path, "w") as f:
                f.write(config)
        self.arguments = ["run", "--no-devices", "--socket", self.socket, "--log-level", "debug"]
        if self.config_path:
            self.arguments += ["--config", self.config_path]
        for recording in inject:
            self.arguments += ["--inject", recording]
        self.arguments += list(extra)
        self.log_path = os.path.join(self.dir, "log")
        self.process: Optional[subprocess.Popen] = None
        self.start()

    def start(self) -> None:
        env = dict(os.environ, XDG_CONFIG_HOME=self.dir)
        env.pop("GESTURED_CONFIG", None)
        log = open(self.log_path, "a")
        self.process = subprocess.Popen([GESTURED] + self.arguments, stdout=subprocess.DEVNULL, stderr=log, env=env)
        log.close()
        wait_until(lambda: self._answers() or self.process.poll() is not None, 20, "the daemon's socket")
        if self.process.poll() is not None:
            raise AssertionError(f"the daemon did not come up; log:\n{self.log}")

    def _answers(self) -> bool:
        import socket
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            s.connect(self.socket)
            return True
        except OSError:
            return False
        finally:
            s.close()

    @property
    def log(self) -> str:
        with open(self.log_path, errors="replace") as f:
            return f.read()

    def wait_for_log(self, text: str, timeout: float = 15, count: int = 1) -> None:
        wait_until(lambda: self.log.count(text) >= count, timeout, f"{text!r} in the daemon's log:\n{self.log}")

    def kill(self) -> None:
        """SIGKILL: the daemon goes away at once, in the middle of whatever it was doing."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def close(self) -> None:
        self.kill()
        if self.owns_dir:
            shutil.rmtree(self.dir, ignore_errors=True)


def run(coroutine, timeout: float = 60):
    """Runs a test coroutine with an overall deadline."""
    return asyncio.run(asyncio.wait_for(coroutine, timeout))


async def events_until(client, stop, timeout: float = 15) -> list:
    """Events until one satisfies `stop` (included); fails after `timeout` seconds."""
    got = []
    loop = asyncio.get_event_loop()
    end = loop.time() + timeout
    while True:
        left = end - loop.time()
        if left <= 0:
            raise AssertionError(f"timed out after {timeout} s; got {got}")
        try:
            event = await client.next_event(left)
        except asyncio.TimeoutError:
            raise AssertionError(f"timed out after {timeout} s; got {got}") from None
        got.append(event)
        if stop(event):
            return got
