"""Live games over a WebSocket: the values (tickets, connections, what a connection may follow) and the refusals.

A browser cannot set a header on a WebSocket, and a token in a URL ends up in logs, so a page first asks
``POST /v1/live/tickets`` (with its bearer token, when it has one) for a ticket: 128 random bits, kept only as
their hash, good for ``TICKET_SECONDS`` and for one connection. The connection then belongs to the ticket's
player (or to nobody: a watcher without an account) and to the ticket's address, each of which may hold a
few connections at once (``PLAYER_CONNECTIONS``, ``ADDRESS_CONNECTIONS``). A connection follows up to
``MAX_FOLLOWS`` topics, each one its player may see: a public game anybody, a private one its two players, a
tournament anybody who has its id (as ``GET /v1/tournaments/{id}``). A topic is a game's id, or
``tournament_topic(id)`` for a tournament.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable
from dataclasses import dataclass

from common.errors import DomainError

#: A ticket is good for this long after it was issued (a page asks for one just before it connects).
TICKET_SECONDS = 60
#: API Gateway closes a WebSocket after 2 hours whatever happens; nothing of a connection outlives that.
CONNECTION_SECONDS = 2 * 60 * 60
#: Connections one player may hold at once (two phones, a tablet, a few tabs).
PLAYER_CONNECTIONS = 5
#: Connections one address may hold at once (a school or a phone shop's players behind one NAT).
ADDRESS_CONNECTIONS = 20
#: Topics one connection follows at once (a table, its tournament and a few watched games).
MAX_FOLLOWS = 4
#: What a tournament's topic starts with (a game id never holds a '#').
TOURNAMENT_TOPIC = "t#"
#: Messages of the live socket: at most this many bytes from a client (``subscribe`` is under 100).
MAX_MESSAGE_BYTES = 1024


class TicketRefused(DomainError, code="invalid_ticket"):
    """The ticket is unknown, used already, or expired: the connection is refused (403)."""


class TooManyConnections(DomainError, code="too_many_connections"):
    """The ticket's player or address holds as many connections as it may (429)."""


class NotAllowedToFollow(DomainError, code="not_allowed_to_follow"):
    """A private game, and the connection's player is not one of its two players (403)."""


class TooManyFollows(DomainError, code="too_many_follows"):
    """The connection follows ``MAX_FOLLOWS`` games already (409)."""


class InvalidMessage(DomainError, code="invalid_message"):
    """Not a message the live socket understands (422)."""


class UnknownConnection(DomainError, code="connection_gone"):
    """A message on a connection the table does not know (closed, or never opened): 410."""


class NoSuchGame(DomainError, code="game_not_found"):
    """A game followed that does not exist (404)."""


class NoSuchTournament(DomainError, code="tournament_not_found"):
    """A tournament followed that does not exist (404)."""


def new_ticket() -> str:
    """A ticket: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


def ticket_hash(ticket: str) -> str:
    """What is stored of a ticket: its SHA-256 (a leaked table holds no usable ticket)."""
    return hashlib.sha256(ticket.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Ticket:
    """An issued ticket, as stored: for ``player_id`` (None: a watcher without a player) from ``address``."""

    digest: str
    player_id: str | None
    address: str | None
    expires_ms: int

    def usable(self, now_ms: int) -> bool:
        return now_ms < self.expires_ms


@dataclass(frozen=True)
class Connection:
    """An open WebSocket: who holds it, from where, until when at the latest, and what it follows."""

    connection_id: str
    player_id: str | None
    address: str | None
    expires_ms: int
    follows: tuple[str, ...] = ()

    def following(self, topic: str) -> Connection:
        if topic in self.follows:
            return self
        if len(self.follows) >= MAX_FOLLOWS:
            raise TooManyFollows(f"a connection follows at most {MAX_FOLLOWS} games and tournaments")
        return Connection(self.connection_id, self.player_id, self.address, self.expires_ms, (*self.follows, topic))


@dataclass(frozen=True, order=True)
class Follower:
    """A connection following a topic, and its player (None: a watcher): a tournament's view is per player."""

    connection_id: str
    player_id: str | None = None


def tournament_topic(tournament_id: str) -> str:
    return TOURNAMENT_TOPIC + tournament_id


def tournament_of_topic(topic: str) -> str | None:
    """The tournament's id of a tournament's topic; None for a game's."""
    return topic[len(TOURNAMENT_TOPIC) :] if topic.startswith(TOURNAMENT_TOPIC) else None


@dataclass(frozen=True)
class Sight:
    """What a follower may know of a game before following it: whether it is private, and its players."""

    game_id: str
    private: bool
    players: frozenset[str]

    def check(self, player_id: str | None) -> None:
        """``NotAllowedToFollow`` unless ``player_id`` may see this game."""
        if self.private and (player_id is None or player_id not in self.players):
            raise NotAllowedToFollow("a private game is followed by its two players only")


def sight_of(game_id: str, private: bool, players: Iterable[str | None]) -> Sight:
    return Sight(game_id, private, frozenset(player for player in players if player))
