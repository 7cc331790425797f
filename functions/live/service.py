"""The live socket's actions: tickets, connections opened and closed, following a game or a tournament, and the
fan-out of a game's new events, or a tournament's new pairings and standings, to its followers (docs/games.md,
"Live over a WebSocket")."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from common.clock import Clocked
from common.errors import DomainError

from live.domain import (
    ADDRESS_CONNECTIONS,
    CONNECTION_SECONDS,
    PLAYER_CONNECTIONS,
    TICKET_SECONDS,
    Connection,
    Follower,
    NoSuchGame,
    NoSuchTournament,
    Ticket,
    TicketRefused,
    TooManyConnections,
    UnknownConnection,
    new_ticket,
    ticket_hash,
    tournament_topic,
)
from live.games import GameView, GameViews
from live.repository import LiveRepository, Sockets
from live.tournaments import TournamentViews

#: ``moves_after`` for an update without a move (a draw offer, a takeover, a resignation): the state alone.
NO_MOVES = -1
#: PostToConnection calls in flight at once: each is a round trip (some 10-30 ms), so the last of 20 watchers
#: told one after another would wait for the other 19.
SENDS_AT_ONCE = 16


@dataclass(frozen=True)
class IssuedTicket:
    ticket: str
    expires_in: int


def message(kind: str, view: GameView) -> dict[str, Any]:
    """A game as the socket sends it: ``state`` is ``GET /v1/games/{id}?moves_after=`` 's body, ``etag`` its ETag."""
    return {"type": kind, "game": view.sight.game_id, "seq": view.seq, "etag": view.etag, "state": view.state}


def tournament_message(kind: str, tournament_id: str, state: dict[str, Any]) -> dict[str, Any]:
    """A tournament as the socket sends it: ``state`` is ``GET /v1/tournaments/{id}`` 's body for its player."""
    return {"type": kind, "tournament": tournament_id, "state": state}


def error_message(error: DomainError) -> dict[str, Any]:
    return {"type": "error", "error": {"code": error.code, "message": error.message}}


@dataclass(eq=False)
class LiveService(Clocked):
    repository: LiveRepository
    games: GameViews
    sockets: Sockets | None = None
    clock: Callable[[], float] = time.time
    tournaments: TournamentViews | None = None

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
        connection, slots = self._connection(connection_id)
        before = self.games.view(game_id, NO_MOVES)
        if before is None:
            raise NoSuchGame(f"there is no game {game_id}")
        before.sight.check(connection.player_id)
        self._follow(connection, slots, game_id)
        view = self.games.view(game_id, ply)
        return message("subscribed", view or before)

    def subscribe_tournament(self, connection_id: str, tournament_id: str) -> dict[str, Any]:
        """Follow a tournament (anybody with its id may, as anybody may read it); the answer is the tournament as
        the connection's player sees it, and from then on each new pairing or result comes as a message."""
        assert self.tournaments is not None, "following a tournament needs the tournaments' views"
        connection, slots = self._connection(connection_id)
        player = connection.player_id
        if self.tournaments.views(tournament_id, ()) is None:
            raise NoSuchTournament(f"there is no tournament {tournament_id}")
        self._follow(connection, slots, tournament_topic(tournament_id))
        views = self.tournaments.views(tournament_id, (player,)) or {}
        return tournament_message("subscribed", tournament_id, views.get(player) or views[None])

    def _connection(self, connection_id: str) -> tuple[Connection, list[tuple[str, str]]]:
        found = self.repository.connection(connection_id)
        if found is None:
            raise UnknownConnection("this connection is closed")
        return found

    def _follow(self, connection: Connection, slots: list[tuple[str, str]], topic: str) -> None:
        """Follow ``topic`` (a follower first, then the caller's read: an event stored after that read reaches
        the follower by the fan-out)."""
        following = connection.following(topic)
        self.repository.add_follower(topic, connection.connection_id, connection.expires_ms, connection.player_id)
        if following != connection:
            self.repository.save_connection(following, slots)

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
            sent += self._send(game_id, followers, {None: message("game", view)})
        return sent

    def fan_out_tournaments(self, changed: Iterable[str]) -> int:
        """Send each changed tournament to its followers, each as its player sees it (one read of the tournament
        for all of them); a connection that is gone is forgotten. The messages sent."""
        assert self.tournaments is not None, "the tournaments' fan-out needs their views"
        sent = 0
        now = self.now_ms()
        for tournament_id in changed:
            topic = tournament_topic(tournament_id)
            followers = self.repository.followers(topic, now)
            if not followers:
                continue
            views = self.tournaments.views(tournament_id, {follower.player_id for follower in followers})
            if views is None:
                continue
            messages = {who: tournament_message("tournament", tournament_id, view) for who, view in views.items()}
            sent += self._send(topic, followers, messages)
        return sent

    def _send(self, topic: str, followers: list[Follower], messages: Mapping[str | None, dict[str, Any]]) -> int:
        """Send each follower its player's message (``messages[None]`` when there is none of its own)."""
        assert self.sockets is not None, "the fan-out needs the sockets"
        sockets = self.sockets
        encoded = {who: json.dumps(body, separators=(",", ":")).encode("utf-8") for who, body in messages.items()}

        def send(follower: Follower) -> bool:
            return sockets.send(follower.connection_id, encoded.get(follower.player_id) or encoded[None])

        if len(followers) > 1:
            with ThreadPoolExecutor(min(SENDS_AT_ONCE, len(followers)), "live-send") as pool:
                delivered = list(pool.map(send, followers))
        else:
            delivered = [send(follower) for follower in followers]
        for follower in (follower for follower, ok in zip(followers, delivered, strict=True) if not ok):
            self.disconnect(follower.connection_id)
            self.repository.remove_follower(topic, follower.connection_id)
        return sum(delivered)


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
