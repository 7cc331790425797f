"""A new tournament's terms as its maker asks for them (``NewTournament``), and their check (``sizes``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tournaments.domain.cup import CUP_GROUPS, GROUP_MAX, GROUP_MIN
from tournaments.domain.values import (
    ARENA_MAX,
    ARENA_MINUTES_MAX,
    ARENA_MINUTES_MIN,
    LEAGUE_MAX,
    LEAGUE_MIN,
    ArenaNeedsLiveTable,
    Format,
    InvalidArenaLength,
    InvalidCupSize,
    InvalidLeagueSize,
    StartsInPast,
)


@dataclass(frozen=True)
class NewTournament:
    format: Format
    game: str
    rated: bool = True
    options: Mapping[str, Any] | None = None
    name: str | None = None
    public: bool = False
    players: int | None = None  # a league's size (3-8)
    starts: int | None = None  # epoch ms
    minutes: int | None = None  # an arena's length
    min_players: int | None = None  # a league's fewest to start with at its start time (default 3)
    club: str | None = None  # for this club's members only (the maker must be one)
    groups: int | None = None  # groups then knockout: 2, 4 or 8 groups (``players`` is then each group's size)


def sizes(new: NewTournament, complete: Mapping[str, Any]) -> tuple[int, int, int | None]:
    """(most players, fewest to start, an arena's minutes) of a new tournament, or the refusal of its terms."""
    if new.format is Format.LEAGUE:
        size = new.players if new.players is not None else LEAGUE_MAX
        if not LEAGUE_MIN <= size <= LEAGUE_MAX:
            raise InvalidLeagueSize(f"a league has {LEAGUE_MIN} to {LEAGUE_MAX} players, not {size}")
        minimum, minutes = max(LEAGUE_MIN, min(new.min_players or LEAGUE_MIN, size)), None
    elif new.format is Format.CUP:
        groups, per_group = new.groups or 0, new.players or GROUP_MAX
        if groups not in CUP_GROUPS or not GROUP_MIN <= per_group <= GROUP_MAX:
            raise InvalidCupSize(f"groups then knockout: 2, 4 or 8 groups of {GROUP_MIN} to {GROUP_MAX} players")
        size, minimum, minutes = groups * per_group, groups * GROUP_MIN, None
    else:
        if not complete.get("turn_seconds"):
            raise ArenaNeedsLiveTable("an arena is played at live tables: set turn_seconds (30 or 60)")
        if new.starts is None:
            raise StartsInPast("an arena needs a start time")
        if new.minutes is None or not ARENA_MINUTES_MIN <= new.minutes <= ARENA_MINUTES_MAX:
            raise InvalidArenaLength(f"an arena lasts {ARENA_MINUTES_MIN} to {ARENA_MINUTES_MAX} minutes")
        size, minimum, minutes = ARENA_MAX, 2, new.minutes
    return size, minimum, minutes
