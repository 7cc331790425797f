"""What the Sheria pages say about each game beyond its content file: the game's title, the sections its
rules must have, and the names and explanations of the table options (rules and site settings)."""

from __future__ import annotations

from dataclasses import dataclass

from catalogs import N_

from shared_rules import option_specs

GAME_TITLES = {"chess": N_("Chess"), "english": N_("English draughts"), "tanzanian": N_("Tanzanian draughts")}

#: The sections every Sheria page of a game must have, in every language: one per rule of the seeds.
RULE_SECTIONS = {
    "chess": (
        "setup",
        "turns",
        "pieces",
        "castling",
        "en-passant",
        "promotion",
        "check",
        "checkmate",
        "stalemate",
        "draws",
        "resigning",
        "time-loss",
    ),
    "english": (
        "setup",
        "men",
        "capturing",
        "mandatory-capture",
        "multi-capture",
        "kings",
        "crowning-ends-move",
        "no-passing",
        "winning",
        "draws",
        "time-loss",
        "other-rules",
    ),
    "tanzanian": (
        "setup",
        "men",
        "crowning",
        "flying-kings",
        "mandatory-capture",
        "multi-capture",
        "crowning-ends-move",
        "countdown",
        "time-loss",
        "winning",
        "draws",
    ),
}


@dataclass(frozen=True)
class OptionRow:
    key: str
    name: str  # msgid
    help: str  # msgid
    default: object  # True/False/None/int, shown as On/Off/None/number


#: Options of the table every game offers (site settings, not rules).
SITE_OPTIONS = (
    OptionRow(
        "show_legal_squares",
        N_("Show legal squares"),
        N_("Marks the squares the selected piece can reach (and, in draughts, the pieces it can take)."),
        True,
    ),
    OptionRow(
        "swap_who_starts",
        N_("Swap who starts"),
        N_("After each game the players change colours, so the one who began does not begin again."),
        True,
    ),
)

#: Names and explanations of the rules layer's table options (their defaults come from shared_rules).
RULE_OPTION_TEXT = {
    "mandatory_capture": (
        N_("Capture is mandatory"),
        N_(
            "When a capture is possible you must make one. Turn it off to allow any legal move "
            "instead; no piece is then removed for failing to capture."
        ),
    ),
    "move_limit": (
        N_("Move limit"),
        N_(
            "The game is a draw once this many moves have been played, counting the moves of both "
            "players. For tables that want to cut long games short."
        ),
    ),
    "threefold_repetition": (
        N_("Draw by threefold repetition"),
        N_("The game is a draw when the same position comes up for the third time with the same player to move."),
    ),
    "thirty_moves": (
        N_("Thirty-move rule"),
        N_("The game is a draw after 30 moves by each player with only kings on the board and no capture."),
    ),
}


def option_rows(game: str) -> list[OptionRow]:
    rows = []
    for spec in option_specs(game):
        name, help_text = RULE_OPTION_TEXT[spec.name]
        rows.append(OptionRow(spec.name, name, help_text, spec.default))
    return rows + list(SITE_OPTIONS)
