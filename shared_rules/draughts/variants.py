"""Draughts variants as data: one engine reads these descriptions, no variant has code of its own.

Adding Russian, pool or international draughts means adding a ``Variant`` here (and its tests),
not copying the engine. The fields name the rules that differ between the families of draughts.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..options import OptionSpec

# How a flying king may land after jumping a piece.
ADJACENT = "adjacent"  # short kings: only the square right behind the captured piece
ANY = "any"  # any empty square behind; a square from which the capture goes on must go on
MUST_CONTINUE = "must_continue"  # Russian/pool: if some landing squares continue, only those
FIRST_CONTINUATION = "first_continuation"  # TzDraft: squares before the first continuing one end, that one continues

# What happens to a man that reaches the far row in the middle of a capture.
CROWN_STOPS = "stop"  # crowned, and the move ends there (English, Tanzanian)
CROWN_CONTINUES = "continue"  # crowned, and it captures on as a king (Russian)
CROWN_AT_END = "at_end"  # crowned only if the move ends there; passing through captures on as a man (international)


@dataclass(frozen=True)
class Variant:
    name: str
    title: str
    size: int  # board width and height; only the dark squares are used, a1 is dark
    numbering: str  # "pdn" (1 at the top left, White at the bottom) or "algebraic" (a1..h8)
    first_player: str  # "white" or "black"
    light_side: str  # what players call the side the notation calls white: "red" in English draughts
    rows_of_men: int
    men_capture_backward: bool
    flying_kings: bool
    king_landing: str
    crown_mid_capture: str
    maximum_capture: bool
    # Draw rules. Counts are in plies (half-moves).
    repetition: str  # "always", "option" (the table option threefold_repetition) or "never"
    quiet_plies_limit: int | None  # plies without capture or man move that draw (English: 40)
    countdown: bool  # the Tanzanian 3-kings-against-1 count of 12
    # Pieces of each side, men and kings alike, with which running out of time is a draw for either side
    # (Tanzanian: three against one, in either order); None where a time loss always loses.
    time_loss_draw: tuple[int, int] | None
    kings_only_option: bool  # the Tanzanian optional 30-move rule (60 plies, only kings, no capture)
    options: tuple[OptionSpec, ...]
    gametype: int | None  # the PDN GameType tag; None where PDN has no official number


_MANDATORY = OptionSpec(
    "mandatory_capture", bool, True, "A capture, when there is one, must be played (no huffing when off)."
)
_MOVE_LIMIT = OptionSpec(
    "move_limit", int, None, "The game is drawn after this many plies.", minimum=1, maximum=10_000, nullable=True
)
_THREEFOLD = OptionSpec(
    "threefold_repetition", bool, False, "The third occurrence of a position (same side to move) draws."
)
_THIRTY = OptionSpec("thirty_moves", bool, False, "60 plies with only kings on the board and no capture draw the game.")

ENGLISH = Variant(
    name="english",
    title="English draughts",
    size=8,
    numbering="pdn",
    first_player="black",
    light_side="red",
    rows_of_men=3,
    men_capture_backward=False,
    flying_kings=False,
    king_landing=ADJACENT,
    crown_mid_capture=CROWN_STOPS,
    maximum_capture=False,
    repetition="always",
    quiet_plies_limit=40,
    countdown=False,
    time_loss_draw=None,
    kings_only_option=False,
    options=(_MANDATORY, _MOVE_LIMIT),
    gametype=21,
)

TANZANIAN = Variant(
    name="tanzanian",
    title="Tanzanian draughts (TZD-8x8-v1)",
    size=8,
    numbering="algebraic",
    first_player="white",
    light_side="white",
    rows_of_men=3,
    men_capture_backward=False,
    flying_kings=True,
    king_landing=FIRST_CONTINUATION,
    crown_mid_capture=CROWN_STOPS,
    maximum_capture=False,
    repetition="option",
    quiet_plies_limit=None,
    countdown=True,
    time_loss_draw=(3, 1),
    kings_only_option=True,
    options=(_THREEFOLD, _THIRTY),
    # PDN has no GameType for Tanzanian draughts (41 is Spantsiretti); 99 is our private value, far
    # from the published list (documented in docs/rules.md).
    gametype=99,
)

VARIANTS = {variant.name: variant for variant in (ENGLISH, TANZANIAN)}

# Configured and perft-checked against published counts, not yet offered to players: they show
# that the next variants are descriptions, not forks. Their draw rules and notation UI come later.
INTERNATIONAL = Variant(
    name="international",
    title="International draughts (10x10)",
    size=10,
    numbering="pdn",
    first_player="white",
    light_side="white",
    rows_of_men=4,
    men_capture_backward=True,
    flying_kings=True,
    king_landing=ANY,
    crown_mid_capture=CROWN_AT_END,
    maximum_capture=True,
    repetition="always",
    quiet_plies_limit=None,
    countdown=False,
    time_loss_draw=None,
    kings_only_option=False,
    options=(),
    gametype=20,
)

# Brazilian draughts: the international rules on the 8x8 board.
BRAZILIAN = replace(INTERNATIONAL, name="brazilian", title="Brazilian draughts", size=8, rows_of_men=3, gametype=26)

LATER_VARIANTS = {variant.name: variant for variant in (INTERNATIONAL, BRAZILIAN)}
