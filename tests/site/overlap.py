"""How much of a text is shared with the seed texts, word for word: runs of tokens and shingles.

Text is compared as tokens: lower case, every character that is not a letter or a digit is a space
(so punctuation, quotes, dashes and table bars do not hide a copied phrase). A *shingle* is a run of
``n`` consecutive tokens. ``longest_shared_run`` finds the longest token run a page shares with any seed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

_NOT_WORD = re.compile(r"[^\w]+|_")


def tokens(text: str) -> list[str]:
    return _NOT_WORD.sub(" ", text.lower()).split()


def shingles(words: list[str], n: int) -> set[tuple[str, ...]]:
    return {tuple(words[i : i + n]) for i in range(len(words) - n + 1)}


#: The seed site's menu (seed 000 opens with it): the glossary prescribes these names for ubao's own menu, so a
#: line made of them alone is a list of names, not a sentence to keep away from.
MENU_LINE = re.compile(
    r"^(\s*(Nyumbani|Cheza|Historia ya Michezo|Orodha ya Ubora|Mashindano|Fumbo|Tazama|Jamii|Jifunze|Msaada"
    r"|Sheria za Mchezo|Sheria|Makala|Masharti ya Huduma|Sera ya Faragha)\s*)+$"
)


def without_menu(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not MENU_LINE.match(line))


@dataclass(frozen=True)
class Seeds:
    """The seed texts as token lists, and their shingles for the sizes the checks use."""

    texts: dict[str, list[str]]

    @classmethod
    def read(cls, folder: Path) -> Seeds:
        return cls(
            {path.name: tokens(without_menu(path.read_text(encoding="utf-8"))) for path in sorted(folder.glob("*.txt"))}
        )

    def shingle_set(self, n: int) -> set[tuple[str, ...]]:
        found: set[tuple[str, ...]] = set()
        for words in self.texts.values():
            found |= shingles(words, n)
        return found


def shared_share(words: list[str], seed_shingles: set[tuple[str, ...]], n: int) -> float:
    """The fraction of the text's distinct n-token shingles that also occur in a seed (0 for short texts)."""
    own = shingles(words, n)
    return len(own & seed_shingles) / len(own) if own else 0.0


def shared_runs(words: list[str], seed_shingles: set[tuple[str, ...]], n: int) -> list[str]:
    """Every maximal run of the text's tokens, at least ``n`` long, whose n-shingles all occur in a seed."""
    runs: list[str] = []
    start: int | None = None
    end = 0
    for i in range(len(words) - n + 1):
        if tuple(words[i : i + n]) in seed_shingles:
            if start is None or i > end - n + 1:
                if start is not None:
                    runs.append(" ".join(words[start:end]))
                start = i
            end = i + n
    if start is not None:
        runs.append(" ".join(words[start:end]))
    return runs


def longest_shared_run(words: list[str], seeds: Seeds, longest: int = 60) -> int:
    """The length of the longest token run the text shares with any seed (0 when none)."""
    best = 0
    for n in range(1, longest + 1):
        if not (shingles(words, n) & seeds.shingle_set(n)):
            break
        best = n
    return best


def joined(parts: Iterable[str]) -> str:
    return " ".join(parts)
