"""A league (ligi): every pair plays twice, colours reversed; win 1, draw ½; tie-breaks Sonneborn-Berger, then
the tied players' games among themselves, then wins.

Two tournament rules apply on top of the games' results:

* **The computer stood in.** A game in which the computer made more than half of a player's moves scores 0
  for that player (the opponent keeps what the board gave them).
* **Withdrawal.** A player who loses two games on time is withdrawn when the second ends (ICCF's rule,
  adapted); so is one who withdraws themselves. Every game of theirs not finished by then is scored as a
  loss for them and a win for the opponent (nothing for either when both had withdrawn), whatever the board
  says later. Games finished before stand.

Everything here is pure: the standings are a function of the players, the pairings, the results and the
voluntary withdrawals, so they are computed on read and never stored (docs/tournaments.md).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tournaments.domain.values import LOSS, WIN, GameResult, base_score, half_points_text


@dataclass(frozen=True)
class Pairing:
    """One game of the league: its number (0-based, stable: the game's id is made from it), its round, seats."""

    number: int
    round: int
    white: str
    black: str


def double_round_robin(players: Sequence[str]) -> list[Pairing]:
    """Every pair twice, the second cycle with the colours of the first reversed (circle method).

    With an odd number of players one rests each round. Each player has as many Whites as Blacks.
    """
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")
    seats: list[str | None] = list(players) + ([None] if len(players) % 2 else [])
    size = len(seats)
    first_cycle: list[tuple[int, str, str]] = []
    for round_number in range(size - 1):
        for board in range(size // 2):
            home, away = seats[board], seats[size - 1 - board]
            if home is None or away is None:
                continue
            # the fixed seat alternates colours round by round; the others by board, for a balanced cycle
            swap = round_number % 2 == 1 if board == 0 else board % 2 == 1
            white, black = (away, home) if swap else (home, away)
            first_cycle.append((round_number, white, black))
        seats = [seats[0], seats[-1], *seats[1:-1]]  # rotate all but the first
    rounds = size - 1
    games = first_cycle + [(round_number + rounds, black, white) for round_number, white, black in first_cycle]
    return [Pairing(number, round_number, white, black) for number, (round_number, white, black) in enumerate(games)]


@dataclass(frozen=True)
class Scored:
    """One pairing as the league counts it: each side's half points, or ``None`` while it is still open."""

    pairing: Pairing
    white: int | None
    black: int | None
    forfeit: bool = False

    @property
    def counted(self) -> bool:
        return self.white is not None and self.black is not None

    def score_of(self, player: str) -> int | None:
        return self.white if player == self.pairing.white else self.black


def withdrawals(results: Sequence[GameResult], voluntary: Mapping[str, int] | None = None) -> dict[str, int]:
    """When each withdrawn player was withdrawn (epoch ms): their second loss on time, or their own withdrawal,
    whichever came first."""
    withdrawn = dict(voluntary or {})
    losses: dict[str, list[int]] = defaultdict(list)
    for result in results:
        if result.on_time and result.winner is not None:
            loser = result.black if result.winner == "white" else result.white
            losses[loser].append(result.at)
    for player, times in losses.items():
        if len(times) >= 2:
            second = sorted(times)[1]
            withdrawn[player] = min(second, withdrawn.get(player, second))
    return withdrawn


def score_pairing(pairing: Pairing, result: GameResult | None, withdrawn: Mapping[str, int]) -> Scored:
    """What the pairing counts for, with both tournament rules applied (module docstring)."""
    gone = {
        player
        for player in (pairing.white, pairing.black)
        if player in withdrawn and (result is None or result.at > withdrawn[player])
    }
    if gone:
        white = LOSS if pairing.white in gone else WIN
        black = LOSS if pairing.black in gone else WIN
        return Scored(pairing, white, black, forfeit=True)
    if result is None:
        return Scored(pairing, None, None)
    scores = [
        LOSS if result.computer_stood_in_for(player) else base_score(result, player)
        for player in (pairing.white, pairing.black)
    ]
    return Scored(pairing, scores[0], scores[1])


@dataclass(frozen=True)
class Standing:
    player: str
    rank: int
    points: int  # half points
    played: int
    wins: int
    draws: int
    losses: int
    sonneborn_berger: int  # quarter points: opponent's half points x own half points, summed
    head_to_head: int  # half points against the players tied with this one on points and Sonneborn-Berger
    withdrawn: bool


@dataclass(frozen=True)
class LeagueTable:
    standings: list[Standing]
    scored: list[Scored]
    finished: bool

    def match_score(self, one: str, other: str) -> str:
        """The pairing's result told like football, ``one``'s side first: ``"2-0"``, ``"1½-½"``; ``"-"`` before
        any of their games is counted."""
        mine = theirs = 0
        counted = False
        for item in self.scored:
            if {item.pairing.white, item.pairing.black} == {one, other} and item.counted:
                counted = True
                mine += item.score_of(one) or 0
                theirs += item.score_of(other) or 0
        return f"{half_points_text(mine)}-{half_points_text(theirs)}" if counted else "-"

    @property
    def winners(self) -> list[str]:
        return [standing.player for standing in self.standings if standing.rank == 1] if self.finished else []


def league_table(
    players: Sequence[str],
    pairings: Sequence[Pairing],
    results: Mapping[str, GameResult],
    game_ids: Mapping[int, str],
    voluntary: Mapping[str, int] | None = None,
) -> LeagueTable:
    """The standings: ``results`` by game id, ``game_ids`` the game id of each pairing number."""
    ours = set(game_ids.values())
    ended = [result for result in results.values() if result.game_id in ours]
    withdrawn = withdrawals(ended, voluntary)
    scored = [score_pairing(pairing, results.get(game_ids.get(pairing.number, "")), withdrawn) for pairing in pairings]
    points: dict[str, int] = dict.fromkeys(players, 0)
    tally: dict[str, list[int]] = {player: [0, 0, 0] for player in players}  # wins, draws, losses
    for item in scored:
        for player in (item.pairing.white, item.pairing.black):
            score = item.score_of(player)
            if score is None:
                continue
            points[player] += score
            tally[player][0 if score == WIN else 1 if score else 2] += 1
    sonneborn_berger = dict.fromkeys(players, 0)
    for item in scored:
        if item.counted:
            for player in (item.pairing.white, item.pairing.black):
                opponent = item.pairing.black if player == item.pairing.white else item.pairing.white
                sonneborn_berger[player] += (item.score_of(player) or 0) * points[opponent]
    head_to_head = _head_to_head(players, scored, points, sonneborn_berger)

    def key(player: str) -> tuple[int, int, int, int]:
        return (points[player], sonneborn_berger[player], head_to_head[player], tally[player][0])

    ordered = sorted(players, key=lambda player: key(player), reverse=True)
    standings = [
        Standing(
            player=player,
            rank=1 + sum(1 for other in players if key(other) > key(player)),
            points=points[player],
            played=sum(tally[player]),
            wins=tally[player][0],
            draws=tally[player][1],
            losses=tally[player][2],
            sonneborn_berger=sonneborn_berger[player],
            head_to_head=head_to_head[player],
            withdrawn=player in withdrawn,
        )
        for player in ordered
    ]
    return LeagueTable(standings, scored, finished=all(item.counted for item in scored))


def _head_to_head(
    players: Sequence[str], scored: Sequence[Scored], points: Mapping[str, int], sonneborn_berger: Mapping[str, int]
) -> dict[str, int]:
    groups: dict[tuple[int, int], set[str]] = defaultdict(set)
    for player in players:
        groups[(points[player], sonneborn_berger[player])].add(player)
    found = dict.fromkeys(players, 0)
    for group in groups.values():
        if len(group) < 2:
            continue
        for item in scored:
            if item.counted and item.pairing.white in group and item.pairing.black in group:
                found[item.pairing.white] += item.white or 0
                found[item.pairing.black] += item.black or 0
    return found
