"""The asyncio client (docs/protocol.md; the library's own guide is clients/python/README.md).

One connection to the daemon, read by one task that turns each line into an event or the reply to a
request. What the client attached, subscribed to and asked to explain is remembered, and restored on
the next connection when the daemon goes away and comes back.
"""

import asyncio
import copy
import dataclasses
import json
import os
from collections import OrderedDict, deque
from typing import Any, Callable, Deque, Dict, Iterable, List, Optional, Tuple

from .errors import ConnectionLost, GesturedError, NoDaemon, ProtocolVersionError, RequestError
from .events import Detached, Disconnected, Event, Gesture, Hello, Reconnected, Response, Touch, parse_line
from .socket_path import socket_candidates

__all__ = ["Client", "connect", "PROTOCOL_VERSION", "REQUEST_LINE_LIMIT", "DEFAULT_LINE_LIMIT"]

#: The protocol version this library speaks (the daemon's ``hello`` must carry the same).
PROTOCOL_VERSION = 1
#: The longest request line the daemon takes, newline excluded (docs/protocol.md, "Requests").
REQUEST_LINE_LIMIT = 65536
#: The longest line read from the daemon. asyncio's default (64 KiB) is too small for some replies
#: (a ``record`` header, a ``status`` of a large config).
DEFAULT_LINE_LIMIT = 16 * 1024 * 1024


class _Attachment:
    """One ``attach`` the daemon accepted, kept as it stands now (updates folded in) so that a new
    connection can attach it again."""

    def __init__(self, request: Dict[str, Any], root: str, region_ids: Iterable[str]) -> None:
        self.request = request
        self.root = root
        self.region_ids = set(region_ids)

    @property
    def parent(self) -> Optional[str]:
        return self.request.get("parent")


def _region_tree(node: Any) -> Iterable[Dict[str, Any]]:
    if isinstance(node, dict):
        yield node
        for child in node.get("children", []) or []:
            yield from _region_tree(child)


class Client:
    """A connection to gestured. Make one with :func:`connect`; iterate it for events::

        async with await gestured.connect() as client:
            await client.subscribe(kinds=["swipe"])
            async for event in client:
                print(event)
    """

    def __init__(self, path: Optional[str] = None, *, reconnect: bool = True, backoff_initial: float = 0.1,
                 backoff_max: float = 5.0, max_buffered_events: int = 1024, hello_timeout: float = 5.0,
                 line_limit: int = DEFAULT_LINE_LIMIT) -> None:
        if max_buffered_events < 1:
            raise ValueError("max_buffered_events must be at least 1")
        self._explicit_path = path
        self._reconnect = reconnect
        self._backoff_initial = backoff_initial
        self._backoff_max = backoff_max
        self._max_buffered = max_buffered_events
        self._hello_timeout = hello_timeout
        self._line_limit = line_limit
        #: The socket this client is connected to (or was, last).
        self.path: Optional[str] = None
        #: The daemon's greeting on the current connection.
        self.hello: Optional[Hello] = None
        #: How many times the connection was made again after it dropped.
        self.reconnections = 0
        self._reader: Optional[asyncio.StreamReader] = None
        self._writer: Optional[asyncio.StreamWriter] = None
        self._next_id = 1
        # id -> (request name, future, bookkeeping to run when the daemon says ok)
        self._pending: "OrderedDict[int, Tuple[str, asyncio.Future, Optional[Callable[[Response], None]]]]" = OrderedDict()
        self._events: Deque[Event] = deque()
        self._event_ready = asyncio.Event()
        self._room = asyncio.Event()
        self._ready = asyncio.Event()
        self._write_lock = asyncio.Lock()
        self._attachments: List[_Attachment] = []
        self._subscription: Optional[Dict[str, Any]] = None
        self._explain = False
        self._gestures_in_progress: "OrderedDict[Tuple[Any, ...], Gesture]" = OrderedDict()
        self._touches_in_progress: "OrderedDict[Tuple[Any, ...], Touch]" = OrderedDict()
        self._terminal: Optional[BaseException] = None
        self._closed = False
        self._supervisor: Optional[asyncio.Task] = None

    # -- connecting -------------------------------------------------------------------------

    def _candidates(self) -> List[str]:
        return [self._explicit_path] if self._explicit_path else socket_candidates()

    async def _open(self) -> None:
        """Connects to the first socket of the lookup that answers and checks its ``hello``."""
        candidates = self._candidates()
        existing = [p for p in candidates if os.path.exists(p)] or candidates[:1]
        reason = "no socket file"
        for path in existing:
            try:
                reader, writer = await asyncio.open_unix_connection(path, limit=self._line_limit)
            except OSError as error:
                reason = error.strerror or str(error)
                continue
            try:
                hello = await self._read_hello(path, reader)
            except BaseException:
                writer.close()
                raise
            self._reader, self._writer, self.path, self.hello = reader, writer, path, hello
            return
        raise NoDaemon(candidates, reason)

    async def _read_hello(self, path: str, reader: asyncio.StreamReader) -> Hello:
        try:
            line = await asyncio.wait_for(reader.readline(), self._hello_timeout)
        except asyncio.TimeoutError:
            raise GesturedError(f"{path}: no hello from the daemon within {self._hello_timeout} s") from None
        if not line:
            raise ConnectionLost(f"{path}: the daemon closed the connection before its hello")
        try:
            obj = json.loads(line)
        except ValueError:
            raise GesturedError(f"{path}: the first line is not JSON, is this gestured's socket? {line[:80]!r}") from None
        if isinstance(obj, dict) and obj.get("type") == "error":
            # Refused at the door: permission denied, too many clients, out of descriptors.
            raise GesturedError(f"{path}: {obj.get('message')}")
        if not isinstance(obj, dict) or obj.get("type") != "hello":
            raise GesturedError(f"{path}: expected the daemon's hello first, got {line[:80]!r}")
        hello = Hello.from_json(obj)
        if hello.protocol != PROTOCOL_VERSION:
            raise ProtocolVersionError(path, hello.protocol, PROTOCOL_VERSION, hello)
        return hello

    async def _start(self, wait: bool) -> None:
        delay = self._backoff_initial
        while True:
            try:
                await self._open()
                break
            except (NoDaemon, ConnectionLost):
                if not wait:
                    raise
                await asyncio.sleep(delay)
                delay = min(delay * 2, self._backoff_max)
        self._ready.set()
        self._supervisor = asyncio.ensure_future(self._supervise())

    async def _supervise(self) -> None:
        restoring = False
        while True:
            assert self._reader is not None
            read_task = asyncio.ensure_future(self._read_lines(self._reader))
            if restoring:
                try:
                    await self._restore()
                except ConnectionLost:
                    pass  # the read task says why
                except RequestError as error:
                    self._finish(error)
                    read_task.cancel()
                    self._drop_transport()
                    return
                self._ready.set()
            reason = await read_task
            self._ready.clear()
            self._drop_transport()
            self._lost(reason)
            if self._closed:
                return
            if not self._reconnect:
                self._finish(ConnectionLost(reason))
                return
            delay = self._backoff_initial
            while not self._closed:
                try:
                    await self._open()
                    break
                except ProtocolVersionError as error:
                    self._finish(error)
                    return
                except (OSError, GesturedError, asyncio.TimeoutError):
                    await asyncio.sleep(delay)
                    delay = min(delay * 2, self._backoff_max)
            if self._closed:
                return
            self.reconnections += 1
            self._push(Reconnected(path=self.path, hello=self.hello))
            restoring = True

    async def _restore(self) -> None:
        """Attaches again what was attached, in order, then subscribes and explains as before."""
        for attachment in list(self._attachments):
            if attachment not in self._attachments:
                continue  # gone with a parent that could not be attached
            try:
                await self._send(dict(attachment.request, request="attach"), None)
            except RequestError as error:
                for gone in self._remove_attachment(attachment):
                    self._push(Detached(region=gone.root, synthesized=True,
                                        reason=f"not attached again after reconnecting: {error.message}"))
        if self._subscription is not None:
            await self._send(dict(self._subscription, request="subscribe"), None)
        if self._explain:
            await self._send({"request": "explain", "on": True}, None)

    def _drop_transport(self) -> None:
        if self._writer is not None:
            self._writer.close()
        self._reader = self._writer = None

    def _lost(self, reason: str) -> None:
        """The connection is gone: pending requests fail, and what was in progress ends."""
        pending, self._pending = self._pending, OrderedDict()
        for name, future, _ in pending.values():
            if not future.done():
                future.set_exception(ConnectionLost(f"{name}: the connection dropped before the reply ({reason})"))
        self._room.set()
        for gesture in self._gestures_in_progress.values():
            self._push(dataclasses.replace(gesture, state="cancelled", synthesized=True, extra=dict(gesture.extra)))
        for touch in self._touches_in_progress.values():
            self._push(dataclasses.replace(touch, phase="cancelled", synthesized=True, extra=dict(touch.extra)))
        self._gestures_in_progress.clear()
        self._touches_in_progress.clear()
        self._push(Disconnected(reason=reason))

    def _finish(self, error: BaseException) -> None:
        """No more connections: the iterator raises ``error`` once the buffered events are read."""
        self._terminal = error
        self._ready.set()
        self._event_ready.set()

    # -- reading ----------------------------------------------------------------------------

    async def _wait_for_room(self, transport: Optional[asyncio.BaseTransport]) -> None:
        """Back-pressure: the app has ``max_buffered_events`` events it has not taken, so nothing
        more is read from the socket (the stream reader's transport is paused too, or it would
        keep reading into its own buffer). The daemon then queues this client's lines, drops and
        counts them when its queue is full, and sends a ``dropped`` line once the client caught up
        (docs/protocol.md, "Slow clients"). Replies are never held up: a request resumes reading."""
        paused = False
        if isinstance(transport, asyncio.ReadTransport) and transport.is_reading():
            transport.pause_reading()
            paused = True
        try:
            while len(self._events) >= self._max_buffered and not self._pending and not self._closed:
                self._room.clear()
                await self._room.wait()
        finally:
            if paused and not transport.is_closing():
                transport.resume_reading()

    async def _read_lines(self, reader: asyncio.StreamReader) -> str:
        """Reads until the connection ends; returns why it ended."""
        transport = self._writer.transport if self._writer is not None else None
        try:
            while True:
                try:
                    line = await reader.readline()
                except (ValueError, asyncio.LimitOverrunError):
                    return f"a line from the daemon is longer than {self._line_limit} bytes (line_limit)"
                if not line:
                    return "the daemon closed the connection"
                if not line.strip():
                    continue
                try:
                    obj = json.loads(line)
                except ValueError:
                    return f"the daemon sent a line that is not JSON: {line[:80]!r}"
                if not isinstance(obj, dict):
                    continue
                kind = obj.get("type")
                if kind in ("response", "error") and self._pending:
                    self._answer(obj)
                    continue
                self._receive(parse_line(obj))
                if len(self._events) >= self._max_buffered and not self._pending and not self._closed:
                    await self._wait_for_room(transport)
        except OSError as error:
            return f"the connection failed: {error.strerror or error}"

    def _answer(self, obj: Dict[str, Any]) -> None:
        """Matches a reply with its request: by ``id``, else the oldest (replies come in order)."""
        request_id = obj.get("id")
        entry = self._pending.pop(request_id, None) if request_id is not None else None
        if entry is None:
            _, entry = self._pending.popitem(last=False)
        name, future, on_ok = entry
        if obj.get("type") == "response":
            fields = {k: v for k, v in obj.items() if k not in ("type", "request", "ok", "id")}
            response = Response(request=obj.get("request", name), fields=fields, id=request_id)
            if on_ok is not None:
                on_ok(response)
            if not future.done():
                future.set_result(response)
        elif not future.done():
            future.set_exception(RequestError(obj.get("request", name), str(obj.get("message", "")), request_id, obj))

    def _receive(self, event: Event) -> None:
        if isinstance(event, Gesture):
            key = (event.gesture, event.device, event.region)
            if event.in_progress:
                self._gestures_in_progress[key] = event
            else:
                self._gestures_in_progress.pop(key, None)
        elif isinstance(event, Touch):
            key = (event.device, event.id)
            if event.in_progress:
                self._touches_in_progress[key] = event
            else:
                self._touches_in_progress.pop(key, None)
        elif isinstance(event, Detached) and event.region is not None:
            for attachment in self._attachments:
                if attachment.root == event.region:
                    self._remove_attachment(attachment)
                    break
        self._push(event)

    def _push(self, event: Event) -> None:
        self._events.append(event)
        self._event_ready.set()

    # -- the event iterator -----------------------------------------------------------------

    def __aiter__(self) -> "Client":
        return self

    async def __anext__(self) -> Event:
        while True:
            if self._events:
                event = self._events.popleft()
                self._room.set()
                return event
            if self._terminal is not None:
                raise self._terminal
            if self._closed:
                raise StopAsyncIteration
            self._event_ready.clear()
            await self._event_ready.wait()

    async def next_event(self, timeout: Optional[float] = None) -> Event:
        """The next event; ``asyncio.TimeoutError`` after ``timeout`` seconds without one."""
        return await asyncio.wait_for(self.__anext__(), timeout)

    @property
    def buffered_events(self) -> int:
        """Events read from the socket and not yet taken by the app."""
        return len(self._events)

    @property
    def connected(self) -> bool:
        return self._writer is not None and self._ready.is_set()

    # -- requests ---------------------------------------------------------------------------

    async def _send(self, obj: Dict[str, Any], on_ok: Optional[Callable[[Response], None]]) -> Response:
        if self._writer is None:
            raise ConnectionLost(f"{obj['request']}: not connected")
        request_id = self._next_id
        self._next_id += 1
        obj = dict(obj, id=request_id)
        data = json.dumps(obj, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode("utf-8")
        if len(data) > REQUEST_LINE_LIMIT:
            raise ValueError(f"{obj['request']}: the request is {len(data)} bytes of JSON, over the daemon's "
                             f"limit of {REQUEST_LINE_LIMIT} bytes a line")
        future = asyncio.get_event_loop().create_future()
        self._pending[request_id] = (obj["request"], future, on_ok)
        self._room.set()
        writer = self._writer
        try:
            async with self._write_lock:
                writer.write(data + b"\n")
                await writer.drain()
        except OSError as error:
            self._pending.pop(request_id, None)
            raise ConnectionLost(f"{obj['request']}: {error.strerror or error}") from None
        return await future

    async def request(self, name: str, **fields: Any) -> Response:
        """Any request (docs/protocol.md, "Requests"): ``await client.request("status")``. Returns the
        daemon's ``response``, raises :class:`RequestError` for its ``error``, and
        :class:`ConnectionLost` when the connection drops first. While the client reconnects,
        requests wait until what it had is restored."""
        return await self._request(dict(fields, request=name), None)

    async def _request(self, obj: Dict[str, Any], on_ok: Optional[Callable[[Response], None]]) -> Response:
        if self._closed:
            raise GesturedError("the client is closed")
        await self._ready.wait()
        if self._terminal is not None:
            raise self._terminal
        if self._closed:
            raise GesturedError("the client is closed")
        return await self._send(obj, on_ok)

    async def subscribe(self, *, gestures: Optional[Iterable[str]] = None, kinds: Optional[Iterable[str]] = None,
                        regions: Optional[Iterable[str]] = None, devices: Optional[Iterable[str]] = None,
                        touches: Optional[Iterable[str]] = None) -> Response:
        """Streams the config's gestures that match every filter given (an omitted or empty list
        matches all of its dimension), and the touch streams of the regions in ``touches`` (``"*"``:
        all). A new subscribe replaces the filter. Attached gestures arrive without one."""
        fields: Dict[str, Any] = {}
        for key, value in (("gestures", gestures), ("kinds", kinds), ("regions", regions), ("devices", devices),
                           ("touches", touches)):
            if value is not None:
                if isinstance(value, str):
                    raise TypeError(f"subscribe: {key} takes a list of strings, not the string {value!r}")
                fields[key] = list(value)

        def remember(_: Response) -> None:
            self._subscription = fields
        return await self._request(dict(fields, request="subscribe"), remember)

    async def unsubscribe(self) -> Response:
        def forget(_: Response) -> None:
            self._subscription = None
        return await self._request({"request": "unsubscribe"}, forget)

    async def explain(self, on: bool = True) -> Response:
        """``explain`` lines (why recognizers changed state) for this client's filter and attachments."""
        def remember(_: Response) -> None:
            self._explain = on
        return await self._request({"request": "explain", "on": on}, remember)

    async def attach(self, regions: Dict[str, Any], gestures: Iterable[Dict[str, Any]] = (),
                     parent: Optional[str] = None) -> Response:
        """Attaches one region (with its ``children``) and gestures on it, in the config file's
        schema written as JSON (docs/protocol.md, "Apps"). Returns the reply (``region``,
        ``regions``, ``gestures``: the ids attached); raises :class:`RequestError` naming the path
        inside the request (``error.path``, e.g. ``regions.children[1].frame``)."""
        obj: Dict[str, Any] = {"request": "attach", "regions": copy.deepcopy(regions),
                               "gestures": copy.deepcopy(list(gestures))}
        if parent is not None:
            obj["parent"] = parent
        kept = {k: v for k, v in obj.items() if k != "request"}

        def remember(response: Response) -> None:
            root = response.get("region") or (regions.get("id") if isinstance(regions, dict) else None)
            ids = response.get("regions") or [n.get("id") for n in _region_tree(regions)]
            self._attachments.append(_Attachment(kept, root, ids))
        return await self._request(obj, remember)

    async def update(self, region: str, *, frame: Optional[List[Any]] = None, hidden: Optional[bool] = None,
                     interactive: Optional[bool] = None) -> Response:
        """Changes an attached region's ``frame``, ``hidden`` and/or ``interactive`` (from the next
        touch sequence on)."""
        changes: Dict[str, Any] = {}
        if frame is not None:
            changes["frame"] = list(frame)
        if hidden is not None:
            changes["hidden"] = hidden
        if interactive is not None:
            changes["interactive"] = interactive

        def remember(_: Response) -> None:
            for attachment in self._attachments:
                if region in attachment.region_ids:
                    for node in _region_tree(attachment.request.get("regions")):
                        if node.get("id") == region:
                            node.update(copy.deepcopy(changes))
                    return
        return await self._request(dict(changes, request="update", region=region), remember)

    async def detach(self, region: str) -> Response:
        """Removes an attached region, everything below it and their gestures; a gesture of it in
        progress gets its ``cancelled`` line first."""
        def remember(_: Response) -> None:
            for attachment in self._attachments:
                if region == attachment.root:
                    self._remove_attachment(attachment)
                    return
                if region in attachment.region_ids:
                    self._remove_subtree(attachment, region)
                    return
        return await self._request({"request": "detach", "region": region}, remember)

    def _remove_attachment(self, attachment: _Attachment) -> List[_Attachment]:
        """Forgets an attachment and those attached inside it; returns them."""
        gone = [attachment]
        self._attachments.remove(attachment)
        for other in list(self._attachments):
            if other in self._attachments and other.parent in attachment.region_ids:
                gone += self._remove_attachment(other)
        return gone

    def _remove_subtree(self, attachment: _Attachment, region: str) -> None:
        for node in _region_tree(attachment.request.get("regions")):
            children = node.get("children") or []
            for child in children:
                if child.get("id") == region:
                    removed = {n.get("id") for n in _region_tree(child)}
                    children.remove(child)
                    attachment.region_ids -= removed
                    attachment.request["gestures"] = [g for g in attachment.request.get("gestures", [])
                                                      if g.get("region") not in removed]
                    for other in list(self._attachments):
                        if other in self._attachments and other.parent in removed:
                            self._remove_attachment(other)
                    return

    async def status(self) -> Response:
        return await self.request("status")

    async def devices(self) -> Response:
        return await self.request("devices")

    async def hit_test(self, x: float, y: float, device: Optional[str] = None) -> Response:
        fields: Dict[str, Any] = {"x": x, "y": y}
        if device is not None:
            fields["device"] = device
        return await self.request("hit-test", **fields)

    # -- closing ----------------------------------------------------------------------------

    async def close(self) -> None:
        """Closes the connection (the daemon detaches what this client attached); the iterator ends."""
        if self._closed:
            return
        self._closed = True
        self._ready.set()
        self._room.set()
        self._event_ready.set()
        if self._supervisor is not None:
            self._supervisor.cancel()
            try:
                await self._supervisor
            except (asyncio.CancelledError, Exception):
                pass
        writer = self._writer
        self._drop_transport()
        if writer is not None:
            try:
                await writer.wait_closed()
            except OSError:
                pass
        for name, future, _ in self._pending.values():
            if not future.done():
                future.set_exception(GesturedError(f"{name}: the client was closed before the reply"))
        self._pending.clear()

    async def __aenter__(self) -> "Client":
        return self

    async def __aexit__(self, *_: Any) -> None:
        await self.close()


async def connect(path: Optional[str] = None, *, wait: bool = False, **options: Any) -> Client:
    """Connects to gestured and checks its ``hello``.

    ``path``: the socket; by default the lookup ``gesturectl`` uses (``$GESTURED_SOCKET``, the user
    socket ``$XDG_RUNTIME_DIR/gestured/gestured.sock``, the system socket
    ``/run/gestured/gestured.sock``). ``wait``: keep trying (with backoff) until a daemon answers,
    instead of raising :class:`NoDaemon`. Options: ``reconnect`` (default ``True``),
    ``backoff_initial`` and ``backoff_max`` (seconds, 0.1 and 5), ``max_buffered_events`` (1024),
    ``hello_timeout`` (5 s), ``line_limit`` (16 MiB). Raises :class:`ProtocolVersionError` when the
    daemon speaks another protocol."""
    client = Client(path, **options)
    await client._start(wait)
    return client
