"""A function's environment variables, set in the local runner's one process while the function runs.

On Lambda each function has its own environment; here every function shares one ``os.environ``, and a request
and a background function (the stream's, the schedule's) may run at once. Each variable is set while any
function using it runs and restored when the last one ends: the template gives a variable the same value in
every function that has it (a table's name, the origin secret), so two functions never disagree on one.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def function_environment(variables: dict[str, str]) -> Iterator[None]:
    """``variables`` set in this process while the block runs (see the module's docstring)."""
    with _ENVIRONMENT_LOCK:
        for name, value in variables.items():
            if not _ENVIRONMENT_USERS.get(name):
                _ENVIRONMENT_SAVED[name] = os.environ.get(name)
            _ENVIRONMENT_USERS[name] = _ENVIRONMENT_USERS.get(name, 0) + 1
            os.environ[name] = value
    try:
        yield
    finally:
        with _ENVIRONMENT_LOCK:
            for name in variables:
                _ENVIRONMENT_USERS[name] -= 1
                if _ENVIRONMENT_USERS[name]:
                    continue
                saved = _ENVIRONMENT_SAVED.pop(name, None)
                if saved is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = saved


_ENVIRONMENT_LOCK = threading.Lock()
_ENVIRONMENT_USERS: dict[str, int] = {}
_ENVIRONMENT_SAVED: dict[str, str | None] = {}
