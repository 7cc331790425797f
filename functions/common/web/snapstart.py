"""Lambda SnapStart (template parameter ``SnapStart``, docs/capacity.md): what the instances restored from
one snapshot must not share.

With SnapStart on, Lambda runs a published version's INIT once, snapshots the instance and starts every new
instance from that snapshot. Two things would then be the same in all of them: the ``random`` module's state
(botocore draws its retry jitter from it, so instances that failed together would retry together) and what
the data-access module built (its clients hold connections, and the credentials resolved in INIT).
``secrets`` and ``uuid`` read the system's randomness on every call and need nothing; the engine's
``random.Random(seed)`` generators are seeded per move on purpose.

The hooks come from ``snapshot_restore_py``, which Lambda's Python runtime provides; anywhere else
``register`` does nothing, and with SnapStart off no snapshot is ever taken, so no hook ever runs.
"""

from __future__ import annotations

import random

from common.persistence import store

_registered = False


def register() -> bool:
    """Register the hooks once per process; whether the runtime offers them."""
    global _registered
    try:
        from snapshot_restore_py import register_after_restore, register_before_snapshot
    except ImportError:
        return False
    if not _registered:
        register_before_snapshot(before_snapshot)
        register_after_restore(after_restore)
        _registered = True
    return True


def before_snapshot() -> None:
    """Import boto3 and build a client now, so restored instances start with those modules loaded (the
    client itself is dropped on restore)."""
    store.client()


def after_restore() -> None:
    """A random state and clients of this instance's own."""
    random.seed()  # from the system's randomness
    store.reset_clients(session=True)  # a new session resolves this instance's credentials
