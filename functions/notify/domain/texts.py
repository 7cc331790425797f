"""The words of a notification, in the subscription's language, from the site's gettext catalogs.

The msgids are marked here with ``N_`` and ``make messages`` extracts them with the site's (this directory
is one of its sources), so translators find them in ``site/locale/{sw,tl,en}/LC_MESSAGES/messages.po``.
At run time only the standard library reads them (``gettext`` on the compiled ``messages.mo``): no Babel
in the function. The compiled catalogs are found in ``UBAO_LOCALE_DIR``, else the package's ``locale/``
(``make package`` copies them there), else the repository's ``site/locale`` (``make site`` compiles them).
"""

from __future__ import annotations

import gettext
import os
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from shared_rules.names import LANGUAGES

LANGS = LANGUAGES
_HERE = Path(__file__).resolve().parents[1]  # the notify package (its catalogs sit beside it when packaged)


def N_(message: str) -> str:
    return message


GAME_TITLES = {"chess": N_("Chess"), "english": N_("English draughts"), "tanzanian": N_("Tanzanian draughts")}

#: (title, body) of every notification; the body's placeholders are filled per player.
#: %(opponent)s is the other player's name (up to 24 characters), or the catalog's "your opponent" when they
#: have none, or "the computer": each sentence must read right with all three wherever the name stands
#: (tl: no "ni"/"kay" before it; sw: no verb that agrees with a person only, unless the computer has its own
#: form in BY_THE_COMPUTER). tests/push/test_names.py renders every one of them with each.
MESSAGES: dict[str, tuple[str, str]] = {
    "moved": (
        N_("It is your move"),
        # TRANSLATORS: %(opponent)s: a name, or "your opponent", or "the computer"; it must read right with each.
        N_("%(opponent)s played %(move)s in %(game)s."),
    ),
    "joined": (
        N_("It is your move"),
        # TRANSLATORS: %(opponent)s: a name, or "your opponent", or "the computer"; it must read right with each.
        N_("%(opponent)s joined your game of %(game)s."),
    ),
    "accepted": (
        N_("Challenge accepted"),
        # TRANSLATORS: %(opponent)s: a name, or "your opponent", or "the computer"; it must read right with each.
        N_("%(opponent)s accepted your challenge"),
    ),
    "draw_offered": (
        N_("Draw offered"),
        # TRANSLATORS: %(opponent)s: a name, or "your opponent", or "the computer"; it must read right with each.
        N_("%(opponent)s offers a draw in %(game)s."),
    ),
    "taken_over": (
        N_("The computer is playing for you"),
        # TRANSLATORS: %(opponent)s: a name, or "your opponent" (never the computer); it must read right with both.
        N_("%(opponent)s let the computer take your seat in %(game)s. Open the game to play again."),
    ),
    "won": (
        N_("Game over"),
        # TRANSLATORS: %(opponent)s: a name, or "your opponent", or "the computer"; it must read right with each.
        N_("You won your game of %(game)s against %(opponent)s."),
    ),
    "lost": (
        N_("Game over"),
        # TRANSLATORS: %(opponent)s: a name, or "your opponent", or "the computer"; it must read right with each.
        N_("You lost your game of %(game)s against %(opponent)s."),
    ),
    "drawn": (
        N_("Game over"),
        # TRANSLATORS: %(opponent)s: a name, or "your opponent", or "the computer"; it must read right with each.
        N_("Your game of %(game)s against %(opponent)s is a draw."),
    ),
    "reminder_24h": (
        N_("Time is running out"),
        # TRANSLATORS: %(opponent)s: a name, or "your opponent", or "the computer"; it must read right with each.
        N_("Less than 24 hours left for your move in %(game)s against %(opponent)s."),
    ),
    "review_ready": (
        N_("Your game review is ready"),
        # TRANSLATORS: %(opponent)s: a name, or "your opponent", or "the computer"; it must read right with each.
        N_("See where your game of %(game)s against %(opponent)s turned, and your mistakes as puzzles."),
    ),
    "challenged": (
        N_("A challenge from a friend"),
        # TRANSLATORS: %(opponent)s: a name, or "your opponent" (never the computer); it must read right with both.
        N_("%(opponent)s challenges you to a game of %(game)s. Open it to accept or decline."),
    ),
    # -- tournaments (functions/tournaments/pushes.py) --
    "tournament_game": (
        N_("Your tournament game has started"),
        # TRANSLATORS: %(opponent)s: a name, or "your opponent" (never the computer); it must read right with both.
        N_("Your tournament game of %(game)s against %(opponent)s has started. Open it to play."),
    ),
    "tournament_started": (
        N_("Your tournament has started"),
        N_("Your games of %(game)s have been made. Open the tournament to see them."),
    ),
    "arena_soon": (
        N_("The arena starts in 5 minutes"),
        N_("Open the arena's page to be paired for %(game)s as soon as it starts."),
    ),
    "tournament_won": (
        N_("You won the tournament"),
        N_("Congratulations: you won the %(game)s tournament."),
    ),
    "daily_puzzle": (
        N_("Puzzle of the day"),
        N_("A new puzzle is waiting for you. Can you solve it?"),
    ),
    "reminder_2h": (
        N_("Time is running out"),
        # TRANSLATORS: %(opponent)s: a name, or "your opponent", or "the computer"; it must read right with each.
        N_("Less than 2 hours left for your move in %(game)s against %(opponent)s."),
    ),
}
#: The body when the computer is the one who acts: a language may need another verb form for a machine
#: (sw "imecheza", not "amecheza"). A message the computer never sends as the actor has none.
BY_THE_COMPUTER: dict[str, str] = {
    "moved": N_("The computer played %(move)s in %(game)s."),
    "joined": N_("The computer joined your game of %(game)s."),
    "accepted": N_("The computer accepted your challenge"),
    "draw_offered": N_("The computer offers a draw in %(game)s."),
}
#: Who "the opponent" is when the other seat has no name, or is the computer: said in the middle of a
#: sentence; the first letter of a body is made upper case when one of them opens it.
# TRANSLATORS: stands for a player who chose no name, anywhere in a sentence ("against your opponent").
ANONYMOUS = N_("your opponent")
# TRANSLATORS: stands for the computer opponent, anywhere in a sentence ("against the computer").
COMPUTER = N_("the computer")
#: A taken-over seat is always a person's doing: the computer cannot hand a seat to itself.
PERSON_ONLY = frozenset({"taken_over", "challenged", "tournament_game"})


class CatalogMissing(RuntimeError):
    """No compiled catalog for a language (``make site`` or ``make package`` compiles them)."""


def locale_dirs() -> list[Path]:
    candidates = [os.environ.get("UBAO_LOCALE_DIR"), _HERE.parent / "locale", _HERE.parents[1] / "site" / "locale"]
    return [Path(candidate) for candidate in candidates if candidate]


@cache
def translations(lang: str) -> gettext.GNUTranslations:
    if lang not in LANGS:
        raise ValueError(f"no notifications in {lang!r}")
    for directory in locale_dirs():
        if (directory / lang / "LC_MESSAGES" / "messages.mo").is_file():
            return gettext.translation("messages", localedir=str(directory), languages=[lang])
    raise CatalogMissing(f"no compiled catalog for {lang} in {', '.join(map(str, locale_dirs()))}")


@dataclass(frozen=True)
class Text:
    title: str
    body: str


def text(
    message: str, lang: str, game: str, opponent: str | None, move: str | None = None, computer: bool = False
) -> Text:
    """The title and body of ``message`` (a key of ``MESSAGES``) in ``lang``; ``computer``: the opponent is."""
    t = translations(lang)
    title, body = MESSAGES[message]
    computer = computer and message not in PERSON_ONLY
    if computer and message in BY_THE_COMPUTER:
        body = BY_THE_COMPUTER[message]
    stand_in = t.gettext(COMPUTER) if computer else None if opponent else t.gettext(ANONYMOUS)
    values = {"game": t.gettext(GAME_TITLES.get(game, game)), "opponent": stand_in or opponent, "move": move or ""}
    words = t.gettext(body) % values
    if stand_in and words.startswith(stand_in):
        words = words[:1].upper() + words[1:]  # a stand-in opens the sentence
    return Text(title=t.gettext(title), body=words)
