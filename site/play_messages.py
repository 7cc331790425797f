"""The strings of the interactive boards and the game page added for issue 13, kept apart from build_site's
``JS_MESSAGES`` so the two lists can change independently; ``Builder.js_messages`` merges both.

``refusal_<reason>`` keys follow ``shared_rules.errors.MOVE_REASONS``: the server's ``error.reason`` (and the
board's own check of a tap) picks the text, so a refusal reads the same in every language.
"""

from __future__ import annotations


def N_(message: str) -> str:
    """Mark a string for extraction; it is translated where it is shown."""
    return message


def NP_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a plural pair for extraction (``pybabel extract -k NP_:1,2``)."""
    return singular, plural


PLAY_MESSAGES = {
    "board_label": N_("Board"),
    "route_may_stop": N_("The capture may stop here: tap this square again to stop, or tap the next landing square."),
    "route_choose": N_("Several routes end there: tap the landing squares one by one."),
    "refusal_capture_required": N_("A capture is compulsory: %(moves)s."),
    "refusal_not_your_turn": N_("It is not your turn."),
    "refusal_no_piece": N_("None of your pieces is on that square."),
    "refusal_wrong_color": N_("That piece is your opponent's."),
    "refusal_blocked": N_("That piece cannot go there."),
    "refusal_ambiguous": N_("That could be more than one move: tap the squares one by one."),
    "refusal_unknown_move": N_("That is not a move in this position."),
    "refusal_game_over": N_("The game is over."),
    "your_name": N_("Your name"),
    "name_saved": N_("Name saved."),
    "invited_by": N_("%(name)s invites you to a game of %(game)s."),
    "invited_anonymous": N_("You are invited to a game of %(game)s."),
    "invite_you_play": N_("You play %(colour)s. %(days)s"),
    "share_text": N_("Play %(game)s with me on ubao"),
    "share_done": N_("Invitation shared."),
    "you": N_("you"),
    "nobody_yet": N_("waiting"),
    "vs": N_("against %(name)s"),
    "computer_level": N_("the computer, level %(level)s"),
    "anonymous": N_("an unnamed player"),
    "their_move": N_("their move"),
    "your_move_short": N_("your move"),
    "no_games": N_("No games yet."),
}

PLAY_PLURALS = {
    "days_per_move": NP_("%(num)d day per move", "%(num)d days per move"),
    "days_left": NP_("%(num)d day left", "%(num)d days left"),
}
