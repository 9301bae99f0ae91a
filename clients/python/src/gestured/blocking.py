"""Blocking use, for scripts: ``for event in gestured.listen(kinds=["swipe"]): ...``."""

import asyncio
from typing import Any, Dict, Iterable, Iterator, Optional

from .client import Client, connect
from .events import Event

__all__ = ["listen"]


def listen(path: Optional[str] = None, *, gestures: Optional[Iterable[str]] = None,
           kinds: Optional[Iterable[str]] = None, regions: Optional[Iterable[str]] = None,
           devices: Optional[Iterable[str]] = None, touches: Optional[Iterable[str]] = None,
           explain: bool = False, attach: Optional[Iterable[Dict[str, Any]]] = None,
           subscribe: bool = True, **options: Any) -> Iterator[Event]:
    """Connects, subscribes with the filters given, and yields events until the loop is left.

    ``attach``: attachments to make first, each a dict of :meth:`Client.attach`'s arguments
    (``{"regions": {...}, "gestures": [...], "parent": "screen"}``). ``subscribe=False``: only the
    attached gestures. ``options`` go to :func:`connect` (``reconnect``, ``wait``, ...).

    Nothing is read from the socket while the loop's body runs: a body that takes long lets the
    daemon drop lines for this client, and a :class:`Dropped` event says how many."""
    loop = asyncio.new_event_loop()
    client: Optional[Client] = None
    try:
        client = loop.run_until_complete(connect(path, **options))
        for attachment in attach or ():
            loop.run_until_complete(client.attach(**attachment))
        if subscribe:
            loop.run_until_complete(client.subscribe(gestures=gestures, kinds=kinds, regions=regions,
                                                     devices=devices, touches=touches))
        if explain:
            loop.run_until_complete(client.explain(True))
        while True:
            try:
                event = loop.run_until_complete(client.__anext__())
            except StopAsyncIteration:
                return
            yield event
    finally:
        if client is not None:
            loop.run_until_complete(client.close())
        loop.close()
