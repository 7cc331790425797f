"""The strings of Fumbo's training loop: goals, buttons, outcomes, history and theme names. Kept
apart from build_site's ``JS_MESSAGES`` so the lists change independently; ``Builder._fumbo`` adds them to
the puzzle page's config only.

Theme names cover every theme of the sets (Lichess's for chess, the generator's for draughts); a theme
without a name here is shown as its key, so a new set never breaks the page.
"""

from __future__ import annotations

from collections.abc import Callable

from catalogs import N_, NC_

FUMBO_MESSAGES = {
    "goal_mate": N_("Goal: checkmate in %(n)s."),
    "goal_material": N_("Goal: win material."),
    "goal_game_win": N_("Goal: win the game."),
    "goal_promotion": N_("Goal: make a king."),
    "goal_promote_chess": N_("Goal: promote a pawn."),
    "goal_countdown": N_("Goal: catch the lone king before the count runs out."),
    "goal_best": N_("Goal: find the best move."),
    "themes_label": N_("Themes: %(themes)s"),
    "puzzle_solved_next": N_("Solved! Well done."),
    "puzzle_missed": N_("Not the best move. This try counts as missed."),
    "puzzle_solved_before": N_("You solved this puzzle."),
    "puzzle_missed_before": N_("You missed this puzzle. Try it again or look at the solution."),
    "replay_solved": N_("Solved this time. It does not change your rating."),
    "rating_after_try": N_("Your puzzle rating: %(rating)s (%(change)s)"),
    "retry": N_("Try again"),
    "show_solution": N_("Show the solution"),
    "solution_step": N_("Solution, move %(step)s of %(total)s: %(move)s"),
    "solution_start": N_("The puzzle's position. Go forward to see the solution."),
    "back": N_("Back"),
    "forward": N_("Forward"),
    "next_puzzle": N_("Next puzzle"),
    "no_puzzle_left": N_("You have played every puzzle of this kind. Choose another theme."),
    "puzzle_meta_next": N_("Puzzle rating %(rating)s"),
    "rating_provisional": N_("puzzle rating %(rating)s? (provisional)"),
    "history_title": N_("Your last puzzles"),
    "history_solved": N_("%(game)s: solved"),
    "history_failed": N_("%(game)s: missed"),
    "all_themes": N_("All themes"),
    "mine_button": N_("Your mistakes"),
    "mine_none": N_("No puzzles from your own mistakes are waiting. A review of a finished game makes them."),
    "mine_meta": N_("From your own game, move %(ply)s."),
    # TRANSLATORS: %(number)s: the move's number in the game's move list; %(move)s: the move played, e.g. Nf3.
    "mine_missed": N_("From your own game, move %(number)s: here you played %(move)s. Find the better move."),
    "mine_punish": N_(
        "From your own game, move %(number)s: you played %(move)s. Your opponent's move now: find how they could punish it."
    ),
    "theme_filter": N_("Theme"),
}

#: Every theme of the puzzle sets, as the player reads it.
THEME_NAMES = {
    # draughts (puzzles/themes.py)
    "material": N_("win material"),
    "game_win": N_("win the game"),
    "countdown": N_("countdown"),
    "landing": N_("landing square"),
    "shot": N_("shot"),
    "sacrifice": N_("sacrifice"),
    "multi_capture": N_("multiple capture"),
    "breakthrough": N_("breakthrough"),
    "capture_choice": N_("choice of capture"),
    "quiet_move": N_("quiet move"),
    "endgame": N_("endgame"),
    "king_endgame": N_("kings' endgame"),
    "short": N_("short"),
    "long": N_("long"),
    "very_long": N_("very long"),
    "one_move": N_("one move"),
    # chess (Lichess's names)
    "mateIn1": N_("mate in 1"),
    "mateIn2": N_("mate in 2"),
    "mateIn3": N_("mate in 3"),
    "mateIn4": N_("mate in 4"),
    "mateIn5": N_("mate in 5"),
    "fork": N_("fork"),
    "pin": N_("pin"),
    "skewer": N_("skewer"),
    "kingsideAttack": N_("kingside attack"),
    "attraction": N_("attraction"),
    "defensiveMove": N_("defensive move"),
    "deflection": N_("deflection"),
    "discoveredAttack": N_("discovered attack"),
    "quietMove": N_("quiet move"),
    "exposedKing": N_("exposed king"),
    "rookEndgame": N_("rook endgame"),
    "pawnEndgame": N_("pawn endgame"),
    "queenEndgame": N_("queen endgame"),
    "bishopEndgame": N_("bishop endgame"),
    "knightEndgame": N_("knight endgame"),
    "backRankMate": N_("back-rank mate"),
    "hangingPiece": N_("hanging piece"),
    "doubleCheck": N_("double check"),
    "clearance": N_("clearance"),
    "intermezzo": N_("in-between move"),
    "xRayAttack": N_("x-ray attack"),
    "capturingDefender": N_("capture the defender"),
    "trappedPiece": N_("trapped piece"),
    "interference": N_("interference"),
    "hookMate": N_("hook mate"),
    "arabianMate": N_("Arabian mate"),
    "underPromotion": N_("underpromotion"),
    "anastasiaMate": N_("Anastasia's mate"),
    "bodenMate": N_("Boden's mate"),
    "smotheredMate": N_("smothered mate"),
    "enPassant": N_("en passant"),
}

#: Themes whose one key names a different idea in chess and in draughts, each with its own word: a pawn's
#: promotion to a piece of the player's choice, a man's crowning as a king (Tagalog and Swahili say them
#: differently, so the catalogs hold one entry per game family).
THEME_NAMES_BY_FAMILY = {
    "promotion": {"chess": NC_("chess", "promotion"), "draughts": NC_("draughts", "crowning")},
}


def theme_names(gettext: Callable[[str], str], pgettext: Callable[[str, str], str], game: str) -> dict[str, str]:
    """Every theme's name as ``game``'s players read it, in the language of the two translating functions."""
    family = "chess" if game == "chess" else "draughts"
    names = {key: gettext(value) for key, value in THEME_NAMES.items()}
    names.update({key: pgettext(*by_family[family]) for key, by_family in THEME_NAMES_BY_FAMILY.items()})
    return names


#: Themes that say how long a puzzle is: shown after it, not offered as a filter (as the API's
#: ``puzzles_api.service.LENGTH_THEMES``).
LENGTH_THEMES = frozenset({"short", "long", "very_long", "one_move", "veryLong", "oneMove"})
#: A theme is offered as a filter when at least this many puzzles of the game have it.
FILTER_MIN_PUZZLES = 10
