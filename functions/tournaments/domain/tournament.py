"""A tournament as stored and read: its terms, its entries, its games, its state; and the view of its standings.

A league's pairings are not stored: they follow from the order of its players (``order``, fixed when it
starts) by ``double_round_robin``; its games' ids from the tournament's id and the pairing's number
(``game_id_for``), so starting a league twice makes the same games once.
"""

from __future__ import annotations

import base64
import hashlib
import random
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from tournaments.domain.cup import Cup, cup, group_pairings, knockout_keys, round_ms
from tournaments.domain.league import LeagueTable, Pairing, double_round_robin, league_table
from tournaments.domain.values import Format, GameResult, State

GAME_ID_CHARS = 12  # the games function's ids: 12 characters of base64url


@dataclass(frozen=True)
class Entry:
    """A player in a tournament: their id, name, the SHA-256 of their token (to seat them in its games, never
    shown) and when they joined (epoch ms)."""

    player_id: str
    name: str | None
    key: str  # hex
    joined: int


@dataclass(frozen=True)
class Tournament:
    id: str
    format: Format
    game: str
    rated: bool
    options: Mapping[str, Any]  # the games' site and rules options (days_per_move or turn_seconds ...)
    name: str | None
    public: bool
    created_by: str
    created: int
    max_players: int
    min_players: int
    starts: int | None  # epoch ms: an arena's start; a league's latest start (then with min_players), or None
    minutes: int | None  # an arena's length
    state: State = State.OPEN
    invite_hash: str | None = None  # hex SHA-256 of the invite code of a private tournament
    entries: Mapping[str, Entry] = field(default_factory=dict)
    order: tuple[str, ...] = ()  # a league's players in their seeding order, fixed when it starts
    withdrawn: Mapping[str, int] = field(default_factory=dict)  # voluntary withdrawals (epoch ms)
    started: int | None = None
    finished: int | None = None
    games_made: bool = False  # a running league's games are all made (the start's last step)
    club_id: str | None = None  # for this club's members only (common.clubs), joined without an invite
    groups: int = 0  # groups then knockout: the number of groups (0 for any other format)
    made: frozenset[str] = frozenset()  # groups then knockout: the keys of the knockout games made so far

    @property
    def players(self) -> list[Entry]:
        """Entries in the order they joined."""
        return sorted(self.entries.values(), key=lambda entry: (entry.joined, entry.player_id))

    @property
    def full(self) -> bool:
        return len(self.entries) >= self.max_players

    def startable(self, now_ms: int) -> bool:
        """A league still open that can start now: full, or at its start time with enough players."""
        if self.format is Format.ARENA or self.state is not State.OPEN:
            return False
        due = self.starts is not None and now_ms >= self.starts
        return self.full or (due and len(self.entries) >= self.min_players)

    def seeded(self) -> tuple[str, ...]:
        """The players in a drawn order (seeded by the id, so every starter draws the same one)."""
        players = sorted(self.entries)
        random.Random(self.id).shuffle(players)
        return tuple(players)

    def pairings(self) -> list[Pairing]:
        """A league's games, or a cup's group games (numbered one after another across the groups)."""
        if not self.order:
            return []
        if self.format is Format.CUP:
            return [pairing for _group, pairing in group_pairings(self.order, self.groups)]
        return double_round_robin(self.order)

    def game_ids(self) -> dict[int, str]:
        return {pairing.number: game_id_for(self.id, pairing.number) for pairing in self.pairings()}

    def cup(self, results: Mapping[str, GameResult]) -> Cup:
        """Groups then knockout: the groups' tables and the bracket (``domain.cup``)."""
        ids = {str(number): game_id for number, game_id in self.game_ids().items()}
        ids.update({key: game_id_for(self.id, key) for key in knockout_keys(self.groups)})
        return cup(self.id, self.order, self.groups, results, ids, self.withdrawn, round_ms(self.options))

    def finished_by(self, results: Mapping[str, GameResult]) -> bool:
        """Every game counted (a league) or the final decided (a cup)."""
        if self.format is Format.CUP:
            return self.cup(results).finished
        return self.table(results).finished

    def table(self, results: Mapping[str, GameResult]) -> LeagueTable:
        return league_table(self.order, self.pairings(), results, self.game_ids(), self.withdrawn)

    def with_state(self, state: State, **changes: Any) -> Tournament:
        return replace(self, state=state, **changes)


def game_id_for(tournament_id: str, number: int | str) -> str:
    """The id of a league's game ``number`` (or a knockout game's key): the same for every request that
    makes it."""
    digest = hashlib.sha256(f"tournament#{tournament_id}#{number}".encode()).digest()
    return base64.urlsafe_b64encode(digest).decode("ascii")[:GAME_ID_CHARS]
