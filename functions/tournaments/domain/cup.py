"""Groups then knockout (the Tanzanian championship's format): leagues of 4 to 6 (each pair twice, colours
reversed, scored as a league), then the top two of each group into a knockout bracket.

* **Groups.** The seeding order is dealt round the groups (player ``i`` to group ``i mod G``); each group's
  games are numbered one after another across the groups, so the group stage's games are made, ided and
  scored exactly as a league's (``Tournament.pairings``).
* **Bracket.** With the groups A, B, C, D: A1-B2 and C1-D2 in the top half, B1-A2 and D1-C2 in the bottom
  half, so two players of one group can meet only in the final. Winners meet the winners of the match beside
  theirs, round by round.
* **A match** is two games, colours reversed (the group winner White first), told like football ("2-0",
  "1½-½"). Level after both ("1-1"), one deciding live game settles it (colours by lot, drawn the same by
  every reader: seeded by the tournament and the match); a drawn decider goes to the better group record
  (points a game, then Sonneborn-Berger, then wins), and a lot when even those are equal.
* **Round deadlines.** A knockout round's clock starts when its last player becomes known (the last group
  game's end for the first round, the previous round's last deciding game for the next) and runs
  ``round_ms(options)``: ten times the days per move by correspondence, two hours at live tables. A leg still
  going on after it is lost on time by the side to move (``Cup.overdue``, ended through the games' own claim
  on time by the service); a decider is a live game with its own clock and no deadline.

Everything here is pure: the bracket is a function of the order, the number of groups and the results, so it
is computed on read like a league's standings; only which games have been made is stored (``made``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from tournaments.domain.league import LeagueTable, Pairing, Scored, double_round_robin, league_table, score_pairing
from tournaments.domain.values import GameResult, half_points_text

GROUP_MIN, GROUP_MAX = 4, 6
CUP_GROUPS = (2, 4, 8)  # the top two of each make a bracket of 4, 8 or 16
DECIDER_OPTIONS = {"turn_seconds": 60}  # a tie is settled at a live table
ROUND_MOVES = 10  # a correspondence knockout round lasts ten moves at the days per move
DEFAULT_DAYS_PER_MOVE = 3  # the games' default (games.domain.options)
LIVE_ROUND_MS = 2 * 3_600_000
DAY_MS = 86_400_000


def round_ms(options: Mapping[str, object]) -> int:
    """How long a knockout round lasts from its last player known: ten days per move, or two hours live."""
    if options.get("turn_seconds"):
        return LIVE_ROUND_MS
    days = options.get("days_per_move")
    return ROUND_MOVES * (days if isinstance(days, int) else DEFAULT_DAYS_PER_MOVE) * DAY_MS


def groups_of(order: Sequence[str], groups: int) -> list[tuple[str, ...]]:
    return [tuple(order[index::groups]) for index in range(groups)]


def group_pairings(order: Sequence[str], groups: int) -> list[tuple[int, Pairing]]:
    """(group, pairing) of every group game, numbered one after another across the groups."""
    numbered: list[tuple[int, Pairing]] = []
    for group, players in enumerate(groups_of(order, groups)):
        for pairing in double_round_robin(players):
            numbered.append((group, Pairing(len(numbered), pairing.round, pairing.white, pairing.black)))
    return numbered


@dataclass(frozen=True)
class CupGame:
    """A knockout game to be made: its key (``k<round>.<match>.<leg>``, or ``.d`` for a decider), its seats,
    and whether it is the decider (played at a live table)."""

    key: str
    white: str
    black: str
    decider: bool = False


@dataclass(frozen=True)
class Match:
    round: int
    index: int
    one: str | None  # the better-placed entrant (White in the first game), None until known
    other: str | None
    legs: tuple[Scored, ...] = ()
    decider: Scored | None = None
    winner: str | None = None
    by_group_record: bool = False
    deadline: int | None = None  # epoch ms: its round's deadline, once every player of the round is known

    @property
    def score(self) -> str:
        """The two games told like football, ``one``'s side first ("2-0", "1½-½", "1-1"); "-" before any."""
        counted = [leg for leg in self.legs if leg.counted]
        if not counted or self.one is None:
            return "-"
        mine = sum(leg.score_of(self.one) or 0 for leg in counted)
        theirs = sum((leg.score_of(self.other) or 0) for leg in counted if self.other is not None)
        return f"{half_points_text(mine)}-{half_points_text(theirs)}"

    @property
    def decider_score(self) -> str | None:
        if self.decider is None or not self.decider.counted or self.one is None:
            return None
        mine, theirs = self.decider.score_of(self.one) or 0, self.decider.score_of(self.other or "") or 0
        return f"{half_points_text(mine)}-{half_points_text(theirs)}"


@dataclass(frozen=True)
class Cup:
    groups: list[LeagueTable]
    rounds: list[list[Match]]
    due: list[CupGame]  # knockout games whose players are known and that are not over

    @property
    def finished(self) -> bool:
        return bool(self.rounds) and self.rounds[-1][0].winner is not None

    @property
    def winners(self) -> list[str]:
        final = self.rounds[-1][0] if self.rounds else None
        return [final.winner] if final is not None and final.winner is not None else []

    def overdue(self, now: int) -> list[str]:
        """The keys of the knockout legs still going on after their round's deadline (each to be lost on time
        by the side to move)."""
        return [
            f"k{match.round}.{match.index}.{leg}"
            for matches in self.rounds
            for match in matches
            if match.deadline is not None and now >= match.deadline and match.winner is None
            for leg, scored in zip(("0", "1"), match.legs, strict=False)
            if not scored.counted
        ]


def cup(
    seed: str,
    order: Sequence[str],
    groups: int,
    results: Mapping[str, GameResult],
    game_id: Mapping[str, str],
    voluntary: Mapping[str, int] | None = None,
    round_length: int | None = None,
) -> Cup:
    """The groups' tables and the bracket. ``game_id`` maps a group game's number (as text) or a knockout key to
    its game's id; ``seed`` (the tournament's id) draws the lots; ``round_length`` (ms) sets each knockout
    round's deadline (none without it)."""
    numbered = group_pairings(order, groups)
    tables = []
    for group, players in enumerate(groups_of(order, groups)):
        mine = [pairing for g, pairing in numbered if g == group]
        ids = {pairing.number: game_id[str(pairing.number)] for pairing in mine}
        tables.append(league_table(players, mine, results, ids, voluntary))
    size = 2 * groups
    rounds: list[list[Match]] = []
    due: list[CupGame] = []
    groups_over = all(table.finished for table in tables)
    entrants = _seeds(tables) if groups_over else [None] * size
    group_ids = [game_id[str(pairing.number)] for _group, pairing in numbered]
    known_at = _ended_at(group_ids, results, 0) if groups_over else None
    round_number = 0
    record = _records(tables)
    while len(entrants) >= 2:
        deadline = known_at + round_length if known_at is not None and round_length else None
        matches = []
        for index in range(len(entrants) // 2):
            one, other = entrants[2 * index], entrants[2 * index + 1]
            match = _match(seed, round_number, index, one, other, results, game_id, record, voluntary or {})
            match = replace(match, deadline=deadline)
            due += _due(match, seed)
            matches.append(match)
        rounds.append(matches)
        entrants = [match.winner for match in matches]
        if known_at is not None and None not in entrants:
            keys = [f"k{round_number}.{m.index}.{leg}" for m in matches for leg in ("0", "1", "d")]
            known_at = _ended_at([game_id[key] for key in keys], results, known_at)
        else:
            known_at = None
        round_number += 1
    return Cup(tables, rounds, due)


def _ended_at(ids: Sequence[str], results: Mapping[str, GameResult], since: int) -> int:
    """When the last of these games ended (``since`` when none did: all decided otherwise)."""
    return max([since, *(results[game].at for game in ids if game in results)])


def knockout_keys(groups: int) -> list[str]:
    """Every key a knockout game of a cup of ``groups`` groups can have (two legs and a decider a match)."""
    keys = []
    matches, round_number = groups, 0
    while matches >= 1:
        keys += [f"k{round_number}.{index}.{leg}" for index in range(matches) for leg in ("0", "1", "d")]
        matches //= 2
        round_number += 1
    return keys


def _seeds(tables: Sequence[LeagueTable]) -> list[str | None]:
    """The bracket's first round, in match order: A1-B2, C1-D2, ... (top half), then B1-A2, D1-C2, ..."""
    top = [(table.standings[0].player, table.standings[1].player) for table in tables]
    first: list[str | None] = []
    second: list[str | None] = []
    for index in range(0, len(top), 2):
        (a1, a2), (b1, b2) = top[index], top[index + 1]
        first += [a1, b2]
        second += [b1, a2]
    return first + second


def _records(tables: Sequence[LeagueTable]) -> dict[str, tuple[Fraction, int, int]]:
    """Each player's group record, comparable across groups of different sizes: points a game, then
    Sonneborn-Berger a game, then wins."""
    found = {}
    for table in tables:
        for standing in table.standings:
            played = max(standing.played, 1)
            found[standing.player] = (
                Fraction(standing.points, played),
                standing.sonneborn_berger,
                standing.wins,
            )
    return found


def _match(
    seed: str,
    round_number: int,
    index: int,
    one: str | None,
    other: str | None,
    results: Mapping[str, GameResult],
    game_id: Mapping[str, str],
    record: Mapping[str, tuple[Fraction, int, int]],
    withdrawn: Mapping[str, int],
) -> Match:
    if one is None or other is None:
        return Match(round_number, index, one, other)
    key = f"k{round_number}.{index}"
    legs = tuple(
        score_pairing(Pairing(-1, round_number, white, black), results.get(game_id[f"{key}.{leg}"]), withdrawn)
        for leg, (white, black) in (("0", (one, other)), ("1", (other, one)))
    )
    match = Match(round_number, index, one, other, legs)
    if not all(leg.counted for leg in legs):
        return match
    mine = sum(leg.score_of(one) or 0 for leg in legs)
    theirs = sum(leg.score_of(other) or 0 for leg in legs)
    if mine != theirs:
        return Match(round_number, index, one, other, legs, winner=one if mine > theirs else other)
    white, black = _decider_colours(seed, key, one, other)
    decider = score_pairing(Pairing(-1, round_number, white, black), results.get(game_id[f"{key}.d"]), withdrawn)
    if not decider.counted:
        return Match(round_number, index, one, other, legs, decider)
    if decider.white != decider.black:
        winner = white if (decider.white or 0) > (decider.black or 0) else black
        return Match(round_number, index, one, other, legs, decider, winner)
    better = _better_record(seed, key, one, other, record)  # drawn (or void): the better group record goes on
    return Match(round_number, index, one, other, legs, decider, better, by_group_record=True)


def _decider_colours(seed: str, key: str, one: str, other: str) -> tuple[str, str]:
    """White and Black of the deciding game, by lot (the same lot for every reader)."""
    return (one, other) if random.Random(f"{seed}#{key}#colours").random() < 0.5 else (other, one)


def _better_record(seed: str, key: str, one: str, other: str, record: Mapping[str, tuple[Fraction, int, int]]) -> str:
    if record[one] != record[other]:
        return one if record[one] > record[other] else other
    return one if random.Random(f"{seed}#{key}#record").random() < 0.5 else other


def _due(match: Match, seed: str) -> list[CupGame]:
    """The match's games that can be made now: both legs once its players are known, the decider once they
    are level after both."""
    if match.one is None or match.other is None:
        return []
    key = f"k{match.round}.{match.index}"
    games = [CupGame(f"{key}.0", match.one, match.other), CupGame(f"{key}.1", match.other, match.one)]
    legs_over = all(leg.counted for leg in match.legs)
    if legs_over and (match.winner is None or match.decider is not None):
        white, black = _decider_colours(seed, key, match.one, match.other)
        games.append(CupGame(f"{key}.d", white, black, decider=True))
    return games
