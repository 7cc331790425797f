"""The live socket's actions: tickets, connections opened and closed, following a game, and the fan-out of a
game's new events to its followers (docs/games.md, "Live over a WebSocket")."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from common.errors import DomainError

from live.domain import (
    ADDRESS_CONNECTIONS,
    CONNECTION_SECONDS,
    PLAYER_CONNECTIONS,
    TICKET_SECONDS,
    Connection,
    Ticket,
    TicketRefused,
    TooManyConnections,
    UnknownConnection,
    new_ticket,
    ticket_hash,
)
from live.games import GameView, GameViews
from live.repository import LiveRepository, Sockets

#: ``moves_after`` for an update without a move (a draw offer, a takeover, a resignation): the state alone.
NO_MOVES = -1


class NoSuchGame(DomainError):
    code = "game_not_found"


@dataclass(frozen=True)
class IssuedTicket:
    ticket: str
    expires_in: int


def message(kind: str, view: GameView) -> dict[str, Any]:
    """A game as the socket sends it: ``state`` is ``GET /v1/games/{id}?moves_after=`` 's body, ``etag`` its ETag."""
    return {"type": kind, "game": view.sight.game_id, "seq": view.seq, "etag": view.etag, "state": view.state}


def error_message(error: DomainError) -> dict[str, Any]:
    return {"type": "error", "error": {"code": error.code, "message": error.message}}


class LiveService:
    def __init__(
        self,
        repository: LiveRepository,
        games: GameViews,
        sockets: Sockets | None = None,
        clock: Callable[[], float] = time.time,
    ):
        self.repository = repository
        self.games = games
        self.sockets = sockets
        self.clock = clock

    def now_ms(self) -> int:
        return int(self.clock() * 1000)

    # -- tickets and connections -------------------------------------------------------------------------
    def issue_ticket(self, player_id: str | None, address: str | None) -> IssuedTicket:
        ticket = new_ticket()
        expires = self.now_ms() + TICKET_SECONDS * 1000
        self.repository.put_ticket(Ticket(ticket_hash(ticket), player_id, address, expires))
        return IssuedTicket(ticket, TICKET_SECONDS)

    def connect(self, connection_id: str, ticket: str | None) -> Connection:
        """Open a connection with a ticket (taken: it opens no other), within its player's and address's limits."""
        found = self.repository.take_ticket(ticket_hash(ticket)) if ticket else None
        now = self.now_ms()
        if found is None or not found.usable(now):
            raise TicketRefused("the ticket is unknown, used already or expired: ask POST /v1/live/tickets again")
        expires = now + CONNECTION_SECONDS * 1000
        owners = [("player#" + found.player_id, PLAYER_CONNECTIONS)] if found.player_id else []
        owners += [("address#" + found.address, ADDRESS_CONNECTIONS)] if found.address else []
        slots: list[tuple[str, str]] = []
        for owner, limit in owners:
            slot = self.repository.claim_slot(owner, connection_id, limit, now, expires)
            if slot is None:
                for held in slots:
                    self.repository.release_slot(*held, connection_id)
                who = "player" if owner.startswith("player#") else "address"
                raise TooManyConnections(f"this {who} holds {limit} live connections already")
            slots.append((owner, slot))
        connection = Connection(connection_id, found.player_id, found.address, expires)
        self.repository.save_connection(connection, slots)
        return connection

    def disconnect(self, connection_id: str) -> None:
        """Forget the connection: what it follows, its slots, itself (each delete is harmless when repeated)."""
        found = self.repository.connection(connection_id)
        if found is None:
            return
        connection, slots = found
        for game_id in connection.follows:
            self.repository.remove_follower(game_id, connection_id)
        for owner, slot in slots:
            self.repository.release_slot(owner, slot, connection_id)
        self.repository.delete_connection(connection_id)

    # -- following a game ----------------------------------------------------------------------------------
    def subscribe(self, connection_id: str, game_id: str, ply: int | None) -> dict[str, Any]:
        """Follow a game the connection's player may see; the answer is the game with the moves after ``ply``
        (a reconnecting page's last ply: what it missed), and from then on each new event comes as a message."""
        found = self.repository.connection(connection_id)
        if found is None:
            raise UnknownConnection("this connection is closed")
        connection, slots = found
        before = self.games.view(game_id, NO_MOVES)
        if before is None:
            raise NoSuchGame(f"there is no game {game_id}")
        before.sight.check(connection.player_id)
        following = connection.following(game_id)
        # A follower first, then the read: an event stored after the read reaches the follower by the fan-out.
        self.repository.add_follower(game_id, connection_id, connection.expires_ms)
        if following != connection:
            self.repository.save_connection(following, slots)
        view = self.games.view(game_id, ply)
        return message("subscribed", view or before)

    # -- the fan-out -------------------------------------------------------------------------------------
    def fan_out(self, changed: Mapping[str, int]) -> int:
        """Send each changed game (id -> the ply before its first new move, or ``NO_MOVES``) to its followers,
        one read of the game for all of them; a connection that is gone is forgotten. The messages sent."""
        assert self.sockets is not None, "the fan-out needs the sockets"
        sent = 0
        now = self.now_ms()
        for game_id, moves_after in changed.items():
            followers = self.repository.followers(game_id, now)
            if not followers:
                continue  # nobody follows it: not even a read
            view = self.games.view(game_id, moves_after)
            if view is None:
                continue
            data = json.dumps(message("game", view), separators=(",", ":")).encode("utf-8")
            for connection_id in followers:
                if self.sockets.send(connection_id, data):
                    sent += 1
                else:
                    self.disconnect(connection_id)
                    self.repository.remove_follower(game_id, connection_id)
        return sent


def changed_games(events: Iterable[tuple[str, int | None]]) -> dict[str, int]:
    """The games a batch of events changed (id, and the ply of each move, None for another event), each with
    the ply before its first move in the batch (``NO_MOVES`` when it has none), in the batch's order."""
    changed: dict[str, int] = {}
    for game_id, ply in events:
        before = ply - 1 if ply is not None else NO_MOVES
        current = changed.get(game_id, NO_MOVES)
        if current == NO_MOVES or (before != NO_MOVES and before < current):
            changed[game_id] = before
        else:
            changed.setdefault(game_id, current)
    return changed
