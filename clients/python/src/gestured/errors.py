"""Errors raised by the gestured client."""

import re
from typing import Any, List, Optional, Tuple

__all__ = ["GesturedError", "RequestError", "ProtocolVersionError", "ConnectionLost", "NoDaemon"]


class GesturedError(Exception):
    """Base of this library's errors."""


class NoDaemon(GesturedError, ConnectionError):
    """No daemon answered at any socket the lookup names (``paths``)."""

    def __init__(self, paths: List[str], reason: str) -> None:
        self.paths = paths
        tried = ", ".join(paths)
        super().__init__(f"no gestured daemon at {tried}: {reason} (start one, e.g. `gestured run`, "
                         "or set GESTURED_SOCKET; docs/daemon.md, \"The socket path\")")


class ProtocolVersionError(GesturedError):
    """The daemon speaks another protocol version than this library."""

    def __init__(self, path: str, theirs: Any, ours: int, hello: Any = None) -> None:
        self.path = path
        self.theirs = theirs
        self.ours = ours
        self.hello = hello
        super().__init__(f"gestured at {path} speaks protocol {theirs!r}; this library speaks protocol {ours}: "
                         "use the gestured Python library that came with that daemon")


class ConnectionLost(GesturedError, ConnectionError):
    """The connection dropped before the daemon answered (the request may or may not have been
    applied; a reconnection re-attaches and re-subscribes only what the daemon had confirmed)."""


# One problem of an error message: "regions.children[1].frame: 'frame' in region ...".
_PROBLEM = re.compile(r"^((?:[A-Za-z_][A-Za-z0-9_-]*)(?:\[\d+\])*(?:\.[A-Za-z_][A-Za-z0-9_-]*(?:\[\d+\])*)*): (.*)$",
                      re.DOTALL)
# Prefixes that name a rule rather than a place in the request.
_NOT_PATHS = {"limit"}


class RequestError(GesturedError):
    """The daemon refused a request: ``{"type":"error","request":NAME,"message":...}``.

    ``message`` is the daemon's text. ``problems`` lists each ``(path, message)`` it names, the path
    inside the request (``regions.children[1].frame``), in the order given; ``path`` is the first one
    (``None`` when the message names no place, e.g. a ``limit:`` refusal)."""

    def __init__(self, request: Optional[str], message: str, id: Any = None, line: Any = None) -> None:
        self.request = request
        self.message = message
        self.id = id
        self.line = line
        self.problems: List[Tuple[str, str]] = []
        for part in message.split("; "):
            match = _PROBLEM.match(part)
            if match and match.group(1) not in _NOT_PATHS:
                self.problems.append((match.group(1), match.group(2)))
        self.path: Optional[str] = self.problems[0][0] if self.problems else None
        super().__init__(f"{request or 'request'}: {message}")

    @property
    def paths(self) -> List[str]:
        return [path for path, _ in self.problems]
