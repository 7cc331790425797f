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
MESSAGES: dict[str, tuple[str, str]] = {
    "moved": (N_("It is your move"), N_("%(opponent)s played %(move)s in %(game)s.")),
    "joined": (N_("It is your move"), N_("%(opponent)s joined your game of %(game)s.")),
    "accepted": (N_("Challenge accepted"), N_("%(opponent)s accepted your challenge")),
    "draw_offered": (N_("Draw offered"), N_("%(opponent)s offers a draw in %(game)s.")),
    "taken_over": (
        N_("The computer is playing for you"),
        N_("%(opponent)s let the computer take your seat in %(game)s. Open the game to play again."),
    ),
    "won": (N_("Game over"), N_("You won your game of %(game)s against %(opponent)s.")),
    "lost": (N_("Game over"), N_("You lost your game of %(game)s against %(opponent)s.")),
    "drawn": (N_("Game over"), N_("Your game of %(game)s against %(opponent)s is a draw.")),
    "reminder_24h": (
        N_("Time is running out"),
        N_("Less than 24 hours left for your move in %(game)s against %(opponent)s."),
    ),
    "review_ready": (
        N_("Your game review is ready"),
        N_("See where your game of %(game)s against %(opponent)s turned, and your mistakes as puzzles."),
    ),
    "daily_puzzle": (N_("Puzzle of the day"), N_("A new puzzle is waiting for you. Can you solve it?")),
    "reminder_2h": (
        N_("Time is running out"),
        N_("Less than 2 hours left for your move in %(game)s against %(opponent)s."),
    ),
}
#: Who "the opponent" is when the other seat has no name, or is the computer.
ANONYMOUS = N_("Your opponent")
COMPUTER = N_("The computer")


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
    values = {
        "game": t.gettext(GAME_TITLES.get(game, game)),
        "opponent": t.gettext(COMPUTER) if computer else (opponent or t.gettext(ANONYMOUS)),
        "move": move or "",
    }
    return Text(title=t.gettext(title), body=t.gettext(body) % values)
