"""Whole names that look alike (docs/games.md "Fair play", "Names a person can read").

``clean_name`` refuses a name that mixes look-alike scripts (``Аsha``, a Cyrillic А among Latin letters); a
name wholly in another script can still look like another player's (``Аѕһа``, all Cyrillic, beside ``Asha``).
Two such names have the same *skeleton*, as Unicode's UTS #39 defines it (section 4): the name decomposed
(NFD), each character replaced by its prototype from Unicode's confusables data, decomposed again. Names are
compared without case (case folded first), since a list shows them side by side.

On one list (the rating list), a name whose skeleton an entry above it already has, or that is made of
look-alikes of another's letters, is shown with a short number after it (``lookalike``: 2, 3, ...): the
entry that keeps its name plain is the one whose letters are the skeleton's own (``Asha``), else the higher
placed. Nothing is refused at naming (ubao has no accounts and no name is reserved); the list tells them apart.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

#: Unicode's confusables data, cut to what a name can hold (the file's header says how).
DATA = Path(__file__).with_name("confusables.txt")


@lru_cache(maxsize=1)
def _prototypes() -> dict[str, str]:
    table: dict[str, str] = {}
    for line in DATA.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            source, prototype = line.split(";")
            table[chr(int(source, 16))] = "".join(chr(int(code, 16)) for code in prototype.split())
    return table


def skeleton(name: str) -> str:
    """UTS #39's skeleton of ``name``, case folded: equal skeletons are names a reader can take for each other."""
    table = _prototypes()
    decomposed = unicodedata.normalize("NFD", name.casefold())
    return unicodedata.normalize("NFD", "".join(table.get(character, character) for character in decomposed))


def lookalike_numbers(names: Sequence[str | None]) -> list[int | None]:
    """For each name of a list (best placed first), the number shown after it, or None when it stands apart."""
    groups: dict[str, list[int]] = {}
    for place, name in enumerate(names):
        if name:
            groups.setdefault(skeleton(name), []).append(place)
    numbers: list[int | None] = [None] * len(names)
    for shape, places in groups.items():
        if len(places) < 2:
            continue
        plain = [place for place in places if unicodedata.normalize("NFD", str(names[place]).casefold()) == shape]
        keeper = plain[0] if plain else places[0]
        others = [place for place in places if place != keeper]
        for number, place in enumerate(others, start=2):
            numbers[place] = number
    return numbers
