"""Requests and responses of the games routes (the players' are in ``common.web.models``). These models are also the OpenAPI description."""

from __future__ import annotations

from typing import Annotated, Literal

from common.players.handles import PublicId
from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from games.domain.reactions import ReactionKey
from shared_rules.names import Colour, GameName

Color = Colour
Result = Literal["ongoing", "white", "black", "draw", "aborted"]
GamePhase = Literal["waiting", "active", "finished"]

# Bounds no honest request reaches, so one request can never cost much.
MAX_FEN_CHARS = 200
MAX_MOVE_CHARS = 64
MAX_OPTIONS = 16
MAX_PLY = 100_000
MAX_EVENT = 999_999  # the store's sort keys have six digits

OptionName = Annotated[str, StringConstraints(min_length=1, max_length=40)]
OptionValue = bool | int | None


class _Request(BaseModel):
    # A misspelt field is an error, not silently ignored; strict: no text or boolean read as a number, no
    # float as a whole number, no "yes" as a boolean (a client that sent them meant something else).
    model_config = ConfigDict(extra="forbid", strict=True)


# --------------------------------------------------------------------------------------------- games
class CreateGameRequest(_Request):
    game: GameName = Field(description="Which game: chess, English draughts or Tanzanian draughts.")
    color: Literal["white", "black", "random"] = Field(default="random", description="The creator's seat.")
    options: dict[OptionName, OptionValue] = Field(
        default_factory=dict,
        max_length=MAX_OPTIONS,
        description="`days_per_move` (1 to 14, default 3), `swap_colors` (rematches swap seats; default true), "
        "`turn_seconds` (a live table: 30 or 60 seconds a turn on the server's clock, the computer playing on for "
        "a player whose turn runs out; null, the default, for a game by correspondence), `private` (true: a "
        "friend's game, listed and followed live by its two players only) and the game's table options, such as "
        "`mandatory_capture` or `move_limit`.",
    )
    fen: Annotated[str, StringConstraints(min_length=1, max_length=MAX_FEN_CHARS)] | None = Field(
        default=None, description="A starting position other than the usual one (chess FEN or draughts PDN FEN)."
    )
    rated: bool = Field(
        default=False,
        description="A rated game changes both players' game ratings when it ends (a draw counts half a win); "
        "a casual one does not. Never against the computer or from a custom position (422 `rated_not_allowed`).",
    )
    opponent: CpuOpponent | None = Field(
        default=None,
        description="Play the computer: it takes the other seat (no invite) and answers each of your moves in "
        "the same response. Without it, the other seat is open to whoever has the invite.",
    )


class CpuOpponent(_Request):
    type: Literal["cpu"] = Field(description="The computer takes the other seat.")
    level: int = Field(ge=1, le=5, description="1 (a beginner who blunders) to 5 (the strongest, about 1 s a move).")


class JoinRequest(_Request):
    invite: Annotated[str, StringConstraints(min_length=1, max_length=64)] = Field(
        description="The invite code from the link the creator sent."
    )


class MoveRequest(_Request):
    move: Annotated[str, StringConstraints(min_length=1, max_length=MAX_MOVE_CHARS)] = Field(
        description="The move: SAN or UCI for chess (`Nf3`, `g1f3`), PDN for draughts (`11-15`, `c3-d4`, `22x15`)."
    )
    ply: int = Field(
        ge=0,
        le=MAX_PLY,
        description="How many moves had been played when you chose this move (the game's `ply`). A stale value "
        "gets 409 with the current game, so a move is never played in a position you did not see.",
    )


class RematchRequest(_Request):
    action: Literal["offer", "accept", "decline", "withdraw"] = Field(
        default="offer",
        description="Offer a rematch (the default), accept or decline the opponent's offer, or withdraw yours.",
    )


class DrawRequest(_Request):
    action: Literal["offer", "accept", "decline"] = Field(
        description="Offer a draw, or accept or decline the opponent's offer. Offering while the opponent's "
        "offer stands accepts it."
    )


class Status(BaseModel):
    result: Result = Field(
        description="Who won, a draw, still ongoing, or `aborted` (no result: ended before each side made two "
        "moves, or a live table both players left)."
    )
    reason: str | None = Field(
        description="Why the game ended: a rules reason (`checkmate`, `no_pieces`, `three_kings_countdown` ...), "
        "or `resignation`, `agreement`, `timeout`, `aborted`, `no_show` (aborted: the side to move never came), "
        "`abandoned`; null while ongoing."
    )


class PlayerView(BaseModel):
    player_id: PublicId = Field(
        description="The seat holder's public handle (never a token, nor the id the server keys them by)."
    )
    name: str | None = Field(description="The display name the player had when taking the seat.")
    former: bool = Field(
        default=False, description='The player deleted their data: a page shows "a former player" (no id, no name).'
    )


class CpuPlayerView(BaseModel):
    player_id: Literal["cpu"] = Field(description="The computer holds this seat.")
    name: str = Field(description="`Computer (level N)`.")
    cpu_level: int = Field(description="The computer's level, 1-5.")


class Seats(BaseModel):
    white: CpuPlayerView | PlayerView | None = Field(description="Null while the seat is open.")
    black: CpuPlayerView | PlayerView | None


class RatingChangeView(BaseModel):
    white: int = Field(description="White's rating change, in whole points (`+11`).")
    black: int = Field(description="Black's rating change (`-11`).")


class CpuTakeover(BaseModel):
    seat: Color = Field(description="The seat the computer plays for its absent player.")
    level: int = Field(description="The computer's level, 1-5.")


class ReactionView(BaseModel):
    seq: int = Field(description="Its place in the game's log: a page shows each reaction once.")
    by: Color
    reaction: ReactionKey
    at: str


class GameState(BaseModel):
    """A game as everyone may see it: no token, no invite code."""

    id: str
    game: GameName
    options: dict[str, OptionValue] = Field(description="Every option, defaults filled in.")
    rated: bool = Field(description="Whether the game changes the players' game ratings when it ends.")
    state: GamePhase = Field(description="`waiting` for the second player, `active`, or `finished`.")
    fen: str = Field(description="The current position.")
    ply: int = Field(description="Moves played so far; send it with your next move.")
    turn: Color = Field(description="The side to move.")
    status: Status
    players: Seats
    deadline: str | None = Field(
        description="When the side to move runs out of time (ISO 8601, UTC). By correspondence the opponent may "
        "then claim the game; at a live table (`options.turn_seconds`) the computer plays on for the side to move."
    )
    turn_ms_left: int | None = Field(
        default=None,
        description="A live table: the milliseconds left of this turn when the answer was made, on the server's "
        "clock (count down from when you receive it; it does not depend on your device's clock). Null otherwise.",
    )
    draw_offer: Color | None = Field(description="The side whose draw offer stands, if any.")
    draw_declined: Color | None = Field(
        default=None,
        description="The side whose last draw offer was declined (by the opponent's answer or move), until that "
        "side moves or offers again.",
    )
    legal_moves: list[str] = Field(description="The moves the side to move may play (empty once the game is over).")
    last_move: str | None = Field(description="The last move played, in canonical notation.")
    legal_moves_uci: list[str] | None = Field(
        default=None,
        description="Chess: `legal_moves` in UCI (`e2e4`, `e7e8q`), in the same order, so a board can mark the "
        "squares; null for draughts, whose notation names the squares.",
    )
    last_move_uci: str | None = Field(
        default=None, description="Chess: `last_move` in UCI; null before the first move and for draughts."
    )
    cpu_takeover: CpuTakeover | None = Field(
        default=None,
        description="Set while the computer plays on for a player whose time ran out (`cpu-takeover`), until "
        "that player comes back (`resume`).",
    )
    rating_change: RatingChangeView | None = Field(
        default=None, description="A rated game, once it has ended: how much each player's game rating moved."
    )
    rematch: str | None = Field(description="The id of this game's rematch, once one was made.")
    rematch_of: str | None = Field(description="The id of the game this one is a rematch of.")
    rematch_offer: Color | None = Field(
        default=None, description="The side whose rematch offer waits for the opponent's answer, if any."
    )
    rematch_declined: Color | None = Field(
        default=None, description="The side whose last rematch offer the opponent declined, if any."
    )
    review: Literal["none", "asked"] = Field(
        default="none",
        description="`asked`: the game has a review to read (`GET /v1/games/{id}/review`, pending or done): "
        "a player asked for it, or the game is a finished rated game (reviewed by itself). `none`: not yet.",
    )
    abortable: bool = Field(
        default=False,
        description="Whether a player may still abort the game (`POST /v1/games/{id}/abort`): it is on and "
        "neither side has made two moves. A rated game ended that early is aborted whatever ends it.",
    )
    unopened: list[Color] = Field(
        default_factory=list,
        description="A live table's seats whose player has not yet opened it (`POST /v1/games/{id}/open`): its "
        "first turn's clock starts once both have; a table still waiting when `deadline` passes is aborted "
        "(`no_show`). Empty on any other game.",
    )
    casual_reason: Literal["repeat_pairing"] | None = Field(
        default=None,
        description="Why a game asked for rated is played casual: `repeat_pairing`, the two players have had "
        'their 3 rated games of this game in 24 hours (docs/games.md, "Fair play"); null otherwise.',
    )
    reactions: list[ReactionView] = Field(
        default_factory=list,
        description="The latest reactions, oldest first (a page words each key in its own language); none that "
        "the other player muted.",
    )
    reactions_muted: list[Color] = Field(default_factory=list, description="The sides that muted the other's.")
    created_at: str
    updated_at: str


class ReactionRequest(_Request):
    reaction: ReactionKey = Field(description="One of the fixed set; any other text is refused (422).")


class ReactionSent(BaseModel):
    sent: Literal[True] = True


class MuteRequest(_Request):
    muted: bool = Field(description="True: the other player's reactions in this game are no longer shown to you.")


class MovePage(BaseModel):
    """Moves of a game, in order, in canonical notation: ``moves[i]`` is move number ``moves_from + i + 1``."""

    id: str
    moves: list[str]
    moves_from: int | None = Field(
        description="How many moves come before the first one listed (null only when this page holds no move)."
    )
    earlier: int | None = Field(
        description="Pass it as `before` to `GET /v1/games/{id}/moves` for the moves before these; null once the "
        "list reaches the first move (or the ply you asked after)."
    )
    fens: list[str] | None = Field(
        default=None, description="With `positions`: the position after each move of `moves`, in the same order."
    )
    start_fen: str | None = Field(
        default=None, description="With `positions`, once the page reaches the start: the position before move 1."
    )


class GameDetail(GameState):
    moves: list[str] = Field(
        description="The latest moves (at most 50; with `moves_after`, only those after it), in canonical notation."
    )
    moves_from: int | None = Field(description="How many moves come before `moves[0]` (0: the list is whole).")
    earlier: int | None = Field(
        description="Null when `moves` starts at the first move (or right after `moves_after`); else the `before` "
        "of `GET /v1/games/{id}/moves` for the moves in between."
    )
    start_fen: str | None = Field(description="The starting position, when it is not the usual one.")


class Invite(BaseModel):
    code: str = Field(description="The secret that lets one person take the open seat.")
    url: str = Field(description="The link to send: it opens the game with the invite code.")


class CreatedGame(BaseModel):
    game: GameState
    seat: Color = Field(description="Your seat.")
    invite: Invite | None = Field(
        description="Send its url to your opponent (null for a rematch or a game against the computer: both are seated)."
    )


class SeatedGame(BaseModel):
    game: GameState
    seat: Color = Field(description="Your seat.")


class GameSummary(BaseModel):
    id: str
    game: GameName
    state: GamePhase
    color: Color = Field(description="Your seat in this game.")
    your_turn: bool
    turn: Color
    ply: int
    status: Status
    opponent: CpuPlayerView | PlayerView | None
    rated: bool = Field(description="Whether the game is rated.")
    rating_change: RatingChangeView | None = Field(default=None, description="Set once a rated game has ended.")
    deadline: str | None
    draw_offer: Color | None
    rematch_of: str | None = Field(default=None, description="The finished game this one is the rematch of.")
    updated_at: str


class OnAirPlayer(BaseModel):
    name: str | None
    rating: int | None = Field(
        default=None, description="A live table's player: their rating in the game when the table started."
    )


class OnAirGame(BaseModel):
    id: str = Field(description="Follow it with `GET /v1/games/{id}` (a spectator's view).")
    game: GameName
    players: dict[Color, OnAirPlayer]
    ply: int = Field(description="Moves played.")
    turn: Color
    live: bool = Field(description="A live table (seconds a turn); else a game by correspondence.")
    turn_seconds: int | None
    rated: bool
    updated_at: str


class LiveGames(BaseModel):
    game: GameName
    games: list[OnAirGame] = Field(
        description="At most 50: live tables first, the top-rated first; then the latest active first."
    )


class GameList(BaseModel):
    games: list[GameSummary]
    cursor: str | None = Field(description="Pass as `cursor` for the next page; null on the last page.")


class BlockRequest(_Request):
    game: str = Field(
        pattern=r"^[A-Za-z0-9_-]{12}$", description="A game of yours: its other player is the one you block."
    )


class BlockView(BaseModel):
    """A block as its owner sees it: no player id, only the block's own id, the name and the game."""

    id: str = Field(description="The block's id: `DELETE /v1/players/me/blocks/{id}` removes it.")
    name: str | None = Field(description="The blocked player's display name when you blocked them.")
    game: str = Field(description="The game whose opponent you blocked.")
    created_at: str


class BlockList(BaseModel):
    blocks: list[BlockView] = Field(description="Oldest first.")


# --------------------------------------------------------------------------------------------- reviews
class ReviewEvaluation(BaseModel):
    score: int | None = Field(default=None, description="For White, in hundredths of a pawn (chess) or a man.")
    winner: Color | None = Field(default=None, description="A forced win the engine found: who wins ...")
    win_in: int | None = Field(default=None, description="... in this many of the winner's moves (0: it is over).")


class ReviewedMove(BaseModel):
    ply: int = Field(description="The moves played including this one: 1 for the first.")
    move: str = Field(description="The move in the game's notation.")
    colour: Color = Field(description="Who played it.")
    fen: str = Field(description="The position after the move.")
    eval: ReviewEvaluation = Field(description="The position after the move, for White.")
    best: str = Field(description="The engine's move in the position before this one.")
    mark: Literal["?!", "?", "??"] | None = Field(default=None, description="Inaccuracy, mistake or blunder.")
    best_squares: list[str] | None = Field(default=None, description="A marked move's best move: from, to.")


class ReviewStart(BaseModel):
    fen: str
    eval: ReviewEvaluation


class ReviewAccuracy(BaseModel):
    white: float = Field(description="0 to 100, as lichess computes it.")
    black: float


class GameReview(BaseModel):
    status: Literal["pending", "done"]
    start: ReviewStart | None = Field(description="The first position and its evaluation (once done).")
    moves: list[ReviewedMove] = Field(description="Every move, in order (empty while pending).")
    accuracy: ReviewAccuracy | None = Field(description="Each side's accuracy (once done).")
    puzzles: dict[Color, int] | None = Field(
        default=None,
        description="How many personal puzzles each side's mistakes made (`/v1/puzzles/next?source=mine`).",
    )
