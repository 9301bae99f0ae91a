"""Typed lines of the gestured protocol (docs/protocol.md, "Streamed lines").

Every line the daemon sends becomes one dataclass. Each class names the protocol's keys as Python
attributes (camelCase keys in snake_case: ``tapCount`` is ``tap_count``); keys this library does not
know yet are kept, untouched, in ``extra``, and ``to_dict()`` gives the line back as the daemon wrote
it. Lines the library makes itself (a gesture cancelled because the connection dropped, the
connection's own events) have ``synthesized`` set to ``True``.
"""

from dataclasses import dataclass, field, fields
from typing import Any, Callable, ClassVar, Dict, List, Optional, Tuple, Type, TypeVar

__all__ = [
    "Point", "Event", "Hello", "Gesture", "Touch", "Explain", "Dropped", "Detached", "Record",
    "RecordEnd", "Forwarding", "Response", "UnknownLine", "Disconnected", "Reconnected", "parse_line",
    "GESTURE_STATES_IN_PROGRESS", "TOUCH_PHASES_IN_PROGRESS",
]


@dataclass(frozen=True)
class Point:
    """A position or a vector in surface units (y grows downward)."""
    x: float
    y: float

    @classmethod
    def from_json(cls, value: Any) -> "Point":
        return cls(float(value["x"]), float(value["y"]))

    def to_json(self) -> Dict[str, float]:
        return {"x": self.x, "y": self.y}


def _point(value: Any) -> Optional[Point]:
    return None if value is None else Point.from_json(value)


def _unpoint(value: Optional[Point]) -> Any:
    return None if value is None else value.to_json()


def _same(value: Any) -> Any:
    return value


# Per class: JSON key -> (attribute, from JSON, to JSON).
_Codec = Tuple[str, Callable[[Any], Any], Callable[[Any], Any]]

E = TypeVar("E", bound="Event")


@dataclass
class Event:
    """Base of every line type. ``type`` is the line's ``type`` key; ``extra`` holds the keys this
    library does not know; ``synthesized`` is ``True`` on lines the library made itself."""
    type: ClassVar[str] = ""
    _keys: ClassVar[Dict[str, _Codec]] = {}
    extra: Dict[str, Any] = field(default_factory=dict)
    synthesized: bool = False

    @classmethod
    def from_json(cls: Type[E], obj: Dict[str, Any]) -> E:
        values: Dict[str, Any] = {}
        extra: Dict[str, Any] = {}
        for key, value in obj.items():
            if key == "type":
                continue
            codec = cls._keys.get(key)
            if codec is None:
                extra[key] = value
            else:
                values[codec[0]] = codec[1](value)
        # A key the protocol always sends but this line lacks stays None rather than failing: the
        # line is still delivered, and the app sees what is missing.
        return cls(extra=extra, **values)  # type: ignore[call-arg]

    def to_dict(self) -> Dict[str, Any]:
        """The line as the daemon wrote it (unknown keys included; ``synthesized`` when set)."""
        out: Dict[str, Any] = {"type": self.type}
        for key, (attribute, _, encode) in self._keys.items():
            value = getattr(self, attribute)
            if value is None or (value is False and key in _OPTIONAL_FLAGS):
                continue
            out[key] = encode(value)
        out.update(self.extra)
        if self.synthesized:
            out["synthesized"] = True
        return out


_OPTIONAL_FLAGS = {"routine", "injected"}


def _camel(name: str) -> str:
    """``tap_count`` -> ``tapCount``."""
    first, *rest = name.split("_")
    return first + "".join(word.capitalize() for word in rest)


def _line(type_name: str, **renamed: str) -> Callable[[Type[E]], Type[E]]:
    """Makes a line class: a dataclass whose fields are its line's keys, read and written by one
    reader. Each field's key is its name in camelCase unless ``renamed`` gives it (``from="from_state"``);
    a ``Point`` field is read from ``{"x":…,"y":…}``; a field with ``metadata={"key": False}`` is
    no key of the line."""
    keys_of = {attribute: key for key, attribute in renamed.items()}

    def make(cls: Type[E]) -> Type[E]:
        cls = dataclass(cls)
        cls.type = type_name
        codecs: Dict[str, _Codec] = {}
        for f in fields(cls):
            if f.name in ("extra", "synthesized") or f.metadata.get("key", True) is False:
                continue
            is_point = f.type is Point or Point in getattr(f.type, "__args__", ())
            codecs[keys_of.get(f.name, _camel(f.name))] = (f.name, _point, _unpoint) if is_point else (f.name, _same, _same)
        cls._keys = codecs
        return cls
    return make


@_line("hello")
class Hello(Event):
    """The daemon's greeting: ``{"type":"hello","protocol":1,"version":"0.1.0","commit":"..."}``."""
    protocol: Optional[int] = None
    version: Optional[str] = None
    commit: Optional[str] = None


#: Gesture states after which a gesture is still going on (its end is still to come).
GESTURE_STATES_IN_PROGRESS = frozenset({"began", "changed"})
#: Touch phases after which the touch is still down.
TOUCH_PHASES_IN_PROGRESS = frozenset({"began", "moved", "stationary"})


@_line("gesture")
class Gesture(Event):
    """A gesture line. ``state``: ``recognized`` (taps, touchscreen swipes), ``began`` /
    ``changed`` / ``ended`` / ``cancelled`` (continuous gestures), ``failed``. ``synthesized``:
    made by this library, not the daemon (a gesture in progress when the connection dropped is
    delivered ``cancelled`` with its last values)."""
    gesture: Optional[str] = None
    kind: Optional[str] = None
    state: Optional[str] = None
    time: Optional[float] = None
    device: Optional[str] = None
    region: Optional[str] = None
    fingers: Optional[int] = None
    taps: Optional[int] = None
    direction: Optional[str] = None
    location: Optional[Point] = None
    translation: Optional[Point] = None
    velocity: Optional[Point] = None
    scale: Optional[float] = None
    scale_velocity: Optional[float] = None
    rotation: Optional[float] = None
    rotation_velocity: Optional[float] = None
    #: The mean pressure (0…1) of its pen touches, for a gesture made with a pen.
    pressure: Optional[float] = None

    @property
    def in_progress(self) -> bool:
        """True for ``began`` and ``changed``: an end (``ended`` or ``cancelled``) is still to come."""
        return self.state in GESTURE_STATES_IN_PROGRESS


@_line("touch")
class Touch(Event):
    """A touch line of a touch stream (``subscribe`` ``touches``, or ``publish-touches``):
    ``phase`` ``began`` / ``moved`` / ``stationary`` / ``ended`` / ``cancelled``; ``region`` the hit
    region, ``responder`` the stream it was sent to (docs/protocol.md, "The responder chain");
    on a ``began`` line ``chain``, the hit chain the daemon bound the touch to: the hit region
    first, then its ancestors up to the root (docs/protocol.md, "The hit chain of a touch")."""
    phase: Optional[str] = None
    id: Optional[int] = None
    location: Optional[Point] = None
    region: Optional[str] = None
    responder: Optional[str] = None
    tap_count: Optional[int] = None
    time: Optional[float] = None
    device: Optional[str] = None
    # A pen's line (docs/protocol.md, "Pens"); a finger's line has none of these keys.
    kind: Optional[str] = None
    pressure: Optional[float] = None
    altitude: Optional[float] = None
    azimuth: Optional[float] = None
    distance: Optional[float] = None
    buttons: Optional[List[str]] = None
    chain: Optional[List[str]] = None

    @property
    def in_progress(self) -> bool:
        return self.phase in TOUCH_PHASES_IN_PROGRESS

    @property
    def touch_type(self) -> str:
        """``finger``, ``pen`` or ``eraser``: a line without ``kind`` is a finger's."""
        return self.kind or "finger"

    @property
    def hovering(self) -> bool:
        """A pen in range, not touching (``hovering``; ``hover-ended`` when it left): no touch."""
        return self.phase in ("hovering", "hover-ended")


@_line("explain", **{"from": "from_state", "to": "to_state"})
class Explain(Event):
    """Why a recognizer changed state (while ``explain`` is on). ``from`` and ``to`` are
    ``from_state`` and ``to_state``; ``routine`` lines decide nothing."""
    gesture: Optional[str] = None
    region: Optional[str] = None
    from_state: Optional[str] = None
    to_state: Optional[str] = None
    time: Optional[float] = None
    reason: Optional[str] = None
    routine: bool = False


@_line("dropped")
class Dropped(Event):
    """``count`` streamed lines for this client were dropped while it read too slowly
    (docs/protocol.md, "Slow clients"); sent once it caught up."""
    count: Optional[int] = None


@_line("detached")
class Detached(Event):
    """One of this client's attached regions is gone: its parent disappeared in a config reload
    (from the daemon), or re-attaching it after a reconnection failed (``synthesized``, ``reason``
    holds the daemon's error)."""
    region: Optional[str] = None
    reason: Optional[str] = None


@_line("record")
class Record(Event):
    """Raw events of a recorded device (``record`` request): ``events`` holds evemu ``E:`` lines."""
    device: Optional[int] = None
    events: Optional[str] = None


@_line("record-end")
class RecordEnd(Event):
    """The end of a recording: ``reason`` (``time``, ``stopped``, ``too slow``, ...), ``events`` sent."""
    device: Optional[int] = None
    events: Optional[int] = None
    reason: Optional[str] = None
    message: Optional[str] = None


@_line("forwarding")
class Forwarding(Event):
    """What forwarding decided for a touch (docs/forwarding.md)."""
    touch: Optional[int] = None
    device: Optional[str] = None
    verdict: Optional[str] = None
    reason: Optional[str] = None
    time: Optional[float] = None


@dataclass
class UnknownLine(Event):
    """A line whose ``type`` this library does not know: every key is in ``extra``."""
    line_type: Optional[str] = None

    def to_dict(self) -> Dict[str, Any]:
        return dict(self.extra, type=self.line_type)


@dataclass
class Response:
    """The daemon's answer to a request: ``{"type":"response","request":NAME,"ok":true,...}``.
    The answer's own keys are in ``fields`` and readable as ``response["regions"]``."""
    request: str
    fields: Dict[str, Any]
    id: Any = None

    def __getitem__(self, key: str) -> Any:
        return self.fields[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.fields.get(key, default)

    def __contains__(self, key: str) -> bool:
        return key in self.fields


@_line("disconnected")
class Disconnected(Event):
    """The connection to the daemon is gone (``reason``); gestures and touches that were in progress
    were delivered ``cancelled`` just before. With reconnection on, a ``Reconnected`` follows."""
    synthesized: bool = True
    reason: Optional[str] = None


@_line("reconnected")
class Reconnected(Event):
    """Connected again (``path``, the daemon's ``hello``); what the client had attached, subscribed
    and asked to explain is being restored."""
    synthesized: bool = True
    path: Optional[str] = None
    hello: Optional[Hello] = field(default=None, metadata={"key": False})


_BY_TYPE: Dict[str, Type[Event]] = {
    cls.type: cls for cls in (Hello, Gesture, Touch, Explain, Dropped, Detached, Record, RecordEnd, Forwarding)
}


def parse_line(obj: Dict[str, Any]) -> Event:
    """One decoded streamed line (not a reply) as its dataclass."""
    cls = _BY_TYPE.get(obj.get("type"))  # type: ignore[arg-type]
    if cls is None:
        return UnknownLine(line_type=obj.get("type"), extra={k: v for k, v in obj.items() if k != "type"})
    return cls.from_json(obj)
