"""What a player's history shows of a game (``Listing``, one per seated player), the filters a page may ask
for, and the page's opaque cursor. Pure: the repository stores listings, the service pages them."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from games.domain import COLORS, Color, GameHead, other
from games.domain.errors import InvalidCursor
from games.views import decode_cursor, encode_cursor

Outcome = Literal["win", "loss", "draw", "ongoing", "aborted"]
Kind = Literal["rated", "casual", "computer", "live", "correspondence", "tournament"]
OUTCOMES: tuple[Outcome, ...] = ("win", "loss", "draw", "ongoing", "aborted")
KINDS: tuple[Kind, ...] = ("rated", "casual", "computer", "live", "correspondence", "tournament")

#: What a kind filter asks of a listing: one of its yes-or-no attributes, and the value.
KIND_FLAGS: Mapping[str, tuple[str, bool]] = {
    "rated": ("rated", True),
    "casual": ("rated", False),
    "computer": ("computer", True),
    "live": ("live", True),
    "correspondence": ("live", False),
    "tournament": ("tournament", True),
}
#: 1: the first layout; 2 adds ``name`` (a listing without it reads as unnamed).
LISTING_VERSION = 2
#: Listings a page's one Query reads at most, whatever the filters let through: a page's cost is bounded and a
#: filter that matches little gives a short (even empty) page whose cursor goes on.
EVALUATED = 100
_ABSENT: Mapping[type, Any] = {bool: False, str: None}  # what a listing without the attribute compares as
#: Listings a profile reads: its results and its recent games are of the player's newest public games.
PROFILE_READ = 100
RECENT_SHOWN = 10
_KEY = re.compile(r"\d{13}#[A-Za-z0-9_-]{1,32}")


@dataclass(frozen=True)
class Listing:
    """One player's row of one game. ``key`` sorts the player's games newest first (by creation)."""

    player_id: str
    game_id: str
    color: Color
    name: str | None  # the player's own name in this game (a profile shows the newest)
    game: str
    created: int
    opponent: str | None  # the opponent's player id (None: the computer, or nobody yet)
    opponent_name: str | None
    opponent_cpu: int | None
    outcome: Outcome
    reason: str | None
    rating_change: int | None
    rated: bool
    computer: bool
    live: bool
    tournament: bool
    private: bool

    @property
    def key(self) -> str:
        return listing_key(self.created, self.game_id)

    def record(self, seq: int) -> dict[str, Any]:
        return {
            "lister": self.player_id,
            "listed": self.key,
            "name": self.name,
            "game_id": self.game_id,
            "color": self.color,
            "game": self.game,
            "created": self.created,
            "opponent": self.opponent,
            "opponent_name": self.opponent_name,
            "opponent_cpu": self.opponent_cpu,
            "outcome": self.outcome,
            "reason": self.reason,
            "rating_change": self.rating_change,
            "rated": self.rated,
            "computer": self.computer,
            "live": self.live,
            "tournament": self.tournament,
            "private": self.private,
            "seq": seq,
            "schema_version": LISTING_VERSION,
        }

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Listing:
        def optional_int(name: str) -> int | None:
            value = record.get(name)
            return int(value) if value is not None else None

        return cls(
            player_id=str(record["lister"]),
            game_id=str(record["game_id"]),
            color=record["color"],
            name=record.get("name"),
            game=str(record["game"]),
            created=int(record["created"]),
            opponent=record.get("opponent"),
            opponent_name=record.get("opponent_name"),
            opponent_cpu=optional_int("opponent_cpu"),
            outcome=record["outcome"],
            reason=record.get("reason"),
            rating_change=optional_int("rating_change"),
            rated=bool(record.get("rated", False)),
            computer=bool(record.get("computer", False)),
            live=bool(record.get("live", False)),
            tournament=bool(record.get("tournament", False)),
            private=bool(record.get("private", False)),
        )


def listing_key(created: int, game_id: str) -> str:
    return f"{created:013d}#{game_id}"


def is_private(head: GameHead) -> bool:
    """A game its creator made private (a friend's game): never listed or shown to anyone but its players.
    A challenge of the lobby is public whatever its options say."""
    return bool(head.options.get("private", False)) and head.seek is None


def outcome_for(head: GameHead, color: Color) -> Outcome:
    if head.state != "finished" or head.result == "ongoing":
        return "ongoing"
    if head.result in ("draw", "aborted"):  # an aborted game (fair play: too short to count) has no winner
        return "draw" if head.result == "draw" else "aborted"
    return "win" if head.result == color else "loss"


def listings_of(head: GameHead | None) -> tuple[Listing, ...]:
    """The listings of a game: one for each seat a player holds (a seek's head has none until it is taken)."""
    if head is None:
        return ()
    found = []
    for color in COLORS:
        seat, facing = head.seat(color), head.seat(other(color))
        if seat is None or seat.player_id is None:
            continue
        change = head.rating_change.shown()[color] if head.rating_change is not None else None
        found.append(
            Listing(
                player_id=seat.player_id,
                game_id=head.id,
                color=color,
                name=seat.name,
                game=head.game,
                created=head.created,
                opponent=facing.player_id if facing else None,
                opponent_name=facing.name if facing else None,
                opponent_cpu=facing.cpu if facing and facing.player_id is None else None,
                outcome=outcome_for(head, color),
                reason=head.reason if head.state == "finished" else None,
                rating_change=change,
                rated=head.rated,
                computer=bool(facing and facing.player_id is None and facing.cpu),
                live=head.turn_seconds is not None,
                tournament=bool(head.options.get("tournament", False)),
                private=is_private(head),
            )
        )
    return tuple(found)


@dataclass(frozen=True)
class HistoryFilter:
    """What a page asks for; ``public_only`` for anyone but the player (private games never shown)."""

    game: str | None = None
    result: Outcome | None = None
    kind: Kind | None = None
    opponent: str | None = None
    public_only: bool = False

    def conditions(self) -> list[tuple[str, Any]]:
        """(attribute, value) pairs a listing must equal, in one order for every store."""
        found: list[tuple[str, Any]] = []
        if self.game is not None:
            found.append(("game", self.game))
        if self.result is not None:
            found.append(("outcome", self.result))
        if self.kind is not None:
            found.append(KIND_FLAGS[self.kind])
        if self.opponent is not None:
            found.append(("opponent", self.opponent))
        if self.public_only:
            found.append(("private", False))
        return found

    def admits(self, record: Mapping[str, Any]) -> bool:
        return all(record.get(name, _ABSENT[type(value)]) == value for name, value in self.conditions())


def write_history_cursor(key: str) -> str:
    return encode_cursor({"h": key})


def read_history_cursor(cursor: str | None) -> str | None:
    """The key a page resumes below; ``InvalidCursor`` for text this API never gave."""
    if not cursor:
        return None
    problem = InvalidCursor("the cursor is not one this API gave for this list; start again without it")
    data = decode_cursor(cursor, problem)
    key = data.get("h") if isinstance(data, dict) else None
    if not isinstance(key, str) or not _KEY.fullmatch(key):
        raise problem
    return key
