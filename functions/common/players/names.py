"""Display names a person can read (docs/games.md, "Fair play"): what ``clean_name`` stores, or why it refuses.

A name is NFKC-normalized (full-width and compatibility forms folded, so ``Ａｓｈａ`` is ``Asha``), trimmed, its
inner spaces collapsed, then checked:

* letters of any script in use, digits, plain spaces and ``.'-_``; a combining mark only on a letter, and at
  most ``MAX_MARKS_PER_LETTER`` of them (a script's vowel and tone signs fit; Zalgo does not);
* no invisible letter: the Hangul and half-width fillers and the other blank "letters" are refused by name;
* at most ``NAME_MAX_WIDTH`` columns as a phone draws them: a wide (East Asian) letter counts 2, a letter
  outside the Basic Multilingual Plane (cuneiform and the other historic scripts, whose signs are drawn wide)
  counts 3, a mark 0;
* not the computer's name in any of the site's languages (``Computer level 5`` was a player);
* no mix of the scripts whose letters look alike (Latin, Cyrillic, Greek, Armenian, Cherokee), as Unicode's
  "highly restrictive" level asks: ``Аsha`` (a Cyrillic А) beside ``Asha`` was #1 and #2 on a leaderboard.
"""

from __future__ import annotations

import unicodedata

from common.players.domain import InvalidName

NAME_MAX_CHARS = 24
#: The widest name, in the columns a phone's list gives it (see the module docstring).
NAME_MAX_WIDTH = 24
MAX_MARKS_PER_LETTER = 3
_NAME_PUNCTUATION = frozenset(".'-_")
#: Letters that draw nothing (categorised Lo, so the letter rule alone lets them through).
_INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u17b4\u17b5\u2800\u180e\u034f")
#: Scripts whose letters are look-alikes of each other's: a name uses one of them at most.
_LOOKALIKE_SCRIPTS = frozenset({"LATIN", "CYRILLIC", "GREEK", "ARMENIAN", "CHEROKEE"})
#: The computer's name in the site's languages, folded (a player's name may not start with one).
_COMPUTER_NAMES = ("computer", "kompyuta", "kompyuter", "cpu")


def clean_name(name: object) -> str | None:
    """The display name to store, or ``InvalidName`` saying why not (None removes the name)."""
    if name is None:
        return None
    if not isinstance(name, str):
        raise InvalidName("the name must be text")
    if any(character.isspace() and character != " " for character in name):
        raise InvalidName("the name must be on one line, with plain spaces")
    cleaned = " ".join(part for part in unicodedata.normalize("NFKC", name).split(" ") if part)
    if not cleaned:
        raise InvalidName("the name is empty; send null to remove it")
    if len(cleaned) > NAME_MAX_CHARS:
        raise InvalidName(f"the name is {len(cleaned)} characters long; at most {NAME_MAX_CHARS} are allowed")
    _check_characters(cleaned)
    width = sum(_width(character) for character in cleaned)
    if width > NAME_MAX_WIDTH:
        raise InvalidName(f"the name is {width} columns wide; at most {NAME_MAX_WIDTH} fit beside a rating")
    scripts = {_script(character) for character in cleaned if unicodedata.category(character)[0] == "L"}
    if len(scripts & _LOOKALIKE_SCRIPTS) > 1:
        raise InvalidName("the name mixes scripts whose letters look alike (" + ", ".join(sorted(scripts)) + ")")
    if folded(cleaned).startswith(_COMPUTER_NAMES):
        raise InvalidName("the name is the computer's; choose another")
    return cleaned


def folded(name: str) -> str:
    """``name`` as compared with others: case folded, marks, spaces and punctuation dropped."""
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    return "".join(character for character in decomposed if unicodedata.category(character)[0] in "LN")


def _check_characters(cleaned: str) -> None:
    marks = 0
    previous = ""
    for character in cleaned:
        category = unicodedata.category(character)
        if character in _INVISIBLE:
            raise InvalidName(f"the name may not hold the invisible letter U+{ord(character):04X}")
        if category[0] == "M":
            marks += 1
            if not previous or unicodedata.category(previous)[0] not in "LM":
                raise InvalidName("a combining mark must sit on a letter")
            if marks > MAX_MARKS_PER_LETTER:
                raise InvalidName(f"a letter may carry at most {MAX_MARKS_PER_LETTER} marks")
        elif category[0] in "LN" or character in _NAME_PUNCTUATION or character == " ":
            marks = 0
        else:
            raise InvalidName(f"the name may hold letters, digits, spaces and . ' - _, not {character!r}")
        previous = character


def _width(character: str) -> int:
    if unicodedata.category(character)[0] == "M":
        return 0
    if ord(character) > 0xFFFF:
        return 3
    return 2 if unicodedata.east_asian_width(character) in ("W", "F") else 1


def _script(character: str) -> str:
    try:
        return unicodedata.name(character).split(" ")[0]
    except ValueError:
        return "UNKNOWN"
