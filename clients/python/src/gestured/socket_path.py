"""Where the daemon's socket is: the lookup ``gesturectl`` uses (docs/daemon.md, "The socket path").

- ``$GESTURED_SOCKET`` when set and not empty;
- as root: ``/run/gestured/gestured.sock`` (the system service's);
- as any other user: ``$XDG_RUNTIME_DIR/gestured/gestured.sock`` (the user unit's), then the system
  socket when there is none there.
"""

import os
from typing import List, Mapping, Optional

__all__ = ["SYSTEM_SOCKET", "socket_candidates", "find_socket"]

SYSTEM_SOCKET = "/run/gestured/gestured.sock"


def socket_candidates(environ: Optional[Mapping[str, str]] = None, is_root: Optional[bool] = None) -> List[str]:
    """The paths to try, in order."""
    env = os.environ if environ is None else environ
    root = (os.geteuid() == 0) if is_root is None else is_root
    explicit = env.get("GESTURED_SOCKET")
    if explicit:
        return [explicit]
    if root:
        return [SYSTEM_SOCKET]
    runtime = env.get("XDG_RUNTIME_DIR", "")
    if runtime.startswith("/"):
        return [runtime.rstrip("/") + "/gestured/gestured.sock", SYSTEM_SOCKET]
    return [SYSTEM_SOCKET]


def find_socket(environ: Optional[Mapping[str, str]] = None, is_root: Optional[bool] = None) -> str:
    """The first candidate that exists, else the first (as ``gesturectl`` connects)."""
    candidates = socket_candidates(environ, is_root)
    for path in candidates:
        if os.path.exists(path):
            return path
    return candidates[0]
