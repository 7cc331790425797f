"""Public handles: what the API shows of a player in place of the player's id (issue 39, docs/games.md "Fair
play", "Public handles").

A player's id keys everything stored about the player (the ratings, the history's index, the follows); it never
leaves the server. Every answer carries the player's *handle* instead, under the same names as before
(`player_id`, `id`): the player's own answers too (`POST /v1/players`), so a page compares a seat with its
player's handle as it did with the id. Every route that takes a player (a profile, a player's games, the
history's opponent, a follow) takes the handle and turns it back into the id.

A handle is the id through a keyed permutation of its 72 bits (a four-round Feistel network, HMAC-SHA256 as
the round function: Luby and Rackoff's construction), so both ways cost nothing: no item, no read, no write,
and no player made before handles existed needs one written. The key is the deployment's `PLAYER_HANDLE_KEY`
(template.yaml's `PlayerHandleKey`); without it (tests, `make run`) a fixed development key is used, which
keeps ids as hidden as a public algorithm can, that is not at all: a deployment sets its own. A string that
is not a 12-letter id (the computer's seat, `cpu`) is shown as it is.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import re
from typing import Annotated

from pydantic import PlainSerializer

KEY_VARIABLE = "PLAYER_HANDLE_KEY"
DEVELOPMENT_KEY = b"ubao development handles: set PLAYER_HANDLE_KEY when deploying"
#: An id and a handle alike: 9 bytes in 12 URL-safe base64 letters (``PLAYER_ID_BYTES``).
SHAPE = re.compile(r"[A-Za-z0-9_-]{12}")
HALF_BITS = 36
HALF_MASK = (1 << HALF_BITS) - 1
ROUNDS = 4


def _key() -> bytes:
    configured = os.environ.get(KEY_VARIABLE)
    return configured.encode("utf-8") if configured else DEVELOPMENT_KEY


def _round(key: bytes, number: int, half: int) -> int:
    digest = hmac.new(key, bytes((number,)) + half.to_bytes(5, "big"), hashlib.sha256).digest()
    return int.from_bytes(digest[:5], "big") & HALF_MASK


def _as_int(text: str) -> int:
    return int.from_bytes(base64.urlsafe_b64decode(text), "big")


def _as_text(value: int) -> str:
    return base64.urlsafe_b64encode(value.to_bytes(9, "big")).decode("ascii")


def handle_of(player_id: str) -> str:
    """The public handle of ``player_id``."""
    if not SHAPE.fullmatch(player_id):
        return player_id
    key, value = _key(), _as_int(player_id)
    left, right = value >> HALF_BITS, value & HALF_MASK
    for number in range(ROUNDS):
        left, right = right, left ^ _round(key, number, right)
    return _as_text((left << HALF_BITS) | right)


def player_id_of(handle: str) -> str:
    """The player id whose handle is ``handle`` (any 12-letter handle names an id, which may be nobody's)."""
    if not SHAPE.fullmatch(handle):
        return handle
    key, value = _key(), _as_int(handle)
    left, right = value >> HALF_BITS, value & HALF_MASK
    for number in reversed(range(ROUNDS)):
        left, right = right ^ _round(key, number, left), left
    return _as_text((left << HALF_BITS) | right)


def _shown(player_id: str | None) -> str | None:
    return handle_of(player_id) if player_id is not None else None


#: A player id in an answer model: serialized as the player's handle (what the API shows).
PublicId = Annotated[str, PlainSerializer(handle_of, return_type=str)]
OptionalPublicId = Annotated[str | None, PlainSerializer(_shown, return_type=str | None)]
