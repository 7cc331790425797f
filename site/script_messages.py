"""The strings the pages' scripts show, translated at build time and embedded in each page's config as JSON.

``JS_MESSAGES`` and ``JS_PLURALS`` are the boards' and pages' own; play_messages.py and fumbo_messages.py
hold those of the game and puzzle pages. ``messages_named`` keeps a page's config to what its scripts name.
"""

from __future__ import annotations

import json
import re
from typing import Any

import play_messages
from catalogs import CLDR_LOCALE, N_, NP_, plural_example, translations
from rules_text import GAME_TITLES

#: Strings the scripts show, translated at build time and embedded in each page as JSON.
JS_MESSAGES = {
    "your_move": N_("Your move."),
    "correct": N_("Correct! Well done."),
    "wrong": N_("Not this time. Look again and try another move."),
    "try_again": N_("Try again"),
    "illegal": N_("That move is not allowed here."),
    "select_piece": N_("Select one of your pieces."),
    "selected": N_("Selected: %(square)s."),
    "moved": N_("Played: %(move)s."),
    "promote_to": N_("Promote to:"),
    "loading": N_("Loading…"),
    "network_error": N_("Could not reach the server. Check your connection and try again."),
    "puzzle_meta": N_("Puzzle rating %(rating)s · %(date)s"),
    "rating": N_("puzzle rating %(rating)s"),
    "puzzle_continue": N_("Good. Your opponent answered %(move)s. Your move again."),
    "exercise_reply": N_("Right. The computer answered %(move)s. Your move again."),
    "white_to_move": N_("White to move."),
    "black_to_move": N_("Black to move."),
    "red_to_move": N_("Red to move."),
    "waiting_opponent": N_("Waiting for your opponent to join."),
    "waiting_move": N_("Waiting for your opponent's move."),
    "your_turn": N_("Your turn."),
    "spectating": N_("You are watching this game."),
    "computer_plays_for_opponent": N_("The computer plays on for your opponent."),
    "computer_plays_for_you": N_("The computer is playing your seat. Take it back to play."),
    "link_copied": N_("Link copied. Send it to your friend."),
    "copy_failed": N_("Copy the link above and send it to your friend."),
    "joined": N_("You joined the game."),
    "draw_offered_by_you": N_("You offered a draw."),
    "draw_offered_to_you": N_("Your opponent offers a draw."),
    "result_white": N_("White won."),
    "result_black": N_("Black won."),
    "result_red": N_("Red won."),
    "result_draw": N_("The game is a draw."),
    "casual_repeat_pairing": N_("A casual game: you two have played 3 rated games of this game in the last 24 hours."),
    "result_aborted": N_("The game was aborted: no result, no rating change."),
    "result_abandoned": N_("Both players left the table: no result, no rating change."),
    "confirm_resign": N_("Resign this game?"),
    "white": N_("White"),
    "black": N_("Black"),
    "red": N_("Red"),
    "empty": N_("empty"),
    "piece_P": N_("white pawn"),
    "piece_N": N_("white knight"),
    "piece_B": N_("white bishop"),
    "piece_R": N_("white rook"),
    "piece_Q": N_("white queen"),
    "piece_K": N_("white king"),
    "piece_p": N_("black pawn"),
    "piece_n": N_("black knight"),
    "piece_b": N_("black bishop"),
    "piece_r": N_("black rook"),
    "piece_q": N_("black queen"),
    "piece_k": N_("black king"),
    "piece_wm": N_("white man"),
    "piece_wk": N_("white draughts king"),
    "piece_rm": N_("red man"),
    "piece_rk": N_("red king"),
    "piece_bm": N_("black man"),
    "piece_bk": N_("black draughts king"),
    "square_label": N_("%(square)s, %(piece)s"),
    "legal_here": N_("you can move here"),
    "reason_checkmate": N_("by checkmate"),
    "reason_stalemate": N_("by stalemate"),
    "reason_threefold_repetition": N_("by threefold repetition"),
    "reason_fifty_moves": N_("by the fifty-move rule"),
    "reason_insufficient_material": N_("because neither side can mate"),
    "reason_no_pieces": N_("because one side has no pieces left"),
    "reason_no_moves": N_("because one side cannot move"),
    "reason_forty_moves": N_("by the forty-move rule"),
    "reason_move_limit": N_("by the move limit"),
    "reason_three_kings_countdown": N_("by the three-kings countdown"),
    "reason_thirty_moves": N_("by the thirty-move rule"),
    "reason_resignation": N_("by resignation"),
    "reason_agreement": N_("by agreement"),
    "reason_timeout": N_("on time"),
}

#: Plural strings the scripts need: (singular, plural); the page gets the CLDR "one" and "other" forms.
JS_PLURALS = {
    "streak": NP_("%(num)d day in a row", "%(num)d days in a row"),
    "deadline_days": NP_("%(num)d day left for this move", "%(num)d days left for this move"),
    "solved_count": NP_("%(num)d puzzle solved", "%(num)d puzzles solved"),
}


def js_messages(lang: str) -> dict[str, Any]:
    """Every string the scripts may show, in ``lang``: plurals as their CLDR "one" and "other" forms."""
    t = translations(lang)
    messages: dict[str, Any] = {
        key: t.gettext(text) for key, text in {**JS_MESSAGES, **play_messages.PLAY_MESSAGES}.items()
    }
    for key, (context, text) in play_messages.PLAY_CONTEXT_MESSAGES.items():
        messages[key] = t.pgettext(context, text)
    one, other = plural_example(lang, "one"), plural_example(lang, "other")
    for key, (singular, plural) in {**JS_PLURALS, **play_messages.PLAY_PLURALS}.items():
        messages[key] = {
            "one": t.ngettext(singular, plural, one).replace("%(num)d", "{n}"),
            "other": t.ngettext(singular, plural, other).replace("%(num)d", "{n}"),
        }
    messages["plural_locale"] = CLDR_LOCALE[lang]
    messages["game_titles"] = {game: t.gettext(title) for game, title in GAME_TITLES.items()}
    return messages


def messages_named(messages: dict[str, Any], code: str) -> dict[str, Any]:
    """The messages whose key ``code`` names: as a property (``m.key``), a string (``"key"``), or through a
    string of its start up to an underscore (``m["piece_" + piece]``, ``m[`reason_${reason}`]``). A script
    that builds a key any other way must name it whole somewhere, or the page will not carry it."""
    names = set(re.findall(r"""[.'"`]([A-Za-z_]\w*)""", code))
    return {
        key: text
        for key, text in messages.items()
        if key in names or any(key[: i + 1] in names for i, char in enumerate(key) if char == "_")
    }


def json_for_script(data: Any) -> str:
    """JSON safe inside <script type="application/json"> (no '</script>' can end it early)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
