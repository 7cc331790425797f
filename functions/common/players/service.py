"""Players without accounts: a random token is the player's only credential.

* ``POST /v1/players`` makes a player and shows its token once. The token is 256 random bits; the store
  keeps only its SHA-256, so a leaked table gives no one a seat.
* Every request that acts for a player sends ``Authorization: Bearer <token>``. ``authenticate`` looks the
  player up by the token's hash (one read). Games keep the hash of each seat's token too, so a move is
  checked against the game's own item with ``token_matches`` (a constant-time comparison) and needs no
  second read.
* Display names are optional, 1 to 24 characters a person can read (``common.players.names``).

Used by the games function and by the puzzles function (progress belongs to the same players).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

from common.players.domain import InvalidName, Player, Unauthorized
from common.players.names import clean_name
from common.players.repository import PlayerRepository

# Player and the refusals live in common.players.domain; importers of this module get them here too.
__all__ = [
    "InvalidName",
    "Player",
    "Players",
    "Unauthorized",
    "bearer_token",
    "clean_name",
    "hash_token",
    "required_token",
]

TOKEN_PREFIX = "ubao_"
TOKEN_BYTES = 32  # 256 bits: far beyond guessing, and the hash stays a safe lookup key
PLAYER_ID_BYTES = 9  # 72 bits, 12 URL-safe characters: public, so it only has to be unique
_TOKEN_SHAPE = re.compile(r"ubao_[A-Za-z0-9_-]{43}")


def new_token() -> str:
    return TOKEN_PREFIX + secrets.token_urlsafe(TOKEN_BYTES)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def token_matches(token_hash: str, stored_hash: str | bytes | None) -> bool:
    """Whether a token's hash equals a stored one, in time that does not depend on where they differ."""
    if not stored_hash:
        return False
    if isinstance(stored_hash, bytes):
        stored_hash = stored_hash.hex()
    return hmac.compare_digest(token_hash.encode("ascii"), stored_hash.encode("ascii"))


def bearer_token(headers: dict[str, str] | None, required: bool = True) -> str | None:
    """The token of an ``Authorization: Bearer`` header; ``Unauthorized`` if missing (when required) or malformed."""
    value = None
    for name, item in (headers or {}).items():
        if name.lower() == "authorization":
            value = item
            break
    if value is None or not value.strip():
        if required:
            raise Unauthorized("send your player token as 'Authorization: Bearer <token>' (POST /v1/players makes one)")
        return None
    scheme, _, token = value.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not _TOKEN_SHAPE.fullmatch(token):
        raise Unauthorized("the Authorization header must be 'Bearer ' and a token from POST /v1/players")
    return token


def required_token(headers: dict[str, str] | None) -> str:
    """The request's token; ``Unauthorized`` if it has none."""
    token = bearer_token(headers, required=True)
    if token is None:  # bearer_token raised already; this tells the type checker
        raise Unauthorized("send your player token as 'Authorization: Bearer <token>'")
    return token


class Players:
    """Creating, finding and renaming players."""

    def __init__(self, store: PlayerRepository | None = None):
        if store is None:
            from common.players.repository import PlayerStore

            store = PlayerStore()
        self.store: PlayerRepository = store

    def create(self, name: str | None, now_ms: int, country: str | None = None) -> tuple[Player, str]:
        """A new player and its token (the only time the token is seen); ``country``: where the request came
        from, as CloudFront said it (``viewer_country``)."""
        name = clean_name(name)
        while True:
            token = new_token()
            player_id, token_hash = secrets.token_urlsafe(PLAYER_ID_BYTES), hash_token(token)
            player = Player(player_id, token_hash, name=name, created=now_ms, country=country)
            if self.store.create(player):  # False only if 256 random bits repeated: draw again
                return player, token

    def authenticate(self, headers: dict[str, str] | None) -> Player:
        """The player whose token the request carries (with its blocks and puzzle progress, from the same
        read); ``Unauthorized`` otherwise. One read."""
        return self.find(hash_token(required_token(headers)))

    def find(self, token_hash: str) -> Player:
        return player_of(token_hash, self.store.get(token_hash))

    def rename(self, player: Player, name: str | None) -> Player:
        renamed = self.store.set_name(player.token_hash, clean_name(name))
        if renamed is None:
            raise Unauthorized("this token belongs to no player; make one with POST /v1/players")
        return renamed

    def hide_country(self, player: Player, hidden: bool) -> Player:
        changed = self.store.set_country_hidden(player.token_hash, hidden)
        if changed is None:
            raise Unauthorized("this token belongs to no player; make one with POST /v1/players")
        return changed


def player_of(token_hash: str, found: Player | None) -> Player:
    """The player read under ``token_hash`` (by ``PlayerRepository.get``, or in a batch with another read);
    ``Unauthorized`` when there is none."""
    # The lookup is by hash; compare again in constant time so a store that matched loosely cannot let
    # a wrong token through.
    if found is None or not token_matches(token_hash, found.token_hash):
        raise Unauthorized("this token belongs to no player; make one with POST /v1/players")
    return found
