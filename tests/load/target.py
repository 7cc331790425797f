"""The one host the load test may target: `make run` on this machine. No locust import here, so the check
is cheap to test and runs before locust starts."""

from __future__ import annotations

from urllib.parse import urlsplit

#: The only address accepted: the loopback address `make run` listens on. Not ``localhost`` (a hosts file
#: can point it anywhere), not another 127/8 address (nothing else of ours listens there).
LOOPBACK = "127.0.0.1"


class RemoteHost(ValueError):
    """The load test was pointed at something other than 127.0.0.1."""


def loopback_origin(url: str | None) -> str:
    """``url``'s origin (``http://127.0.0.1:PORT``) when it is the loopback address over http; else RemoteHost."""
    split = urlsplit(url or "")
    try:
        port = split.port
    except ValueError as error:
        raise RemoteHost(f"not a URL with a valid port: {url!r}") from error
    if split.scheme != "http" or split.hostname != LOOPBACK or split.username or split.password:
        raise RemoteHost(f"the load test only targets http://{LOOPBACK}:PORT (make run), not {url!r}")
    return f"http://{LOOPBACK}:{port or 80}"
