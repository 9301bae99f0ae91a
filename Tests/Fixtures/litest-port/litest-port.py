#!/usr/bin/env python3
"""Writes evemu recordings of libinput's own touchpad test cases (issue 50).

libinput's test suite drives virtual devices through `litest`: a device description (axes,
keys, the events one touch down / move sends) and helpers that put touches down, move them in
steps and lift them. This script models those helpers and two of litest's touchpad
descriptions (a Synaptics RMI4 clickpad and a Synaptics i2c clickpad with two slots) and writes
one evemu recording per case beside itself (Tests/Fixtures/litest-port/), each headed by the libinput test
it follows (file, test name, line) and the verdict that test asserts, in gestured's words:

    # expect: scroll            a two-finger pan (libinput: finger scroll events)
    # expect: swipe N DIR       a continuous swipe of N fingers (libinput: GESTURE_SWIPE_*, N fingers)
    # expect: pinch N in|out    a pinch of N fingers (libinput: GESTURE_PINCH_*, N fingers)
    # expect: tap N             a tap of N fingers (libinput: a button click)
    # expect: double-tap        a one-finger double tap (libinput: two clicks)
    # expect: tap-then N V…     a tap of N fingers, then verdict V… for the fingers after it
    # expect: drag              tap-and-drag: a one-finger pan from the second touch, no double tap
    # expect: pointer           a one-finger pan and nothing else (libinput: pointer motion only)
    # expect: nothing           no gesture at all (libinput: an empty queue, a palm)

The recordings are written from the tests' steps, not copied from libinput: positions are
litest's percentages of the axis ranges, time advances 10 ms after every step that sleeps in
litest (litest's msleep(10) between move steps) and 10 ms after each frame of a loop that
dispatches without sleeping (so a ported stroke is never faster than litest's own), and 1 ms
after any other frame. References are to libinput at commit c1d8d92b (main, 2025).

Usage: Tests/Fixtures/litest-port/litest-port.py [OUTPUT-DIR]   (default: the script's own folder)
"""
import os
import sys

LIBINPUT_COMMIT = "c1d8d92b"

# Event codes (linux/input-event-codes.h).
EV_SYN, EV_KEY, EV_ABS = 0x00, 0x01, 0x03
SYN_REPORT = 0
BTN_LEFT, BTN_TOOL_FINGER, BTN_TOOL_QUINTTAP, BTN_TOUCH = 0x110, 0x145, 0x148, 0x14A
BTN_TOOL_DOUBLETAP, BTN_TOOL_TRIPLETAP, BTN_TOOL_QUADTAP = 0x14D, 0x14E, 0x14F
ABS_X, ABS_Y, ABS_PRESSURE = 0x00, 0x01, 0x18
ABS_MT_SLOT, ABS_MT_TOUCH_MAJOR, ABS_MT_TOUCH_MINOR = 0x2F, 0x30, 0x31
ABS_MT_ORIENTATION, ABS_MT_POSITION_X, ABS_MT_POSITION_Y = 0x34, 0x35, 0x36
ABS_MT_TOOL_TYPE, ABS_MT_TRACKING_ID, ABS_MT_PRESSURE = 0x37, 0x39, 0x3A
INPUT_PROP_POINTER, INPUT_PROP_BUTTONPAD = 0x00, 0x02


class Device:
    """A litest touchpad description: name, ids, keys, axes (code: min, max, resolution),
    and what a touch down / move frame carries besides slot, tracking id and position."""

    def __init__(self, key, name, ids, keys, axes, extra_axes, source):
        self.key, self.name, self.ids, self.keys, self.axes = key, name, ids, keys, axes
        self.extra_axes = extra_axes
        self.source = source
        self.slots = axes[ABS_MT_SLOT][1] + 1

    def width_mm(self):
        lo, hi, res = self.axes[ABS_X]
        return (hi - lo) / res

    def height_mm(self):
        lo, hi, res = self.axes[ABS_Y]
        return (hi - lo) / res


RMI4 = Device(
    "rmi4", "Synaptics TM3053-004", (0x1D, 0x6CB, 0x0, 0),
    [BTN_LEFT, BTN_TOOL_FINGER, BTN_TOOL_QUINTTAP, BTN_TOUCH, BTN_TOOL_DOUBLETAP,
     BTN_TOOL_TRIPLETAP, BTN_TOOL_QUADTAP],
    {ABS_X: (0, 1940, 20), ABS_Y: (0, 1062, 20), ABS_PRESSURE: (0, 255, 0), ABS_MT_SLOT: (0, 4, 0),
     ABS_MT_TOUCH_MAJOR: (0, 15, 0), ABS_MT_TOUCH_MINOR: (0, 15, 0), ABS_MT_ORIENTATION: (0, 1, 0),
     ABS_MT_POSITION_X: (0, 1940, 20), ABS_MT_POSITION_Y: (0, 1062, 20), ABS_MT_TOOL_TYPE: (0, 2, 0),
     ABS_MT_TRACKING_ID: (0, 65535, 0), ABS_MT_PRESSURE: (0, 255, 0)},
    # pressure 30 (litest's default for this device), orientation 0, touch major / minor 2
    [(ABS_MT_ORIENTATION, 0), (ABS_MT_TOUCH_MAJOR, 2), (ABS_MT_TOUCH_MINOR, 2), (ABS_MT_PRESSURE, 30)],
    "test/litest-device-synaptics-rmi4.c")

I2C = Device(
    "i2c", "DLL0704:01 06CB:76AD Touchpad", (0x18, 0x6CB, 0x76AD, 0),
    [BTN_LEFT, BTN_TOOL_FINGER, BTN_TOUCH, BTN_TOOL_DOUBLETAP, BTN_TOOL_TRIPLETAP],
    {ABS_X: (0, 1216, 12), ABS_Y: (0, 680, 12), ABS_MT_SLOT: (0, 1, 0),
     ABS_MT_POSITION_X: (0, 1216, 12), ABS_MT_POSITION_Y: (0, 680, 12),
     ABS_MT_TRACKING_ID: (0, 65535, 0)},
    [],
    "test/litest-device-synaptics-i2c.c")

TOOLS = [BTN_TOOL_FINGER, BTN_TOOL_DOUBLETAP, BTN_TOOL_TRIPLETAP, BTN_TOOL_QUADTAP, BTN_TOOL_QUINTTAP]


class Litest:
    """The litest helpers a ported test uses, writing evemu `E:` lines."""

    def __init__(self, device):
        self.d = device
        self.t_us = 1_000_000  # recordings start at 1 s
        self.lines = []
        self.slots = {}          # slot -> (x%, y%)
        self.tracking = 100
        self.tool = None
        self.frame_open = False

    # -- low level --------------------------------------------------------------------------
    def _event(self, type_, code, value):
        self.lines.append(f"E: {self.t_us // 1_000_000}.{self.t_us % 1_000_000:06d} "
                          f"{type_:04x} {code:04x} {value}")

    def _units(self, axis, percent):
        lo, hi, _ = self.d.axes[axis]
        return int(round(lo + (hi - lo) * percent / 100.0))

    def _tools(self):
        count = len(self.slots)
        tool = TOOLS[min(count, len(TOOLS)) - 1] if count else None
        if count > 0 and tool not in self.d.keys:  # a pad without this many tool keys
            tool = max((k for k in TOOLS if k in self.d.keys), key=TOOLS.index)
        if (count > 0) != (self.tool is not None):
            self._event(EV_KEY, BTN_TOUCH, 1 if count else 0)
        if tool != self.tool:
            if self.tool is not None:
                self._event(EV_KEY, self.tool, 0)
            if tool is not None:
                self._event(EV_KEY, tool, 1)
            self.tool = tool

    def _sync(self, after_ms):
        self._event(EV_SYN, SYN_REPORT, 0)
        self.t_us += int(after_ms * 1000)

    def _legacy_xy(self, slot):
        x, y = self.slots[slot]
        self._event(EV_ABS, ABS_X, self._units(ABS_X, x))
        self._event(EV_ABS, ABS_Y, self._units(ABS_Y, y))
        if ABS_PRESSURE in self.d.axes:
            self._event(EV_ABS, ABS_PRESSURE, 30)

    def _touch(self, slot, x, y, down):
        if slot >= self.d.slots:
            raise ValueError(f"{self.d.name} has {self.d.slots} slots, not {slot + 1}")
        self.slots[slot] = (x, y)
        if down:
            self._legacy_xy(slot)
        self._event(EV_ABS, ABS_MT_SLOT, slot)
        if down:
            self._event(EV_ABS, ABS_MT_TRACKING_ID, self.tracking)
            self.tracking += 1
        else:
            self._legacy_xy(slot)
        for code, value in self.d.extra_axes[:-1] if self.d.extra_axes else []:
            self._event(EV_ABS, code, value)
        self._event(EV_ABS, ABS_MT_POSITION_X, self._units(ABS_MT_POSITION_X, x))
        self._event(EV_ABS, ABS_MT_POSITION_Y, self._units(ABS_MT_POSITION_Y, y))
        if self.d.extra_axes:
            code, value = self.d.extra_axes[-1]
            self._event(EV_ABS, code, value)

    # -- litest's helpers ---------------------------------------------------------------------
    def sleep(self, ms):
        self.t_us += int(ms * 1000)

    def touch_down(self, slot, x, y, after_ms=1):
        self._touch(slot, x, y, True)
        self._tools()
        self._sync(after_ms)

    def touch_up(self, slot, after_ms=1):
        self.slots.pop(slot)
        self._event(EV_ABS, ABS_MT_SLOT, slot)
        self._event(EV_ABS, ABS_MT_TRACKING_ID, -1)
        self._tools()
        self._sync(after_ms)

    def touch_move(self, slot, x, y, after_ms=1):
        self._touch(slot, x, y, False)
        self._sync(after_ms)

    def frame(self, moves, after_ms=10):
        """litest_push_event_frame … litest_pop_event_frame: several moves in one frame."""
        for slot, x, y in moves:
            self._touch(slot, x, y, False)
        self._sync(after_ms)

    def touch_move_to(self, slot, x0, y0, x1, y1, steps):
        for i in range(1, steps):
            self.touch_move(slot, x0 + (x1 - x0) / steps * i, y0 + (y1 - y0) / steps * i, after_ms=10)
        self.touch_move(slot, x1, y1)

    def move_two_touches(self, x0, y0, x1, y1, dx, dy, steps):
        for i in range(1, steps):
            self.frame([(0, x0 + dx / steps * i, y0 + dy / steps * i),
                        (1, x1 + dx / steps * i, y1 + dy / steps * i)], after_ms=10)
        self.frame([(0, x0 + dx, y0 + dy), (1, x1 + dx, y1 + dy)], after_ms=1)

    def move_three_touches(self, x0, y0, x1, y1, x2, y2, dx, dy, steps):
        for i in range(1, steps + 1):
            sx, sy = dx / steps * i, dy / steps * i
            self.frame([(0, x0 + sx, y0 + sy), (1, x1 + sx, y1 + sy), (2, x2 + sx, y2 + sy)], after_ms=10)

    # -- output ---------------------------------------------------------------------------
    def header(self):
        d = self.d
        out = [f"N: {d.name}", "I: " + " ".join(f"{v:04x}" for v in d.ids)]
        props = [0] * 8
        for p in (INPUT_PROP_POINTER, INPUT_PROP_BUTTONPAD):
            props[p // 8] |= 1 << (p % 8)
        out.append("P: " + " ".join(f"{b:02x}" for b in props))

        def mask(codes, size):
            data = [0] * size
            for c in codes:
                data[c // 8] |= 1 << (c % 8)
            return data
        types = mask([EV_SYN, EV_KEY, EV_ABS], 8)
        out.append("B: 00 " + " ".join(f"{b:02x}" for b in types))
        keys = mask(d.keys, 96)
        for i in range(0, 96, 8):
            out.append("B: 01 " + " ".join(f"{b:02x}" for b in keys[i:i + 8]))
        absmask = mask(d.axes.keys(), 8)
        out.append("B: 03 " + " ".join(f"{b:02x}" for b in absmask))
        for code in sorted(d.axes):
            lo, hi, res = d.axes[code]
            out.append(f"A: {code:02x} {lo} {hi} 0 0 {res}")
        return out


# ---- the cases ---------------------------------------------------------------------------------

CASES = []


def case(name, devices, test, line, expect, why=""):
    def register(body):
        for device in devices:
            CASES.append((f"{device.key}.{name}", device, test, line, expect, why, body))
        return body
    return register


def swipe3(dx, dy):
    def body(li):
        li.touch_down(0, 40, 40)
        li.touch_down(1, 50, 40)
        li.touch_down(2, 60, 40)
        li.move_three_touches(40, 40, 50, 40, 60, 40, dx, dy, 10)
        li.touch_up(0)
        li.touch_up(1)
        li.touch_up(2)
    return body


CARDINALS = {"N": (0, 30), "E": (30, 0), "S": (0, -30), "W": (-30, 0)}
DIRECTION = {"N": "down", "E": "right", "S": "up", "W": "left"}  # litest's N is +y: down the pad

for c, (dx, dy) in CARDINALS.items():
    case(f"gestures_swipe_3fg-{c}", [RMI4], "test/test-gestures.c", "811 (test_gesture_swipe_3fg, 40)",
         f"swipe 3 {DIRECTION[c]}")(swipe3(dx, dy))


def swipe4(cx, cy):
    def body(li):
        for slot, x in enumerate((40, 50, 60, 70)):
            li.touch_down(slot, x, 40)
        dx = dy = 0
        for _ in range(8):
            dx += cx
            dy += cy
            li.frame([(s, x + dx, 40 + dy) for s, x in enumerate((40, 50, 60, 70))])
        for slot in range(4):
            li.touch_up(slot)
    return body


for c, (dx, dy) in {"N": (0, 3), "E": (3, 0), "S": (0, -3), "W": (-3, 0)}.items():
    case(f"gestures_swipe_4fg-{c}", [RMI4], "test/test-gestures.c", "959 (test_gesture_swipe_4fg, 138)",
         f"swipe 4 {DIRECTION[c]}")(swipe4(dx, dy))


def pinch(fingers, cardinal, steps, spread=False):
    """test_gesture_pinch_2fg / _3fg / _4fg / test_gesture_spread: finger 0 at the centre plus
    the direction, the others at the centre minus it (offset 1 % each), moving in (2 % a step)
    or out (1 % a step, the spread)."""
    def body(li):
        dx, dy = CARDINALS[cardinal]

        def points():
            pts = [(0, 50 + dx, 50 + dy), (1, 50 - dx, 50 - dy)]
            for extra in range(2, fingers):
                pts.append((extra, 50 + extra - 1 - dx, 50 + extra - 1 - dy))
            return pts
        for slot, x, y in points():
            li.touch_down(slot, x, y)
        for _ in range(steps):
            step = 1 if spread else -2
            dx = dx + (step if dx > 0 else -step if dx < 0 else 0)
            dy = dy + (step if dy > 0 else -step if dy < 0 else 0)
            li.frame(points())
        for slot in range(fingers):
            li.touch_up(slot)
    return body


for c in ("N", "E"):
    case(f"gestures_pinch-{c}", [RMI4, I2C], "test/test-gestures.c", "1061 (test_gesture_pinch_2fg, 248)",
         "pinch 2 in")(pinch(2, c, 8))
    case(f"gestures_pinch_3fg-{c}", [RMI4], "test/test-gestures.c", "1069 (test_gesture_pinch_3fg, 351)",
         "pinch 3 in")(pinch(3, c, 8))
    case(f"gestures_pinch_4fg-{c}", [RMI4], "test/test-gestures.c", "1077 (test_gesture_pinch_4fg, 443)",
         "pinch 4 in")(pinch(4, c, 7))
    case(f"gestures_spread-{c}", [RMI4], "test/test-gestures.c", "1085 (test_gesture_spread, 539)",
         "pinch 2 out")(pinch(2, c, 15, spread=True))


@case("gestures_3fg_buttonarea_scroll", [RMI4], "test/test-gestures.c", "1122 (test_gesture_3fg_buttonarea_scroll, 640)",
      "scroll", "the third finger lands last in the button area: a thumb, the other two scroll")
def _(li):
    li.touch_down(0, 40, 20)
    li.touch_down(1, 30, 20)
    li.touch_down(2, 50, 99)
    li.move_two_touches(40, 20, 30, 20, 0, 40, 10)
    li.touch_up(0)
    li.touch_up(1)
    li.touch_up(2)


def scroll(dx, dy):
    """test_2fg_scroll: two fingers 2 % apart, 10 steps 10 ms apart: a flick of about 100 ms."""
    def body(li):
        li.touch_down(0, 49, 50)
        li.touch_down(1, 51, 50)
        li.move_two_touches(49, 50, 51, 50, dx, dy, 10)
        li.touch_up(1)
        li.touch_up(0)
    return body


for label, (dx, dy) in {"down": (0.1, 40), "up": (0.1, -40), "right": (40, 0.1), "left": (-40, 0.1)}.items():
    case(f"touchpad_2fg_scroll-{label}", [RMI4, I2C], "test/test-touchpad.c", "135 (test_2fg_scroll, 114)",
         "scroll")(scroll(dx, dy))


@case("touchpad_2fg_scroll_from_btnareas", [RMI4, I2C], "test/test-touchpad.c", "559", "scroll",
      "the first finger moves alone for five frames, then the two alternate frames: a translation, not a rotation")
def _(li):
    li.touch_down(0, 30, 95)
    li.touch_down(1, 50, 95)
    for i in range(5):
        li.touch_move(0, 30, 95 - i, after_ms=10)
    for i in range(20):
        li.touch_move(0, 30, 90 - i, after_ms=5)
        li.touch_move(1, 50, 95 - i, after_ms=5)
    li.touch_up(0)
    li.touch_up(1)


@case("touchpad_palm_detect_at_edge", [RMI4, I2C], "test/test-touchpad.c", "1244", "nothing",
      "a contact that starts in the right, then the left, palm edge zone and moves along it")
def _(li):
    li.touch_down(0, 99, 50)
    li.touch_move_to(0, 99, 50, 99, 70, 5)
    li.touch_up(0, after_ms=100)
    li.touch_down(0, 5, 50)
    li.touch_move_to(0, 5, 50, 5, 70, 5)
    li.touch_up(0)


@case("touchpad_palm_detect_palm_stays_palm", [RMI4, I2C], "test/test-touchpad.c", "1372", "nothing",
      "from the right edge zone down and in: it leaves the zone mostly downward, so it stays a palm")
def _(li):
    li.touch_down(0, 99, 20)
    li.touch_move_to(0, 99, 20, 75, 99, 20)
    li.touch_up(0)


@case("touchpad_palm_detect_palm_becomes_pointer", [RMI4, I2C], "test/test-touchpad.c", "1413", "pointer",
      "from the right edge zone into the pad within 200 ms: a finger")
def _(li):
    li.touch_down(0, 99, 50)
    li.touch_move_to(0, 99, 50, 0, 70, 25)
    li.touch_up(0)


@case("touchpad_palm_detect_no_palm_moving_into_edges", [RMI4, I2C], "test/test-touchpad.c", "1463", "pointer",
      "a finger that starts in the pad and moves into the edge zone is no palm")
def _(li):
    li.touch_down(0, 50, 50)
    li.touch_move_to(0, 50, 50, 99, 50, 15)
    li.touch_move_to(0, 99, 50, 99, 90, 15)
    li.touch_up(0)


@case("touchpad_no_palm_detect_2fg_scroll", [RMI4, I2C], "test/test-touchpad.c", "1656", "scroll",
      "a palm at the edge becomes a finger when a finger lands in the pad, and the two scroll")
def _(li):
    li.touch_down(0, 99, 50)
    li.touch_move_to(0, 99, 50, 99, 40, 45)
    li.touch_move_to(0, 99, 40, 99, 50, 45)
    li.touch_down(1, 50, 50)
    li.move_two_touches(99, 50, 50, 50, 0, -20, 10)
    li.touch_up(0)
    li.touch_up(1)


@case("touchpad_palm_detect_both_edges", [RMI4, I2C], "test/test-touchpad.c", "1682", "nothing",
      "two palms, one in each side edge zone, moving up and down together: no gesture")
def _(li):
    li.touch_down(0, 99, 50)
    li.touch_move_to(0, 99, 50, 99, 40, 10)
    li.touch_move_to(0, 99, 40, 99, 50, 10)
    li.touch_down(1, 1, 50)
    li.touch_move_to(1, 1, 50, 1, 40, 10)
    li.touch_move_to(1, 1, 40, 1, 50, 10)
    li.move_two_touches(99, 50, 1, 50, 0, -20, 10)
    li.touch_up(0)
    li.touch_up(1)


@case("touchpad_palm_detect_tap_hardbuttons", [RMI4, I2C], "test/test-touchpad.c", "1542", "nothing",
      "taps in the four corners, inside the side palm edge zones: no tap")
def _(li):
    for x, y in ((95, 5), (5, 5), (5, 99), (95, 99)):
        li.touch_down(0, x, y)
        li.touch_up(0, after_ms=400)  # litest_timeout_tap


@case("touchpad_palm_detect_tap_softbuttons", [RMI4, I2C], "test/test-touchpad.c", "1576 (the taps outside the zone)",
      "tap 1", "a tap in the button area but outside the palm edge zones is a tap")
def _(li):
    li.touch_down(0, 10, 99)
    li.touch_up(0, after_ms=400)


@case("touchpad_palm_detect_at_top", [I2C], "test/test-touchpad.c", "1272", "nothing",
      "a pad higher than 55 mm has a top palm zone (5 % of its height)")
def _(li):
    li.touch_down(0, 20, 1)
    li.touch_move_to(0, 20, 1, 70, 1, 15)
    li.touch_up(0)


@case("touchpad_palm_detect_top_palm_becomes_pointer", [I2C], "test/test-touchpad.c", "1439", "pointer",
      "from the top palm zone straight down into the pad: a finger")
def _(li):
    li.touch_down(0, 50, 1)
    li.touch_move_to(0, 50, 1, 50, 60, 20)
    li.touch_up(0)


@case("touchpad_1fg_tap", [RMI4, I2C], "test/test-touchpad-tap.c", "34", "tap 1")
def _(li):
    li.touch_down(0, 50, 50)
    li.touch_up(0)


@case("touchpad_doubletap", [RMI4, I2C], "test/test-touchpad-tap.c", "56 (fingers_1st = fingers_2nd = 1)",
      "double-tap")
def _(li):
    li.touch_down(0, 40, 30, after_ms=10)
    li.touch_up(0, after_ms=10)
    li.touch_down(0, 40, 30, after_ms=10)
    li.touch_up(0)


@case("touchpad_2fg_tap", [RMI4, I2C], "test/test-touchpad-tap.c", "2134", "tap 2")
def _(li):
    li.touch_down(0, 50, 50)
    li.touch_down(1, 70, 70)
    li.touch_up(0)
    li.touch_up(1)


@case("touchpad_3fg_tap", [RMI4], "test/test-touchpad-tap.c", "2684", "tap 3")
def _(li):
    li.touch_down(0, 50, 50, after_ms=5)
    li.touch_down(1, 70, 50, after_ms=5)
    li.touch_down(2, 80, 50, after_ms=10)
    li.touch_up(2)
    li.touch_up(1)
    li.touch_up(0)


@case("touchpad_tap_n_drag", [RMI4, I2C], "test/test-touchpad-tap.c", "1072 (fingers = 1)", "drag",
      "a tap, then a finger down at once that moves: the tap and the motion are one drag")
def _(li):
    li.touch_down(0, 40, 30)
    li.touch_up(0)
    li.touch_down(0, 50, 50)
    li.touch_move_to(0, 50, 50, 80, 80, 20)
    li.touch_up(0)


def tap_fingers(li, n):
    """The tap of touchpad_tap_n_drag_2fg_scroll / _3fg_swipe: fingers 2, 1, 0 down, then up."""
    for slot, x in reversed(list(enumerate((40, 50, 60)))[:n]):
        li.touch_down(slot, x, 30)
    for slot in reversed(range(n)):
        li.touch_up(slot)


def tap_then_2fg_scroll(n):
    def body(li):
        tap_fingers(li, n)
        li.touch_down(0, 50, 50)
        li.touch_down(1, 70, 50)
        li.move_two_touches(50, 50, 70, 50, 0, 20, 10)
        li.touch_up(0)
        li.touch_up(1)
    return body


def tap_then_3fg_swipe(n):
    def body(li):
        tap_fingers(li, n)
        li.touch_down(0, 30, 50)
        li.touch_down(1, 50, 50)
        li.touch_down(2, 80, 50)
        li.move_three_touches(30, 50, 50, 50, 80, 50, 0, 20, 10)
        li.touch_up(2)
        li.touch_up(1)
        li.touch_up(0)
    return body


for n in (1, 2, 3):
    case(f"touchpad_tap_n_drag_2fg_scroll-{n}fg", [RMI4, I2C] if n <= 2 else [RMI4], "test/test-touchpad-tap.c",
         f"(nfingers = {n})", f"tap-then {n} scroll",
         "a tap, then two fingers down at once that scroll: a tap followed by a scroll")(tap_then_2fg_scroll(n))
    case(f"touchpad_tap_n_drag_3fg_swipe-{n}fg", [RMI4], "test/test-touchpad-tap.c",
         f"(nfingers = {n})", f"tap-then {n} swipe 3 down",
         "a tap, then three fingers down at once that swipe: a tap followed by a swipe")(tap_then_3fg_swipe(n))


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    os.makedirs(out, exist_ok=True)
    for name, device, test, line, expect, why, body in CASES:
        li = Litest(device)
        body(li)
        test_name = name.split(".", 1)[1].split("-")[0]
        # evemu-device reads an `A:` line's resolution only from a file that says its version.
        text = ["# EVEMU 1.3",
                f"# libinput {test}:{line} {test_name} (libinput {LIBINPUT_COMMIT}), on litest's "
                f"{device.source} ({device.width_mm():.0f} x {device.height_mm():.0f} mm)",
                "# written by Tests/Fixtures/litest-port/litest-port.py from the test's steps (not libinput's code)"]
        if why:
            text.append(f"# {why}")
        text.append(f"# expect: {expect}")
        text += li.header() + li.lines
        with open(os.path.join(out, name + ".evemu"), "w") as f:
            f.write("\n".join(text) + "\n")
    print(f"{len(CASES)} recordings in {out}")


if __name__ == "__main__":
    main()
