"""gestured: the Python client of the gestured daemon (docs/protocol.md).

asyncio first::

    import asyncio, gestured

    async def main():
        async with await gestured.connect() as client:
            await client.attach({"id": "pad", "frame": [0, 0, "50%", "100%"]},
                                [{"id": "zoom", "kind": "pinch"}], parent="screen")
            async for event in client:
                if isinstance(event, gestured.Gesture):
                    print(event.gesture, event.state, event.scale)

    asyncio.run(main())

and blocking, for scripts: ``for event in gestured.listen(kinds=["swipe"]): print(event)``.
Standard library only; Python 3.9 or later.
"""

from .blocking import listen
from .client import DEFAULT_LINE_LIMIT, PROTOCOL_VERSION, REQUEST_LINE_LIMIT, Client, connect
from .errors import ConnectionLost, GesturedError, NoDaemon, ProtocolVersionError, RequestError
from .events import (Detached, Disconnected, Dropped, Event, Explain, Forwarding, Gesture, Hello, Point, Reconnected,
                     Record, RecordEnd, Response, Touch, UnknownLine, parse_line)
from .socket_path import SYSTEM_SOCKET, find_socket, socket_candidates

__version__ = "0.1.0"

__all__ = [
    "listen", "connect", "Client", "PROTOCOL_VERSION", "REQUEST_LINE_LIMIT", "DEFAULT_LINE_LIMIT",
    "GesturedError", "RequestError", "ProtocolVersionError", "ConnectionLost", "NoDaemon",
    "Event", "Hello", "Gesture", "Touch", "Explain", "Dropped", "Detached", "Record", "RecordEnd", "Forwarding",
    "UnknownLine", "Response", "Disconnected", "Reconnected", "Point", "parse_line",
    "SYSTEM_SOCKET", "find_socket", "socket_candidates", "__version__",
]
