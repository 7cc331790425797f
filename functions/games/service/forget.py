""" "Delete my data" in the games table: every game of the player keeps its moves, and the player's seat becomes
"a former player" (``SeatForgotten``: no id, no name, no token hash; the log's seats are rewritten the same,
so folding it again never brings them back). A game still going is resigned first (one waiting for an opponent
is aborted), so no one waits for a move that cannot come. The player's own listings (their history) are
rewritten with the seat: no list, profile or index of theirs shows the game any more. Idempotent: a seat
forgotten already is left as it is."""

from __future__ import annotations

from dataclasses import replace

from games.domain import (
    COLORS,
    FORMER_PLAYER,
    Aborted,
    AnyEvent,
    Color,
    Created,
    GameHead,
    Joined,
    Resigned,
    Seat,
    SeatForgotten,
    SeekAccepted,
    SeekWithdrawn,
)
from games.service.protocol import GameLog
from games.views import order_range

#: The seats of a game are in its first events (made, joined, a challenge taken): this many are read.
SEATED_EVENTS = 4
PAGE = 50


class FormerPlayer:
    def __init__(self, log: GameLog):
        self.log = log

    def game_ids(self, player_id: str) -> list[tuple[str, Color]]:
        """Every game the player holds a seat in, with the seat: the seats' indexes, page by page."""
        found: list[tuple[str, Color]] = []
        for status in ("active", "finished"):
            low, high = order_range(status)
            for color in COLORS:
                after: tuple[int, str] | None = None
                while True:
                    listed, more = self.log.store.games_of_player(player_id, color, low, high, after, PAGE)
                    found += [(item.head.id, color) for item in listed]
                    if not more or not listed:
                        break
                    after = (listed[-1].order, listed[-1].head.id)
        return found

    def forget(self, player_id: str) -> int:
        """Make the player "a former player" in each of their games; how many games."""
        games = self.game_ids(player_id)
        for game_id, color in games:
            self._forget_seat(game_id, color, player_id)
        return len(games)

    def _forget_seat(self, game_id: str, color: Color, player_id: str) -> None:
        def end(head: GameHead) -> AnyEvent | None:
            if not _holds(head, color, player_id) or head.state == "finished":
                return None
            return Resigned(by=color) if head.state == "active" else Aborted(by=color)

        def forget(head: GameHead) -> AnyEvent | None:
            return SeatForgotten(by=color) if _holds(head, color, player_id) else None

        self.log.act(game_id, end)
        self.log.act(game_id, forget)
        former = Seat(FORMER_PLAYER, None, None)
        for seq in range(1, SEATED_EVENTS + 1):
            event = self.log.store.get_event(game_id, seq)
            rewritten = _without(event, color, player_id, former) if event is not None else None
            if rewritten is not None:
                self.log.store.rewrite_event(game_id, rewritten)

    def forget_seek(self, seek_id: str, player_id: str) -> None:
        """A lobby challenge of the player's: withdrawn if still open, then its seeker forgotten (head and log)."""

        def withdraw(head: GameHead) -> AnyEvent | None:
            open_seek = head.seek is not None and head.seek.state == "open"
            return SeekWithdrawn() if open_seek and head.seek.seeker.player_id == player_id else None  # type: ignore[union-attr]

        def forget(head: GameHead) -> AnyEvent | None:
            mine = head.seek is not None and head.seek.seeker.player_id == player_id
            return SeatForgotten(by=None) if mine else None

        self.log.act(seek_id, withdraw)
        self.log.act(seek_id, forget)
        first = self.log.store.get_event(seek_id, 1)
        if isinstance(first, Created) and first.seek is not None and first.seek.seeker.player_id == player_id:
            seek = replace(first.seek, seeker=Seat(FORMER_PLAYER, None, None))
            self.log.store.rewrite_event(seek_id, replace(first, seek=seek))


def _holds(head: GameHead, color: Color, player_id: str) -> bool:
    seat = head.seat(color)
    return seat is not None and seat.player_id == player_id


def _without(event: AnyEvent, color: Color, player_id: str, former: Seat) -> AnyEvent | None:
    """``event`` with the player's seat forgotten, or None when it holds none of theirs."""
    if isinstance(event, Created):
        seat = event.white if color == "white" else event.black
        if seat is None or seat.player_id != player_id:
            return None
        return replace(event, white=former) if color == "white" else replace(event, black=former)
    if isinstance(event, (Joined, SeekAccepted)) and event.seat.player_id == player_id:
        return replace(event, seat=former)
    return None
