"""Requests and responses of the tournaments' routes (also their OpenAPI description)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Literal

from common.clubs.domain import ID_PATTERN as CLUB_ID
from games.models import MAX_OPTIONS, OptionName, OptionValue
from pydantic import BaseModel, ConfigDict, Field, field_validator

from tournaments.arena_service import PRESENT_MS, sheets_of
from tournaments.domain import (
    Format,
    GameResult,
    LeagueTable,
    Match,
    NewTournament,
    State,
    Tournament,
    arena_ranking,
    game_id_for,
)
from tournaments.repository.arenas import ArenaSeat
from tournaments.service import arena_end

FormatName = Literal["league", "arena", "cup"]
StateName = Literal["open", "running", "finished"]


class TournamentRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    format: FormatName = Field(
        description="`league` (3-8 players, each pair twice), `arena` (live tables) or `cup` (groups then knockout)."
    )
    game: str = Field(max_length=20, description="chess, english or tanzanian (422 `unknown_game` otherwise).")
    rated: bool = Field(default=True, description="Rated games (the default) or casual ones.")
    options: dict[OptionName, OptionValue] = Field(
        default_factory=dict,
        max_length=MAX_OPTIONS,
        description="The games' table options as `POST /v1/games` takes them (`days_per_move`, `turn_seconds` ...).",
    )
    name: str | None = Field(default=None, min_length=1, max_length=60, description="A name to show.")
    public: bool = Field(default=False, description="Listed for everyone; else joined by its invite code only.")
    players: int | None = Field(
        default=None, description="A league's size: 3 to 8 (default 8); a cup's players a group: 4 to 6 (default 6)."
    )
    groups: int | None = Field(default=None, description="A cup's groups: 2, 4 or 8 (the top two of each go on).")
    starts: str | None = Field(
        default=None,
        max_length=40,
        description="ISO 8601 UTC (`2026-12-06T17:00:00Z`): an arena's start; a league's latest start (it "
        "starts then with 3 players or more, or as soon as it is full).",
    )
    minutes: int | None = Field(default=None, description="An arena's length: 20 to 120 minutes.")
    club: str | None = Field(
        default=None, pattern=CLUB_ID, description="For this club's members only (you must be one); no invite code."
    )

    @field_validator("starts")
    @classmethod
    def _when(cls, value: str | None) -> str | None:
        if value is not None:
            parse_time(value)
        return value

    def new(self) -> NewTournament:
        return NewTournament(
            format=Format(self.format),
            game=self.game,
            rated=self.rated,
            options=dict(self.options),
            name=self.name,
            public=self.public,
            players=self.players,
            starts=None if self.starts is None else parse_time(self.starts),
            minutes=self.minutes,
            club=self.club,
            groups=self.groups,
        )


def parse_time(text: str) -> int:
    """Epoch ms of an ISO 8601 time with a zone (``Z`` or an offset)."""
    try:
        when = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise ValueError("must be an ISO 8601 time, like 2026-12-06T17:00:00Z") from None
    if when.tzinfo is None:
        raise ValueError("must say its time zone (Z for UTC)")
    return int(when.timestamp() * 1000)


class PresenceRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    present: bool = Field(description="On the arena's page now (sent every 15 s), or leaving it.")


class TournamentJoinRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    invite: str | None = Field(default=None, max_length=64, description="The invite code of a private tournament.")


class TournamentSummary(BaseModel):
    id: str
    format: FormatName
    game: str
    rated: bool
    options: dict[str, OptionValue]
    name: str | None
    public: bool
    state: StateName
    max_players: int
    min_players: int
    entrants: int
    starts: str | None = Field(description="ISO 8601 UTC, or null.")
    minutes: int | None
    groups: int | None = Field(default=None, description="A cup's groups (its players a group: max_players / groups).")
    ends: str | None = Field(description="An arena's end (ISO 8601 UTC), or null.")
    created: str
    started: str | None
    finished: str | None
    club: str | None = Field(description="For this club's members only, or null.")

    @classmethod
    def of(cls, tournament: Tournament) -> TournamentSummary:
        return cls(
            id=tournament.id,
            format=tournament.format.value,
            game=tournament.game,
            rated=tournament.rated,
            options=dict(tournament.options),
            name=tournament.name,
            public=tournament.public,
            state=tournament.state.value,
            max_players=tournament.max_players,
            min_players=tournament.min_players,
            entrants=len(tournament.entries),
            starts=iso(tournament.starts),
            minutes=tournament.minutes,
            groups=tournament.groups or None,
            ends=iso(arena_end(tournament)) if tournament.format is Format.ARENA else None,
            created=iso(tournament.created) or "",
            started=iso(tournament.started),
            finished=iso(tournament.finished),
            club=tournament.club_id,
        )


def iso(ms: int | None) -> str | None:
    if ms is None:
        return None
    return datetime.fromtimestamp(ms / 1000, tz=UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class InviteView(BaseModel):
    code: str
    url: str


class CreatedTournament(BaseModel):
    tournament: TournamentSummary
    invite: InviteView | None = Field(description="A private tournament's invite: shown once, to its maker.")


class TournamentList(BaseModel):
    tournaments: list[TournamentSummary]


class PlayerRow(BaseModel):
    seat: int = Field(description="The player's number in this tournament (rows and games refer to it).")
    name: str | None
    you: bool
    withdrawn: bool


class StandingRow(BaseModel):
    seat: int
    rank: int
    points: float
    played: int
    wins: int
    draws: int
    losses: int
    sonneborn_berger: float
    head_to_head: float


class GameRow(BaseModel):
    id: str
    round: int
    white: int
    black: int
    white_points: float | None = Field(description="What the game counts for White (null while it goes on).")
    black_points: float | None
    forfeit: bool


class MatchRow(BaseModel):
    seats: tuple[int, int]
    score: str = Field(description='The pairing\'s result, the first seat\'s side first: "2-0", "1½-½", "-".')


class BracketRow(BaseModel):
    round: int = Field(description="0 for the first knockout round; the last round is the final.")
    seats: tuple[int | None, int | None] = Field(description="The two players (null until known).")
    score: str = Field(description='The two games told like football, the first seat first: "2-0", "1-1", "-".')
    decider: str | None = Field(description='The deciding live game\'s score ("1-0", "½-½"), or null.')
    winner: int | None
    by_group_record: bool = Field(description="Won on the better group record after a drawn decider.")
    deadline: str | None = Field(
        default=None,
        description="Its round's deadline (ISO 8601 UTC): a leg still going on then is lost on time by the side to "
        "move; null until every player of the round is known.",
    )
    games: list[str] = Field(description="The match's game ids made so far.")


class ArenaRow(BaseModel):
    seat: int
    rank: int
    points: int = Field(description="Arena points: win 2, draw 1 (0 before ply 20), doubled on a streak.")
    scores: list[int] = Field(description="Each game's points, in the order the games ended.")
    on_streak: bool
    present: bool
    playing: bool


class TournamentView(BaseModel):
    tournament: TournamentSummary
    players: list[PlayerRow]
    standings: list[StandingRow]
    arena: list[ArenaRow] = Field(default_factory=list, description="An arena's ranking (empty for a league).")
    groups: list[list[StandingRow]] = Field(default_factory=list, description="A cup's group tables.")
    bracket: list[BracketRow] = Field(default_factory=list, description="A cup's knockout matches, round by round.")
    games: list[GameRow]
    matches: list[MatchRow]
    winners: list[int]
    your_games: list[str] = Field(description="Your games still going on, in round order (the first is your next).")

    @classmethod
    def of(
        cls,
        tournament: Tournament,
        results: dict[str, GameResult],
        you: str | None,
        seats: list[ArenaSeat] | None = None,
        now: int = 0,
    ) -> TournamentView:
        if tournament.format is Format.ARENA:
            return cls.of_arena(tournament, results, you, seats or [], now)
        running = bool(tournament.order)
        roster = list(tournament.order) if running else [entry.player_id for entry in tournament.players]
        seat = {player: number for number, player in enumerate(roster)}
        table = tournament.table(results) if running else None
        withdrawn = {s.player for s in table.standings if s.withdrawn} if table else set()
        players = [
            PlayerRow(
                seat=seat[player],
                name=tournament.entries[player].name,
                you=player == you,
                withdrawn=player in withdrawn,
            )
            for player in roster
        ]
        if table is None:
            return cls(
                tournament=TournamentSummary.of(tournament),
                players=players,
                standings=[],
                games=[],
                matches=[],
                winners=[],
                your_games=[],
            )
        game_ids = tournament.game_ids()
        scored = table.scored
        tables = [table]
        if tournament.format is Format.CUP:
            knockout = tournament.cup(results)
            tables = knockout.groups
            scored = [item for group in tables for item in group.scored]
        games = [
            GameRow(
                id=game_ids[item.pairing.number],
                round=item.pairing.round,
                white=seat[item.pairing.white],
                black=seat[item.pairing.black],
                white_points=None if item.white is None else item.white / 2,
                black_points=None if item.black is None else item.black / 2,
                forfeit=item.forfeit,
            )
            for item in scored
        ]
        matches = [
            MatchRow(seats=(seat[one], seat[other]), score=group.match_score(one, other))
            for group in tables
            for index, one in enumerate(players_of(group, roster))
            for other in players_of(group, roster)[index + 1 :]
        ]
        mine = [
            game_ids[item.pairing.number]
            for item in scored
            if not item.counted and you in (item.pairing.white, item.pairing.black)
        ]
        view = cls(
            tournament=TournamentSummary.of(tournament),
            players=players,
            standings=standing_rows(table, seat) if tournament.format is not Format.CUP else [],
            games=games,
            matches=matches,
            winners=[seat[player] for player in table.winners],
            your_games=mine,
        )
        if tournament.format is not Format.CUP:
            return view
        mine += [
            game_id_for(tournament.id, game.key)
            for game in knockout.due
            if you in (game.white, game.black) and game_id_for(tournament.id, game.key) not in results
        ]
        return view.model_copy(
            update={
                "groups": [standing_rows(group, seat) for group in tables],
                "bracket": [bracket_row(tournament, match, seat) for round in knockout.rounds for match in round],
                "winners": [seat[player] for player in knockout.winners],
                "your_games": mine,
            }
        )

    @classmethod
    def of_arena(
        cls, tournament: Tournament, results: dict[str, GameResult], you: str | None, seats: list[ArenaSeat], now: int
    ) -> TournamentView:
        roster = [entry.player_id for entry in tournament.players]
        seat = {player: number for number, player in enumerate(roster)}
        where = {item.player_id: item for item in seats}
        ranking = arena_ranking(list(sheets_of(tournament, results).values()))
        rows = [
            ArenaRow(
                seat=seat[item.player],
                rank=rank,
                points=item.points,
                scores=list(item.scores),
                on_streak=item.on_streak,
                present=item.player in where and ready_or_playing(where[item.player], now),
                playing=item.player in where and where[item.player].busy is not None,
            )
            for rank, item in ranking
        ]
        players = [
            PlayerRow(seat=seat[p], name=tournament.entries[p].name, you=p == you, withdrawn=False) for p in roster
        ]
        mine = where.get(you or "")
        return cls(
            tournament=TournamentSummary.of(tournament),
            players=players,
            standings=[],
            arena=rows,
            games=[],
            matches=[],
            winners=[row.seat for row in rows if row.rank == 1 and row.points]
            if tournament.state is State.FINISHED
            else [],
            your_games=[mine.busy] if mine is not None and mine.busy else [],
        )


def ready_or_playing(item: ArenaSeat, now: int) -> bool:
    return item.busy is not None or (item.seen > 0 and now - item.seen <= PRESENT_MS)


def players_of(table: LeagueTable, roster: list[str]) -> list[str]:
    """The table's players in seat order (a match's first seat is the lower)."""
    mine = {standing.player for standing in table.standings}
    return [player for player in roster if player in mine]


def standing_rows(table: LeagueTable, seat: dict[str, int]) -> list[StandingRow]:
    return [
        StandingRow(
            seat=seat[s.player],
            rank=s.rank,
            points=s.points / 2,
            played=s.played,
            wins=s.wins,
            draws=s.draws,
            losses=s.losses,
            sonneborn_berger=s.sonneborn_berger / 4,
            head_to_head=s.head_to_head / 2,
        )
        for s in table.standings
    ]


def bracket_row(tournament: Tournament, match: Match, seat: dict[str, int]) -> BracketRow:
    key = f"k{match.round}.{match.index}"
    return BracketRow(
        round=match.round,
        seats=(seat.get(match.one or ""), seat.get(match.other or "")),
        score=match.score,
        decider=match.decider_score,
        winner=seat.get(match.winner or ""),
        by_group_record=match.by_group_record,
        deadline=iso(match.deadline),
        games=[
            game_id_for(tournament.id, f"{key}.{leg}") for leg in ("0", "1", "d") if f"{key}.{leg}" in tournament.made
        ],
    )
